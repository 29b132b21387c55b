# SPDX-License-Identifier: GPL-3.0-or-later
"""The expression grammar of the differential generator (generate.py): edit targets and the
Python literals assigned to them, strings with every escape kind included.

Every draw comes from the random.Random handed in, and nothing depends on hash order or on
the interpreter's Unicode database, so a seed gives the same text on any Python 3.9+. "safe"
draws are what a parsing answer holds (values the grader accepts, indexes inside the tensor);
the others are the rest of the grammar, which the grader must reject in the same way.
"""
from __future__ import annotations

import math
import random
import re
import struct

from tables import (CHAR_NAMES, CODE_POINT_RANGES, DIGIT_FORMS, DIGIT_ZEROS, LETTER_FORMS, OTHER_NAMES, SHAPES,
                    STRING_PREFIXES, TEXT_CHARS, UNICODE_SPACES, UNKNOWN_NAMES)


class Grammar:
    def __init__(self, rng: random.Random) -> None:
        self.r = rng

    def pick(self, *weighted):
        """One of (weight, value-or-callable) pairs; a callable is called."""
        total = sum(weight for weight, _ in weighted)
        point = self.r.random() * total
        for weight, item in weighted:
            point -= weight
            if point < 0:
                return item() if callable(item) else item
        item = weighted[-1][1]
        return item() if callable(item) else item

    # ---- numbers ----
    def safe_number(self) -> str:
        r = self.r
        return self.pick(
            (6, lambda: str(r.randint(-9, 9))),
            (4, lambda: repr(round(r.uniform(-100, 100), r.randint(0, 6)))),
            (2, lambda: f"{r.randint(1, 9)}.{r.randint(0, 999)}e{r.randint(-40, 3)}"),
            (1, lambda: f"{r.choice(['', '-', '+'])}.{r.randint(0, 99)}"),
            (1, lambda: f"{r.randint(0, 99)}."),
            (1, lambda: f"{r.randint(1, 9)}_{r.randint(100, 999)}"),
            (1, self._digits_in_base),
            (1, lambda: f"{r.randint(1, 9)}E{r.choice(['', '+', '-'])}{r.randint(0, 5)}"),
            (1, lambda: r.choice(["True", "False", "-(3)", "+(2.5)", "(-1)", "0.0", "-0.0", "1000000", "-1e6",
                                  "1000000.03", "1e-45", "1.00000005960464477539062500000001", "16777215.0e-2",
                                  "0.1", "-.0", "1e-38", "5e-324", "0.30000000000000004", "999999.97"])),
            (2, lambda: self.string_literal(self.numeric_text(), safe=True)),
            (2, self.precise_number),
        )

    def precise_number(self) -> str:
        """Decimal spellings where rounding matters: full doubles, float32 subnormals, and
        float32 rounding midpoints (exact, or one double ulp off), which double rounding decides."""
        r = self.r
        sign = r.choice(["", "-"])
        kind = r.randrange(4)
        if kind == 0:
            return sign + repr(r.uniform(0, 10 ** r.randint(-3, 6)))
        if kind == 1:
            return sign + f"{r.uniform(1, 10):.{r.randint(8, 30)}f}e-{r.randint(36, 46)}"
        bits = r.randint(0x00000001, 0x49742400)  # positive float32 up to 1e6
        low = struct.unpack("<f", struct.pack("<I", bits))[0]
        high = struct.unpack("<f", struct.pack("<I", bits + 1))[0]
        middle = (low + high) / 2  # exact in double
        if kind == 3:
            middle = math.nextafter(middle, r.choice([math.inf, -math.inf]))
        text = repr(middle) if r.random() < 0.6 else f"{middle:.{r.randint(17, 40)}g}"
        return sign + text

    def _digits_in_base(self) -> str:
        base = self.r.choice(["0x", "0X", "0o", "0O", "0b", "0B"])
        digits = {"x": "0123456789abcdefABCDEF", "o": "01234567", "b": "01"}[base[1].lower()]
        text = "".join(self.r.choice(digits) for _ in range(self.r.randint(1, 5)))
        if len(text) > 1 and self.r.random() < 0.2:
            text = text[0] + "_" + text[1:]
        return base + text

    def numeric_text(self) -> str:
        """The text of a number float() reads, with the spaces, signs and digits it allows."""
        r = self.r
        body = self.pick(
            (4, lambda: str(r.randint(-999, 999))),
            (3, lambda: f"{r.randint(-99, 99)}.{r.randint(0, 99999)}"),
            (2, lambda: f"{r.randint(1, 9)}e{r.randint(-9, 5)}"),
            (1, lambda: f"{r.randint(1, 9)}_{r.randint(0, 9)}{r.randint(0, 9)}"),
            (1, lambda: r.choice(["\u0663", "\uff11\uff12", "\u0967.5", "-\uff17", "+1", "1E+2", "-0", ".5", "5."])),
        )
        if r.random() < 0.3:
            body = r.choice([" ", "\t", "\n", "\u00a0", "\u3000", "  "]) + body
        if r.random() < 0.3:
            body += r.choice([" ", "\r\n", "\x0b", "\u2003", "\x1c"])
        return body

    def wild_number(self) -> str:
        r = self.r
        return self.pick(
            (2, lambda: str(r.randint(2 ** 63, 2 ** 70)) if r.random() < 0.5 else str(10 ** r.randint(300, 330))),
            (2, lambda: r.choice(["1e400", "-1e309", "1e-400", "1e6", "1000000.04", "-1e7", "3.5e38", "1e39", "3.4e38",
                                  "16777217", "9007199254740993", "-3.4028235e38", "3.4028236e38",
                                  "2e-46", "float('inf')", "inf", "nan", "-inf", "1_e5", "1e_5", "1__0", "1_",
                                  "0_x1", "01", "00", "007", "0b2", "0o8", "0xg", "0x", "1.e", "1e", "1.2.3",
                                  "1..2", "1e+", "0b_1", "0x_f", ".e1", "1ee2", "1a", "0777", "0_0", "١٢",
                                  "1if 1 else 2", "0x1for", "1_000j", "1 .real", "0o", "0b", "1e1_0", "1_0e1_0",
                                  "09.5", "00.5", "0e0", "0.e-0", "1__2j", "0_7", "1e-1_0", "0b1e1", "0xe+1", "1_.5"])),
            (2, lambda: r.choice(["1j", "2+3j", "-1-2j", "1.5J", "0j", "-(1j)", "1e400j", "(1+2j)", "3-1.5j"])),
            (2, lambda: r.choice(["--1", "-+1", "+-2", "~1", "not 1", "-True", "+False", "-(-1)", "1+1", "2*3",
                                  "2**3", "1/2", "-'1'", "-None", "(1)", "((2.5))", "-(1.5)", "+(+1)", "1 if 1 else 2",
                                  "-x", "abs(-1)", "1,", "(1,)", "1 2", "1(2)", "(1)(2)", "1[0]", "1.real"])),
            (1, lambda: "0x" + "f" * r.randint(250, 270)),
            (1, lambda: "9" * r.randint(4295, 4305) if r.random() < 0.1 else "1" + "0" * r.randint(300, 320)),
        )

    # ---- strings ----
    def escape(self, ch: str, raw: bool, is_bytes: bool) -> str:
        """`ch` spelled as itself or as one of the escapes that decode to it."""
        code = ord(ch)
        if raw:
            return ch
        choices = [ch, ch]
        if code < 256:
            choices += [f"\\x{code:02x}", f"\\x{code:02X}", f"\\{code:o}", f"\\{code:03o}"]
        if not is_bytes:
            choices += [f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}", f"\\U{code:08X}"]
            if ch in CHAR_NAMES:
                choices += [f"\\N{{{name}}}" for name in CHAR_NAMES[ch]]
        simple = {"\t": "\\t", "\n": "\\n", "\r": "\\r", "\x0b": "\\v", "\x0c": "\\f", "\x07": "\\a", "\x08": "\\b",
                  "\\": "\\\\", "'": "\\'", '"': '\\"'}
        if ch in simple:
            choices.append(simple[ch])
        return self.r.choice(choices)

    def odd_escape(self, is_bytes: bool) -> str:
        """Escapes that keep their backslash, do not decode, or decode to an odd character."""
        r = self.r
        pool = ["\\d", "\\%", "\\8", "\\9", "\\ ", "\\q", "\\x4", "\\xg0", "\\x", "\\400", "\\777", "\\0", "\\\n",
                "\\a", "\\b", "\\f", "\\v", "\\\\", "\\'", '\\"', "\\u12", "\\U1234", "\\U00110000", "\\N", "\\N{",
                "\\N{SNOWMAN", "\\u00e9", "\\U0001F600", "\\udc80", "\\ud83d\\ude00", "\\x80", "\\xff"]
        pool += [f"\\N{{{name}}}" for name in OTHER_NAMES]
        if is_bytes:
            pool += ["\\x41", "\\101", "\\u0041", "\\N{DIGIT ONE}"]
        return r.choice(pool)

    def string_literal(self, content: str, safe: bool = False) -> str:
        """One literal (or an implicit concatenation of several) whose value is `content`,
        unless a wild draw adds odd escapes, characters or prefixes."""
        r = self.r
        pieces = [content]
        if len(content) > 1 and r.random() < 0.3:
            cut = r.randint(1, len(content) - 1)
            pieces = [content[:cut], content[cut:]]
        out = []
        # Bytes and str do not concatenate: a safe literal is all bytes (if ASCII) or all str.
        safe_bytes = r.random() < 0.2 and all(ord(ch) < 128 for ch in content)
        for piece in pieces:
            if safe:
                prefix = r.choice(["", "r"]) + r.choice(["b", "B"]) if safe_bytes else r.choice(["", "", "u", "r", "R"])
            else:
                prefix = r.choice(STRING_PREFIXES)
            is_bytes = "b" in prefix.lower()
            raw = "r" in prefix.lower()
            quote = r.choice(["'", '"', "'''", '"""'])
            text = []
            for ch in piece:
                if not safe and r.random() < 0.06:
                    text.append(self.odd_escape(is_bytes) if r.random() < 0.7 else r.choice(TEXT_CHARS))
                must_escape = ch == "\\" or ch == quote[0] or (len(quote) == 1 and ch in "\r\n")
                if must_escape and raw:
                    text.append(" ")  # a raw literal cannot spell it
                elif must_escape:
                    text.append(r.choice([e for e in (self.escape(ch, False, is_bytes) for _ in range(4))
                                          if e != ch] or ["\\x%02x" % ord(ch)]))
                else:
                    text.append(self.escape(ch, raw, is_bytes))
            for at in range(len(text) - 1):  # "\\60" before "7" would read as "\\607"
                if re.fullmatch(r"\\[0-7]{1,2}", text[at]) and text[at + 1][:1] in "01234567":
                    text[at] = "\\%03o" % int(text[at][1:], 8)
            if not raw and r.random() < 0.08:
                text.insert(r.randint(0, len(text)), "\\\n")  # a backslash-newline continues the literal
            body = "".join(text)
            out.append(prefix + quote + body + quote)
        if len(out) == 1:
            return out[0]
        glue = r.choice([" ", "", "\n", " \\\n"])
        return "(" + glue.join(out) + ")" if glue == "\n" else glue.join(out)

    def code_point(self) -> str:
        low, high = self.r.choice(CODE_POINT_RANGES)
        return chr(self.r.randint(low, high))

    def identifier(self) -> str:
        """A name made of arbitrary code points: an unknown tensor once NFKC is applied (the
        message shows the normalised name), or an invalid character."""
        r = self.r
        head = self.code_point() if r.random() < 0.7 else r.choice(["W", "b", "_", "x"])
        tail = "".join(self.code_point() if r.random() < 0.5 else r.choice("123_xW") for _ in range(r.randint(0, 2)))
        return head + tail

    def unicode_digits(self) -> str:
        """A number float() reads, spelled with the decimal digits of other scripts and Unicode spaces."""
        r = self.r
        zero = r.choice(DIGIT_ZEROS)
        digits = "".join(chr(zero + int(d)) if r.random() < 0.8 else d for d in str(r.randint(0, 99999)))
        if r.random() < 0.4:
            digits = digits[:1] + r.choice([".", "_", "e", "E", "e-", "."]) + digits[1:]
        return (r.choice([""] * 3 + UNICODE_SPACES) + r.choice(["", "", "-", "+"]) + digits +
                r.choice([""] * 3 + UNICODE_SPACES))

    def wild_string(self) -> str:
        r = self.r
        content = self.pick(
            (2, self.unicode_digits),
            (1, lambda: "".join(self.code_point() for _ in range(r.randint(1, 4)))),
            (3, self.numeric_text),
            (2, lambda: "".join(r.choice(TEXT_CHARS + ["1", "2", ".", " ", "e"]) for _ in range(r.randint(0, 6)))),
            (1, lambda: r.choice(["inf", "-Infinity", "nan", "+NaN", "iNF", "infinit", "0x10", "1_000", "1__0",
                                  "_1", "1e", "", " ", "١٢", "1,5", "½", "²", "Ⅻ", "𝟏𝟐", "١.٥", "1\x00"])),
        )
        return self.string_literal(content, safe=False)

    # ---- values ----
    def scalar(self, safe: bool) -> str:
        if safe:
            return self.safe_number()
        return self.pick((3, self.safe_number), (4, self.wild_number), (3, self.wild_string), (2, self.odd_value))

    def odd_value(self) -> str:
        r = self.r
        return r.choice(["None", "...", "Ellipsis", "x", "W1", "b1[0]", "[]", "()", "{}", "{1}", "{1: 2}", "set()",
                         "{1, 2.5}", "{**x}", "{'a': 1}", "dict()", "float(1)", "int('3')", "np.float32(1)",
                         "[1, 'a']", "[1, None]", "[None]", "(None,)", "[[1], 2]", "[*x]", "(*x,)", "lambda: 1",
                         "f'1'", "f'{1}'", "f'{'", "f'{1!r}'", "f'}'", "[1 for x in y]", "x.y", "'1' '2'",
                         "'1' b'2'", "b'\\xff'", "b'\u00e9'", "[True, False]", "[1j]", "(1, 2)", "[[1, 2], [3]]",
                         "[[]]", "[[[1]]]", "yield", "await x", "*x", "x := 1", "(x := 1)", "b'1' b'2'",
                         "Ｔｒｕｅ", "Ｎｏｎｅ", "(1, [2, (3,)])", "[1, [2, 3]]", "[[1, 2], [3, 4]]", "[True, 2, 3.5]",
                         "[65536, 1]", "[-32769]", "[1e39]", "[3.4e38, 1]", "[10**3]", "[2**63]", "[18446744073709551616]",
                         "[1, 2j]", "[b'1', 'x']", "['1', '2']", "[b'1', b'2']", "((),)", "[[], []]"])

    def value_for(self, shape: tuple[int, ...] | None, safe: bool) -> str:
        """A value that numpy broadcasts into `shape` (None: unknown) when safe."""
        r = self.r
        if shape is None or not shape or r.random() < 0.45:
            return self.scalar(safe)
        size = 1
        for dim in shape:
            size *= dim
        # Long lists are rare: they cost golden-file bytes and add little over short ones.
        longest = 40 if r.random() < 0.05 else 12
        dims = shape if size <= longest else shape[-1:] if shape[-1] <= longest else None
        if dims is None:
            return self.scalar(safe)
        if not safe and r.random() < 0.4:
            dims = tuple(max(0, d + r.choice([-1, 1, 0])) for d in dims) if r.random() < 0.6 else dims + (1,)
        return self.nested(list(dims), safe)

    def nested(self, dims: list[int], safe: bool) -> str:
        r = self.r
        if not dims:
            return self.scalar(safe)
        open_, close = ("[", "]") if r.random() < 0.8 else ("(", ")")
        items = [self.nested(dims[1:], safe) for _ in range(dims[0])]
        if not safe and items and r.random() < 0.15:
            items.pop(r.randrange(len(items)))  # ragged
        sep = r.choice([", ", ",", ", ", ",\n    "])
        trailing = "," if (open_ == "(" and len(items) == 1) or (items and r.random() < 0.1) else ""
        return open_ + sep.join(items) + trailing + close

    # ---- targets ----
    def tensor_name(self, safe: bool) -> tuple[str, str | None]:
        """(spelling, the tensor it names after NFKC or None)."""
        r = self.r
        name = r.choice(list(SHAPES))
        if not safe and r.random() < 0.25:
            return (r.choice(UNKNOWN_NAMES) if r.random() < 0.6 else self.identifier()), None
        if r.random() < 0.12:
            return r.choice(LETTER_FORMS[name[0]]) + r.choice(DIGIT_FORMS[name[1]]), name
        return name, name

    def int_index(self, size: int, safe: bool) -> tuple[str, int | None]:
        """(spelling, position it selects) of one integer index into an axis of `size`."""
        r = self.r
        i = r.randrange(size)
        if not safe and r.random() < 0.5:
            return r.choice([str(size), str(-size - 1), str(size + r.randint(1, 999)), "10**3", "1e300", "1e400",
                             "9223372036854775808", "-9223372036854775809", "9223372036854775807",
                             str(10 ** 20), "None", "...", "[0]", "[0, 1]", "'a'", "''", "'1.5'", "1j", "x",
                             "-True", "{}", "b'x'", "'0x1'", "1+1", "-(-1)", "'\u0663'", "2.0**3", "f'1'",
                             "(1)", "-0", "'-1'", "b' 2 '", "'1_0'", "'٣٣'", "True", "-1.9", "nan"]), None
        quote = r.choice(["'", '"'])
        return self.pick(
            (8, lambda: (str(i), i)),
            (3, lambda: (f"-{size - i}", i)),
            (1, lambda: (f"{i}.{r.randint(0, 9)}", i)),
            (1, lambda: (quote + r.choice(["", " ", "\\t"]) + str(i) + r.choice(["", " ", "\\n"]) + quote, i)),
            (1, lambda: (f"b'{i}'", i)),
            (1, lambda: (hex(i), i)),
            (1, lambda: (["False", "True"][i], i) if i < 2 else (f"+{i}", i)),
        )

    def slice_index(self, size: int, safe: bool) -> tuple[str, int | None]:
        """(spelling, selected length) of a slice over an axis of `size`."""
        r = self.r
        lower = r.choice([None, None, r.randint(-size, size - 1), r.randint(0, 4)])
        upper = r.choice([None, None, r.randint(-size, size), r.randint(1, 6), size + 50])
        step = r.choice([None, None, None, 1, 2, 3, -1, -2])
        length = len(range(*slice(lower, upper, step).indices(size)))

        def bound(value):
            if value is None:
                return r.choice(["", "", "None"])
            return r.choice([str(value), str(value), hex(value) if value >= 0 else str(value),
                             "True" if value == 1 else str(value)])
        text = bound(lower) + ":" + bound(upper)
        if step is not None or r.random() < 0.1:
            text += ":" + bound(step)
        if not safe and r.random() < 0.6:
            odd = r.choice(["1.5", "'1'", "0", "x", "1e9", "-10**30", "10**30", "2**64", "None", "[1]", "1j", "b'1'"])
            parts = text.split(":") + ([""] if text.count(":") == 1 else [])
            parts[r.randrange(3)] = odd
            return ":".join(parts), None
        return text, length

    def target(self, safe: bool) -> tuple[str, tuple[int, ...] | None]:
        """(text, shape it selects) of an edit target; the shape is None when not computed."""
        r = self.r
        name, tensor = self.tensor_name(safe)
        shape = SHAPES[tensor] if tensor else None
        real = shape or SHAPES[r.choice(list(SHAPES))]
        if not safe and r.random() < 0.2:
            return self._odd_target(name), None
        if r.random() < 0.04:
            return f"{name}[()]", real if shape else None
        count = r.randint(1, len(real))
        if not safe and r.random() < 0.15:
            count = len(real) + 1
        items, selected = [], []
        for axis in range(count):
            size = real[axis] if axis < len(real) else 3
            text, result = (self.slice_index(size, safe) if r.random() < 0.35 else self.int_index(size, safe))
            items.append(text)
            if ":" in text:
                selected.append(result)
            elif result is None:
                selected.append(None)
        if any(s is None for s in selected) or count > len(real) or shape is None:
            out_shape = None
        else:
            out_shape = tuple(selected) + real[count:]
        joined = r.choice([", ", ",", " , "]).join(items)
        if count == 1 and r.random() < 0.05:
            joined += ","
        if count > 1 and ":" not in joined and r.random() < 0.05:
            joined = "(" + joined + ")"
        return f"{name}[{joined}]", out_shape

    def _odd_target(self, name: str) -> str:
        r = self.r
        return r.choice([name, f"{name}[0][1]", f"{name}.T[0]", f"x.{name}[0]", f"{name}()[0]", "f()[0]",
                         f"{name}[0].real", f"({name}[0])", f"[{name}[0]]", f"{name}[0], {name}[1]",
                         f"*{name}[0],", f"{name}[...]", f"{name}[..., 0]", f"{name}[0, ...]", f"{name}[[0, 1]]",
                         f"{name}[0:2, [1]]", f"{name}[{name}[0]]", f"{name}[x]", f"{name}[0:x]", f"{name}[:, :, :]",
                         f"{name}[-0.5]", f"{name}['']", f"{name}[b'']", f"{name}[]", f"{name}[0", f"{name}[0]]",
                         f"{name}[0:1:0]", f"{name}[::0]", f"{name}[(0,)]", f"{name}[0,,1]", f"{name}[:]", "1",
                         f"'{name}'[0]", f"{name}[0:2][0]", f"{name}[{{}}]", f"{name}[1:2, 0.5]"])
