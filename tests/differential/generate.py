#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Differential generator: seeded, grammar-based whole answers (prose, ```edits fences and
their variants, statements, targets, literals, strings with every escape kind, Unicode,
layout, the wider Python grammar) plus mutations of valid answers, for comparing weightspace
with verify.apply_edits. grammar.py and python_grammar.py hold the grammar; this file the
answers, the mutations and the mix.

    tests/differential/generate.py [--seed S] [--count N] [--out FILE]

writes {"cases": [{"id", "category", "answer"}, ...]}, the input of
tests/support/record_parser_cases.py. The same seed and count give the same file on any
Python 3.9+ (draws come from random.Random only; no hash order, no Unicode database).

The golden file tests/golden/edge_cases/differential.json (checked by parser_golden_test) is
the default seed and count, recorded with the grader's stack:

    tests/differential/generate.py --out /tmp/differential_input.json
    /usr/bin/python3 tests/support/record_parser_cases.py /tmp/differential_input.json \\
        tests/golden/edge_cases/differential.json

tests/differential/explore.py runs many more seeds against the grader and weightspace locally.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from grammar import Grammar  # noqa: E402
from python_grammar import PythonGrammar  # noqa: E402
from tables import TEXT_CHARS  # noqa: E402

GOLDEN_SEED = 15
GOLDEN_COUNT = 3000

SAFE_OPS = [(10, "="), (3, "+="), (2, "-="), (2, "*=")]
OTHER_OPS = ["/=", "//=", "%=", "**=", "@=", "&=", "|=", "^=", "<<=", ">>=", ":=", "==", "=+", "= =", "=-"]
# Whitespace and look-alikes that are no Python whitespace (each its own SyntaxError message).
ODD_SPACES = ["\u00a0", "\u2003", "\u3000", "\ufeff", "\u200b", "\u1680", "\u2028", "\x85", "\x0c", "\x0b", "\x1c",
              "\u202f", "\u180e", "\x00", "\u2212", "\u201c", "\uff1d", "\u037e", "\U0001f600", "\u00ad"]
TAGS = ["edits"] * 12 + ["EDITS", "Edits", "eDiTs", "ed\u0131ts", "edit\u017f", "ED\u0130TS", "\uff45\uff44\uff49\uff54\uff53",
                         "edit", "edits2", "python", "edit s", "e dits", "diff", ""]
AFTER_TAG = [""] * 14 + [" ", "\t", "  \t ", "\u00a0", "\u2003", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\r", " python",
                         "\u200b", "\ufeff", "\n  \n", "\n\n", "\u3000", "\u205f"]
PROSE = ["Here are my edits.", "The policy moves right when the ball is left.", "Weights below:", "",
         "Note: `W1` is 600x32.", "I tried ```python\nprint(1)\n``` first.", "Grüße — 政策 ✓", "**Answer**",
         "Final answer:\n", "See the block.", "```\nnot a block\n```", "1. first\n2. second", "\u202etxet\u202c"]
TOKEN_POOL = ["=", "+=", "-=", "*=", "[", "]", "(", ")", "{", "}", ",", ":", ";", "'", '"', "\\", "1", "-", "*", "**",
              ".", "...", "None", "lambda", "if", "else", "#", "`", "```", "\n", "\t", " ", "0x", "e", "j", "_", "W1",
              "b3", "print", "not", "and", "@", "!", "$", "?", "\r", "match", "case", "type"]


class AnswerGenerator:
    def __init__(self, seed: int, only: list[str] | None = None) -> None:
        self.r = random.Random(seed)
        self.g = Grammar(self.r)
        self.pg = PythonGrammar(self.r)
        self.categories = [(18, "valid", self.valid), (14, "literal", self.literal), (12, "string", self.string),
                           (12, "target", self.target), (9, "statement", self.statement), (8, "layout", self.layout),
                           (8, "unicode", self.unicode), (7, "fence", self.fence), (18, "mutation", self.mutation),
                           (8, "python", self.python)]
        if only:  # a subset, for exploring one area (other answers than the full mix draws)
            unknown = set(only) - {name for _, name, _ in self.categories}
            if unknown:
                raise ValueError(f"unknown categories {sorted(unknown)}")
            self.categories = [entry for entry in self.categories if entry[1] in only]

    # ---- pieces ----
    def assignment(self, target: str | None = None, value: str | None = None, safe: bool = True,
                   shape: tuple[int, ...] | None = None) -> str:
        if target is None:
            target, shape = self.g.target(safe)
        op = self.g.pick(*SAFE_OPS)
        if value is None:
            value = self.g.value_for(shape, safe)
            while safe and op != "=" and re.search(r"['\"]", value) and self.r.random() < 0.9:
                value = self.g.value_for(shape, safe)  # numpy adds no strings to float32
        spacing = self.g.pick((8, " "), (2, ""), (1, "  "), (1, "\t"))
        return f"{target}{spacing}{op}{spacing}{value}"

    def safe_statements(self, low: int = 1, high: int = 6) -> list[str]:
        return [self.assignment() for _ in range(self.r.randint(low, high))]

    def join(self, statements: list[str], newline: str = "\n") -> str:
        """The statements one per line, or a few of them sharing a line after semicolons."""
        out = []
        for i, statement in enumerate(statements):
            if i and self.r.random() < 0.1:
                out[-1] += self.r.choice([";", "; ", " ;"]) + statement
            else:
                out.append(statement)
        tail = self.r.choice([newline, newline, newline, "", newline + newline])
        return newline.join(out) + tail

    def fenced(self, body: str) -> str:
        """The body in a plain ```edits block, with prose around it now and then."""
        r = self.r
        prose = r.random() < 0.3
        before = r.choice(PROSE) + r.choice(["\n", "\n\n", " "]) if prose else ""
        after = r.choice(["\n", "\n\n", ""]) + r.choice(PROSE) if prose else ""
        if body and not body.endswith(("\n", "\r")) and r.random() < 0.5:
            body += "\n"
        return f"{before}```edits\n{body}```{after}"

    # ---- categories ----
    def valid(self) -> str:
        return self.fenced(self.join(self.safe_statements(1, 8)))

    def literal(self) -> str:
        statements = self.safe_statements(0, 2)
        target, shape = self.g.target(True)
        statements.insert(self.r.randint(0, len(statements)), self.assignment(target, self.g.value_for(shape, False)))
        return self.fenced(self.join(statements))

    def string(self) -> str:
        statements = self.safe_statements(0, 2)
        value = self.g.wild_string() if self.r.random() < 0.5 else self.g.string_literal(self.g.numeric_text(), True)
        if self.r.random() < 0.2:
            value = "[" + ", ".join([value] + [self.g.wild_string() for _ in range(self.r.randint(0, 2))]) + "]"
        statements.insert(self.r.randint(0, len(statements)), self.assignment(value=value))
        return self.fenced(self.join(statements))

    def target(self) -> str:
        statements = self.safe_statements(0, 2)
        target, shape = self.g.target(False)
        statements.insert(self.r.randint(0, len(statements)), self.assignment(target, self.g.value_for(shape, True)))
        return self.fenced(self.join(statements))

    def statement(self) -> str:
        r = self.r
        first, second = self.g.target(True)[0], self.g.target(True)[0]
        value = self.g.safe_number()
        odd = r.choice([
            f"{first} {r.choice(OTHER_OPS)} {value}", f"{first} = {second} = {value}", f"{first}, {second} = {value}, 1",
            f"({first}, {second}) = (1, 2)", f"[{first}] = [{value}]", f"{first}: float = {value}", f"{first}: float",
            first, value, f"print({value})", f"{first} == {value}", "pass", f"del {first}", "import numpy as np",
            "from numpy import *", "global W1", "nonlocal x", f"assert {first}", f"return {value}", f"yield {value}",
            "break", "continue", "raise", f"if True:\n    {first} = {value}", f"if 1: {first} = {value}",
            f"for i in range(3):\n    {first} += {value}", "while 0: pass", "with x: pass", "def f(): pass",
            "class C: pass", f"try:\n    {first} = {value}\nexcept: pass", "match x:\n    case 1: pass",
            "async def f(): pass", "@d\ndef f(): pass", "lambda: 0", f"(x := {value})", f"x := {value}",
            f"print {value}", f"print {first}, {value}", "exec 'x'", f"f() = {value}", f"1 = {first}",
            f"{first} + 1 = {value}", f"{first} = ", f"= {value}", f"None = {value}", f"True[0] = {value}",
            f"class[0] = {value}", f"match[0] = {value}", f"case = {value}", f"_[0] = {value}", f"type[0] = {value}",
            f"{first} = yield", f"{first} = *{value},", f"*{first}, = {value},", f"{first} = lambda: 1",
            f"{first} = {value} if 1 else 2", f"{first} = {value};;", f"{first} = {value} {value}", f"{first} {value}",
            f"{first} = {value}, {value}", f"{first} = ({value}, {value})", f"del {first}, {second}",
            f"{first} =\n{value}", f"{first} = ({value}\n)", f"{first} = [{value},\n{value}]", f"{first} = ({value}",
            f"{first} = {value})", f"{first}[0 = {value}", "else: pass", "    pass", f"if x:\n{first} = 1",
        ])
        statements = self.safe_statements(0, 2)
        statements.insert(r.randint(0, len(statements)), odd)
        return self.fenced(self.join(statements))

    def layout(self) -> str:
        r = self.r
        lines = self.safe_statements(1, 5)
        newline = r.choice(["\n"] * 5 + ["\r\n", "\r\n", "\r"])
        for _ in range(r.randint(1, 3)):
            i = r.randrange(len(lines))
            lines[i] = self.g.pick(
                (3, lambda: lines[i] + r.choice(["  # why", " #", "# ünïcödé ✓", "\t# ``", " # \\", "#!", " # \u2028"])),
                (2, lambda: r.choice(["# comment", "#", "   # indented comment", "\t"]) + newline + lines[i]),
                (2, lambda: r.choice([" ", "    ", "\t", "\x0c", " \x0c", "\x0c ", "  \t"]) + lines[i]),
                (2, lambda: lines[i].replace(" = ", r.choice([" \\" + newline + "    = ", " = \\" + newline, " =\\" + newline]), 1)),
                (2, lambda: lines[i] + r.choice([";", "; ", ";;", " \\", "\\", " \\" + newline, ";\\"])),
                (1, lambda: newline + r.choice(["", "   ", "\t", "\x0c"]) + newline + lines[i]),
                (1, lambda: lines[i] + r.choice([" ", "\t", "\x0c", "  "])),
                (1, lambda: "if True:" + newline + r.choice(["    ", "\t", "  "]) + lines[i] + newline +
                 r.choice(["        ", "\t", "  \t", "    "]) + lines[i]),
                (1, lambda: "(" + lines[i] + ")" if " = " not in lines[i] else lines[i].replace(" = ", " = (", 1) + ")"),
            )
        return self.fenced(self.join(lines, newline))

    def unicode(self) -> str:
        r = self.r
        text = self.join(self.safe_statements(1, 4))
        for _ in range(r.randint(1, 2)):
            text = self.g.pick(
                (3, lambda: self._insert_at_space(text, r.choice(ODD_SPACES))),
                (2, lambda: re.sub(r"\b(W|b)([123])\b", lambda m: r.choice(
                    [m.group(0), r.choice(["Ｗ", "𝐖", "ｗ", "Ｂ"] if m.group(1) == "W" else ["ｂ", "𝐛", "Ｂ", "ᵇ"]) +
                     r.choice([m.group(2), chr(0xFF10 + int(m.group(2))), chr(0x1D7CE + int(m.group(2))), "¹"])]), text)),
                (2, lambda: "\ufeff" + text if r.random() < 0.5 else text.replace("\n", "\n\ufeff", 1)),
                (2, lambda: text.replace("\n", r.choice(["\r\n", "\r", "\u2028", "\x85", "\x0c\n", "\n\x0c"]))),
                (1, lambda: text.replace("\n", "  # " + r.choice(["日本語", "😀", "\u202e", "Ω≈ç√", "\u0378"]) + "\n", 1)),
                (1, lambda: self._insert_at_space(text, r.choice(["é", "π", "😀", "\u0301", "ℌ", "ﬁ", "·", "·1"]))),
                (1, lambda: re.sub(r"\d", lambda m: chr(0xFF10 + int(m.group(0))) if r.random() < 0.2 else m.group(0), text)),
                (1, lambda: text.replace("'", "\u2019", 2)),
                (2, lambda: self._insert_at_space(text, self.g.code_point())),
                (2, lambda: self.g.identifier() + "[0] = 1" + "\n" + text),
            )
        return self.fenced(text)

    def _insert_at_space(self, text: str, piece: str) -> str:
        spots = [m.start() for m in re.finditer(r"[ \[\]=\n]", text)] or [0]
        at = self.r.choice(spots)
        return text[:at] + piece + text[at:]

    def fence(self) -> str:
        r = self.r
        body = self.join(self.safe_statements(1, 3))
        open_ = r.choice(["```", "```", "```", "````", "``", "~~~", "``` "]) + r.choice(TAGS) + r.choice(AFTER_TAG)
        newline = "" if r.random() < 0.05 else r.choice(["\n", "\n", "\r\n", "\n  "])
        close = r.choice(["```", "```", "```", "````", "``", "", "``` trailing", "\n```", "```python"])
        block = open_ + newline + body + close
        before = r.choice(PROSE) + "\n" if r.random() < 0.5 else ""
        after = "\n" + r.choice(PROSE) if r.random() < 0.4 else ""
        extra = self.g.pick(
            (6, ""),
            (1, lambda: "```edits\n" + self.join(self.safe_statements(1, 2)) + "```\n"),
            (1, lambda: "```edits\nb1[0] = (\n```\n"),
            (1, lambda: "\n```edits\n" + self.join(self.safe_statements(1, 2))),
            (1, lambda: "```edits\n```edits\n" + body + "```"),
            (1, lambda: self.join(self.safe_statements(1, 1)) + "b1[0] = '```'\n"),
        )
        if extra and r.random() < 0.5:
            return before + extra + "\n" + block + after
        return before + block + after + extra

    def mutation(self) -> str:
        r = self.r
        answer = self.valid() if r.random() < 0.6 else r.choice(
            [self.layout, self.string, self.literal, self.statement, self.unicode, self.fence, self.target])()
        return self.mutate(answer, answer.find("```edits\n") + len("```edits\n"), answer.rfind("```"))

    def python(self) -> str:
        body = "\n".join(self.pg.statement() for _ in range(self.r.randint(1, 3))) + "\n"
        if self.r.random() < 0.5:
            body = self.mutate(body, 0, len(body))
        return self.fenced(body)

    def mutate(self, answer: str, start: int, end: int) -> str:
        """1-3 character or token edits, mostly between `start` and `end` (the edits block)."""
        r = self.r
        base, edits = answer, r.randint(1, 3)
        while edits > 0 or answer == base:  # some edits undo themselves: swapping equal characters
            edits -= 1
            at = r.randint(0, len(answer)) if end <= start or r.random() < 0.1 else r.randint(start, end)
            answer = self.g.pick(
                (3, lambda: answer[:at] + answer[at + 1:]),
                (3, lambda: answer[:at] + self._random_char() + answer[at:]),
                (1, lambda: answer[:at] + answer[at:at + r.randint(1, 4)] + answer[at:]),
                (1, lambda: answer[:at] + answer[at + 1:at + 2] + answer[at:at + 1] + answer[at + 2:]),
                (4, lambda: self._token_edit(answer, at)),
                (1, lambda: answer[:at] + (r.choice(["", "```", "\n```"]) if r.random() < 0.5 else "")),
            )
            end = min(end, len(answer))
        return answer

    def _random_char(self) -> str:
        r = self.r
        return self.g.pick(
            (5, lambda: r.choice("=[](){},:;'\"\\#`.-+*/%@!$?_0123456789eEjxXbBrRfF \t\n\r")),
            (2, lambda: r.choice(ODD_SPACES + TEXT_CHARS)),
            (1, lambda: chr(r.choice([r.randint(0x80, 0x2FF), r.randint(0x300, 0xFFFD), r.randint(0x10000, 0x3FFFF),
                                      r.randint(0xE0000, 0xE01EF), r.randint(0xD800, 0xDFFF)]))),
        )

    def _token_edit(self, answer: str, at: int) -> str:
        r = self.r
        tokens = re.findall(r"\w+|\s+|\\.|.", answer[:at]), re.findall(r"\w+|\s+|\\.|.", answer[at:])
        head, tail = tokens
        if not tail:
            return answer + r.choice(TOKEN_POOL)
        kind = r.choice(["delete", "insert", "duplicate", "swap", "insert_own"])
        if kind == "delete":
            tail = tail[1:]
        elif kind == "insert":
            tail = [r.choice(TOKEN_POOL)] + tail
        elif kind == "insert_own":
            tail = [r.choice(head + tail)] + tail
        elif kind == "duplicate":
            tail = [tail[0]] + tail
        elif len(tail) > 1:
            tail = [tail[1], tail[0]] + tail[2:]
        return "".join(head + tail)

    # ---- cases ----
    def cases(self, count: int) -> list[dict]:
        seen, out, counters = set(), [], {}
        weights = [(weight, (name, method)) for weight, name, method in self.categories]
        while len(out) < count:
            name, method = self.g.pick(*weights)
            for _ in range(50):  # a fresh answer; short categories repeat a draw now and then
                answer = method()
                if answer not in seen:
                    break
            else:
                continue
            seen.add(answer)
            counters[name] = counters.get(name, 0) + 1
            out.append({"id": f"{name}/{counters[name]:04d}", "category": name, "answer": answer})
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=GOLDEN_SEED)
    parser.add_argument("--count", type=int, default=GOLDEN_COUNT)
    parser.add_argument("--out", type=Path, help="output file (default: standard output)")
    args = parser.parse_args()
    if args.count < 0:
        parser.error(f"--count must not be negative, got {args.count}")
    text = json.dumps({"cases": AnswerGenerator(args.seed).cases(args.count)}, indent=1, ensure_ascii=True) + "\n"
    if args.out:
        args.out.write_text(text, encoding="ascii")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
