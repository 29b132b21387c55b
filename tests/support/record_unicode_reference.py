#!/usr/bin/python3
"""Records what the grader's Python says about every code point, for unicode_test.cpp:

    /usr/bin/python3 tests/support/record_unicode_reference.py tests/golden/unicode_reference.json

- "repr_blocks": for each block of 4096 code points, the first 16 hex digits of the SHA-256 of
  repr(chr(c)) + "\\n" for every c in the block, UTF-8 (repr escapes every surrogate, so the
  text is valid UTF-8). Covers str.isprintable() and repr()'s escapes and quotes.
- "names": every (code point, name) \\N{} accepts in its canonical upper-case spelling: the
  name unicodedata.name() gives and every alias (the five kinds of NameAliases.txt, not the
  named sequences); their count and the SHA-256 of "%X %s\\n" lines in (code point, name)
  order. Each is checked with CPython's own \\N{} decoder first.

Independent of parser/python/generate_unicode_tables.py: only unicodedata, repr and the
decoder are asked.
"""
import ast
import hashlib
import json
import sys
import unicodedata
from pathlib import Path

BLOCK = 0x1000


def repr_blocks():
    blocks = []
    for start in range(0, 0x110000, BLOCK):
        text = "".join(repr(chr(code)) + "\n" for code in range(start, start + BLOCK))
        blocks.append(hashlib.sha256(text.encode("utf-8")).hexdigest()[:16])
    return blocks


def aliases():
    """The 'namereplace' handler asks the database for names with aliases and named sequences
    allowed; CPython files those under private-use code points from U+F0000, so asking for the
    name of each of them lists them all."""
    result = []
    for slot in range(0xF0000, 0xF1000):
        replaced = chr(slot).encode("ascii", "namereplace").decode("ascii")
        if replaced.startswith("\\N{"):
            value = unicodedata.lookup(replaced[3:-1])
            if len(value) == 1:
                result.append((ord(value), replaced[3:-1]))
    return result


def names():
    pairs = [(code, unicodedata.name(chr(code), "")) for code in range(0x110000)]
    pairs = [(code, name) for code, name in pairs if name]
    pairs += aliases()
    pairs.sort()
    for start in range(0, len(pairs), 2000):
        chunk = pairs[start:start + 2000]
        decoded = ast.literal_eval('"' + "".join("\\N{%s}" % name for _, name in chunk) + '"')
        assert decoded == "".join(chr(code) for code, _ in chunk)
    text = "".join(f"{code:X} {name}\n" for code, name in pairs)
    return {"count": len(pairs), "sha256": hashlib.sha256(text.encode("ascii")).hexdigest()}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    if sys.version_info[:2] != (3, 11):
        sys.exit(f"needs CPython 3.11, not {sys.version.split()[0]}")
    recorded = {
        "format": "weight-space-golden/unicode_reference",
        "generator": "tests/support/record_unicode_reference.py",
        "environment": {"python": sys.version.split()[0], "unicode": unicodedata.unidata_version},
        "repr_block_size": BLOCK,
        "repr_blocks": repr_blocks(),
        "names": names(),
    }
    Path(sys.argv[1]).write_text(json.dumps(recorded, indent=1) + "\n")


if __name__ == "__main__":
    main()
