# SPDX-License-Identifier: GPL-3.0-or-later
"""Random Python beyond edits: expressions and statements of the whole 3.11 grammar (displays,
comprehensions, lambdas, f-strings, calls, compound statements, match patterns, decorators),
for the "python" category of generate.py. Most of it parses and is then refused by
apply_edits (or by literal_eval); mutated, it reaches CPython's many syntax error messages in
every grammatical context.
"""
from __future__ import annotations

import random

NAMES = ["W1", "b3", "x", "y", "self", "print", "match", "case", "_", "type", "f", "np", "é", "ｘ"]
BINARY = ["+", "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "&", "|", "^"]
COMPARE = ["<", ">", "==", "!=", "<=", ">=", "in", "not in", "is", "is not"]
# Keywords where a name belongs: each context has its own message, or plain invalid syntax.
KEYWORDS = ["if", "else", "for", "in", "not", "and", "is", "lambda", "None", "True", "False", "def", "class",
            "return", "yield", "await", "async", "import", "from", "as", "with", "try", "except", "raise", "del",
            "pass", "global", "assert", "while", "break", "elif", "finally", "nonlocal", "continue", "or"]
AUGMENTED = ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "@=", "<<=", ">>=", "&=", "|=", "^="]


class PythonGrammar:
    def __init__(self, rng: random.Random) -> None:
        self.r = rng

    def name(self) -> str:
        return self.r.choice(KEYWORDS) if self.r.random() < 0.04 else self.r.choice(NAMES)

    def atom(self) -> str:
        r = self.r
        return r.choice([
            self.name(), self.name(), str(r.randint(0, 99)), f"{r.randint(0, 9)}.{r.randint(0, 9)}", "1j", "0x1F",
            "'s'", '"t"', "b'b'", "r'\\d'", "None", "True", "False", "...", "f'{x}'", "f'{x!r:>{y}}'",
            "f'{x=}'", "f'{{}}'", "f'{x:{y}.{2}}'", "u'u'", "'''t'''", "1 .real", "1.e5j", "0o17", "1_0",
            "f'{x!s}' 'a'", "rb'\\x'", "...", "x.y.z", "f'{x}' f'{y!a}'", "0b1", "1e-3",
        ])

    def expr(self, depth: int = 0) -> str:
        r = self.r
        if depth > 2 or r.random() < 0.35:
            return self.atom()
        e = lambda: self.expr(depth + 1)  # noqa: E731 - a short name keeps the table readable
        forms = [
            lambda: f"{e()} {r.choice(BINARY)} {e()}",
            lambda: f"{r.choice(['-', '+', '~', 'not '])}{e()}",
            lambda: " ".join([e()] + [f"{r.choice(COMPARE)} {e()}" for _ in range(r.randint(1, 2))]),
            lambda: f"{e()} {r.choice(['and', 'or'])} {e()}",
            lambda: f"{e()} if {e()} else {e()}",
            lambda: f"lambda {self.parameters(lambda_=True)}: {e()}",
            lambda: f"{self.name()}({self.arguments(depth)})",
            lambda: f"{self.name()}[{self.subscript(depth)}]",
            lambda: f"{self.name()}.{self.name()}",
            lambda: "[" + ", ".join(e() for _ in range(r.randint(0, 3))) + "]",
            lambda: "(" + ", ".join(e() for _ in range(r.randint(0, 3))) + ("," if r.random() < 0.5 else "") + ")",
            lambda: "{" + ", ".join(e() for _ in range(r.randint(1, 3))) + "}",
            lambda: "{" + ", ".join(f"{e()}: {e()}" for _ in range(r.randint(0, 2))) + r.choice(["", ", **x"]) + "}",
            lambda: f"[{e()} {self.comprehension(depth)}]",
            lambda: f"{{{e()}: {e()} {self.comprehension(depth)}}}",
            lambda: f"({e()} {self.comprehension(depth)})",
            lambda: f"*{self.name()}",
            lambda: f"(yield {e()})",
            lambda: f"(yield from {e()})",
            lambda: f"await {e()}",
            lambda: f"({self.name()} := {e()})",
            lambda: f"({e()})",
            lambda: f"{e()} if {e()}",
            lambda: f"{self.name()}[{r.choice(['*', '**', ''])}{e()}{r.choice(['', ':', '::', ',', ':=1'])}]",
            lambda: f"{self.name()}({self.name()}={e()}{r.choice(['', ' for x in y', ', *z', ', **w'])})",
            lambda: f"lambda: {r.choice(['(yield)', 'x = 1', '*x', 'await x', 'x := 1'])}",
            lambda: f"{e()}.{r.choice(['real', 'if', '1', '_'])}",
            lambda: "{" + f"**{e()}, {e()}: {e()}" + "}",
            lambda: f"[{e()} for {self.target()} in {e()} {r.choice(['if', 'else', 'for', 'if x else y', ''])}]",
        ]
        return r.choice(forms)()

    def comprehension(self, depth: int) -> str:
        text = f"{self.r.choice(['for', 'async for'])} {self.target()} in {self.expr(depth + 1)}"
        if self.r.random() < 0.4:
            text += f" if {self.expr(depth + 1)}"
        return text

    def subscript(self, depth: int) -> str:
        r = self.r
        item = lambda: r.choice([self.expr(depth + 1), ":", f"{r.randint(0, 5)}:", "::2", f"{self.name()}:-1",  # noqa: E731
                                 "...", "None"])
        return ", ".join(item() for _ in range(r.randint(1, 2)))

    def arguments(self, depth: int) -> str:
        r = self.r
        out = [self.expr(depth + 1) for _ in range(r.randint(0, 2))]
        out += r.choice([[], ["*x"], ["k=1"], ["**kw"], ["k=1", "*a"], ["x for x in y"]])
        return ", ".join(out)

    def parameters(self, lambda_: bool = False) -> str:
        r = self.r
        annotate = (lambda: "") if lambda_ else (lambda: r.choice(["", "", ": int", ": 'W1'"]))  # noqa: E731
        out = [f"{n}{annotate()}" for n in ["a", "b"][:r.randint(0, 2)]]
        out += r.choice([[], ["c=1"], ["/"], ["*", "k"], ["*args"], ["**kw"], ["*args", "k=2", "**kw"], ["a=1", "b"]])
        return ", ".join(out)

    def target(self) -> str:
        r = self.r
        return r.choice([self.name(), f"{self.name()}[0]", f"{self.name()}.a", f"({self.name()}, {self.name()})",
                         f"{self.name()}, *{self.name()}", f"[{self.name()}]", f"{self.name()}[1:2]"])

    def pattern(self, depth: int = 0) -> str:
        r = self.r
        if depth > 1 or r.random() < 0.4:
            return r.choice(["1", "-1", "1+2j", "'s'", "None", "True", "x", "_", "W1.b", "[]", "()", "{}"])
        p = lambda: self.pattern(depth + 1)  # noqa: E731
        return r.choice([
            lambda: f"[{p()}, *rest]", lambda: f"({p()}, {p()})", lambda: f"{p()} | {p()}", lambda: f"{p()} as n",
            lambda: f"{{'k': {p()}, **rest}}", lambda: f"Point(x={p()}, y=0)", lambda: f"Point({p()})",
        ])()

    def block(self, depth: int, indent: str) -> str:
        inner = indent + self.r.choice(["    ", "  ", "\t"])
        return "\n".join(self.statement(depth + 1, inner) for _ in range(self.r.randint(1, 2)))

    def statement(self, depth: int = 0, indent: str = "") -> str:
        r = self.r
        e = lambda: self.expr(1)  # noqa: E731
        if depth > 1:
            simple_only = True
        else:
            simple_only = r.random() < 0.5
        simple = [
            lambda: e(), lambda: f"{self.target()} = {e()}", lambda: f"{self.target()} = {self.target()} = {e()}",
            lambda: f"{self.target()} {r.choice(AUGMENTED)} {e()}", lambda: f"{self.target()}: {e()} = {e()}",
            lambda: f"{self.name()}: int", lambda: "pass", lambda: "break", lambda: "continue",
            lambda: f"return {e()}", lambda: f"raise {e()} from {e()}", lambda: f"global {self.name()}",
            lambda: f"nonlocal {self.name()}", lambda: f"del {self.target()}", lambda: f"assert {e()}, {e()}",
            lambda: "import numpy as np, os.path", lambda: "from . import (a, b as c,)", lambda: "from __future__ import braces",
            lambda: f"type X = {e()}", lambda: f"print {e()}", lambda: f"{e()}; {e()}",
            lambda: f"{r.choice(['[x]', 'x, y', '(x)', 'x.y', '(x, y)', 'x[0]', '*x'])}: int" + r.choice(["", " = 1"]),
            lambda: f"{r.choice(['f()', 'x + 1', '(a, b)', '[a]', 'a.b', 'None', '...', '-x'])} {r.choice(AUGMENTED)} 1",
            lambda: f"del {r.choice(['f()', '(a, b), c[0]', 'x + 1', '*x', '[a, [b]]', '()', 'None', 'a.b[1:2]'])}",
            lambda: f"{r.choice(['()', '[]', 'f()', '1', 'x + 1', '*a, *b', 'a if b else c', '(yield)'])} = {e()}",
            lambda: f"x = {r.choice(['*a, *b', '*a', 'yield', 'yield from x', 'x := 1', 'lambda: 1', 'await x'])}",
            lambda: f"import {r.choice(['a.b.c as d', 'a as b.c', '.a', 'a,', '(a)', '*'])}",
            lambda: f"from {r.choice(['..', '.a', 'a', '.'])} import {r.choice(['*', '(a, b', 'a as', '(a, b,)', 'a.b'])}",
            lambda: f"{r.choice(['return', 'raise', 'assert', 'global', 'nonlocal', 'del', 'yield'])}"
                    f"{r.choice(['', ' *a, *b', ' a, b', ' x from', ' (a, b)', ' ,'])}",
        ]
        if simple_only:
            return indent + r.choice(simple)()
        body = lambda: self.block(depth, indent)  # noqa: E731
        compound = [
            lambda: f"if {e()}:\n{body()}" + (f"\n{indent}elif {e()}:\n{body()}" if r.random() < 0.3 else "") +
                    (f"\n{indent}else:\n{body()}" if r.random() < 0.3 else ""),
            lambda: f"for {self.target()} in {e()}:\n{body()}",
            lambda: f"while {e()}:\n{body()}",
            lambda: f"with {e()} as {self.target()}, {e()}:\n{body()}",
            lambda: f"try:\n{body()}\n{indent}except {r.choice(['', 'E', 'E as e', '(A, B)', '* E'])}:\n{body()}" +
                    (f"\n{indent}finally:\n{body()}" if r.random() < 0.4 else ""),
            lambda: f"{r.choice(['', 'async '])}def f({self.parameters()}){r.choice(['', ' -> int'])}:\n{body()}",
            lambda: f"@{self.name()}{r.choice(['', '()', '.d'])}\ndef g():\n{body()}",
            lambda: f"class C({r.choice(['', 'B', 'B, metaclass=M', '*bases'])}):\n{body()}",
            lambda: f"match {e()}:\n{indent}    case {self.pattern()}" + r.choice(["", f" if {e()}"]) +
                    f":\n{self.block(depth + 1, indent + '    ')}",
            lambda: f"{self.target()} = {e()}",
            lambda: f"with ({e()} as {self.target()}, {e()}{r.choice(['', ',', ' as x,'])}):\n{body()}",
            lambda: f"async {r.choice(['for x in y', 'with a as b'])}:\n{body()}",
            lambda: f"for {r.choice(['f()', 'x + 1', '*a, *b', '(a, b)', 'x in y', '1'])} in {e()}:\n{body()}",
            lambda: f"with {e()} as {r.choice(['f()', '(a, b)', 'x + 1', 'x.y', '*a'])}:\n{body()}",
            lambda: f"{r.choice(['if', 'while', 'elif', 'else', 'try', 'finally', 'except', 'for x in y'])}"
                    f"{r.choice([' x', '', ' x = 1', ' (x := 1)'])}{r.choice([':', '', ' :'])}\n{body()}",
            lambda: f"def {r.choice(['f', 'f()', '1', 'if', 'f[0]'])}({self.parameters()}):\n{body()}",
            lambda: f"class {r.choice(['C', 'C()', 'C(**k)', 'C(x for x in y)', 'C(x=1, 2)'])}:\n{body()}",
        ]
        return indent + r.choice(compound)()
