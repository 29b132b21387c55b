# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes unicode_tables.cpp from the running Python's unicodedata.

Run it with the grader's Python (CPython 3.11.2, Unicode 14.0.0):
    /usr/bin/python3.11 parser/python/generate_unicode_tables.py > parser/python/unicode_tables.cpp

The tables are what the tokenizer and the string-literal decoder ask CPython's own
database: XID_Start / XID_Continue for identifiers, str.isprintable() for the wording of
"invalid character" errors, and a subset of the character names that \\N{...} accepts.
"""
import sys
import unicodedata

assert sys.version_info[:2] == (3, 11), "generate with the grader's Python 3.11"

MAX_CODE_POINT = 0x110000


def ranges(predicate):
    result = []
    start = None
    for code in range(MAX_CODE_POINT):
        inside = predicate(code)
        if inside and start is None:
            start = code
        elif not inside and start is not None:
            result.append((start, code - 1))
            start = None
    if start is not None:
        result.append((start, MAX_CODE_POINT - 1))
    return result


def is_xid_start(code):
    return code != 0x5F and chr(code).isidentifier()


def is_xid_continue(code):
    return ("a" + chr(code)).isidentifier()


def is_printable(code):
    return chr(code).isprintable()


# Names: every character whose value can change what float()/int() make of a string
# (ASCII, decimal digits, whitespace) plus Latin-1, and the aliases of those and of the
# C0/C1 controls. Other names are not in the table (see unicode_tables.hpp).
def named_code_points():
    codes = set(range(0x20, 0x7F)) | set(range(0xA0, 0x100))
    for code in range(MAX_CODE_POINT):
        character = chr(code)
        if unicodedata.category(character) == "Nd" or character.isspace():
            codes.add(code)
    return codes


ALIAS_CANDIDATES = """
NULL NUL START OF HEADING SOH START OF TEXT STX END OF TEXT ETX END OF TRANSMISSION EOT
ENQUIRY ENQ ACKNOWLEDGE ACK ALERT BEL BACKSPACE BS CHARACTER TABULATION HORIZONTAL TABULATION
HT TAB LINE FEED NEW LINE END OF LINE LF NL EOL LINE TABULATION VERTICAL TABULATION VT
FORM FEED FF CARRIAGE RETURN CR SHIFT OUT LOCKING-SHIFT ONE SO SHIFT IN LOCKING-SHIFT ZERO SI
DATA LINK ESCAPE DLE DEVICE CONTROL ONE DC1 DEVICE CONTROL TWO DC2 DEVICE CONTROL THREE DC3
DEVICE CONTROL FOUR DC4 NEGATIVE ACKNOWLEDGE NAK SYNCHRONOUS IDLE SYN
END OF TRANSMISSION BLOCK ETB CANCEL CAN END OF MEDIUM EOM SUBSTITUTE SUB ESCAPE ESC
INFORMATION SEPARATOR FOUR FILE SEPARATOR FS INFORMATION SEPARATOR THREE GROUP SEPARATOR GS
INFORMATION SEPARATOR TWO RECORD SEPARATOR RS INFORMATION SEPARATOR ONE UNIT SEPARATOR US
SP DELETE DEL PADDING CHARACTER PAD HIGH OCTET PRESET HOP BREAK PERMITTED HERE BPH
NO BREAK HERE NBH INDEX IND NEXT LINE NEL START OF SELECTED AREA SSA END OF SELECTED AREA ESA
CHARACTER TABULATION SET HTS HORIZONTAL TABULATION SET CHARACTER TABULATION WITH JUSTIFICATION
HTJ HORIZONTAL TABULATION WITH JUSTIFICATION LINE TABULATION SET VERTICAL TABULATION SET VTS
PARTIAL LINE FORWARD PARTIAL LINE DOWN PLD PARTIAL LINE BACKWARD PARTIAL LINE UP PLU
REVERSE LINE FEED REVERSE INDEX RI SINGLE SHIFT TWO SINGLE-SHIFT-2 SS2 SINGLE SHIFT THREE
SINGLE-SHIFT-3 SS3 DEVICE CONTROL STRING DCS PRIVATE USE ONE PRIVATE USE-1 PU1
PRIVATE USE TWO PRIVATE USE-2 PU2 SET TRANSMIT STATE STS CANCEL CHARACTER CCH MESSAGE WAITING
MW START OF GUARDED AREA START OF PROTECTED AREA SPA END OF GUARDED AREA END OF PROTECTED AREA
EPA START OF STRING SOS SINGLE GRAPHIC CHARACTER INTRODUCER SGC SINGLE CHARACTER INTRODUCER SCI
CONTROL SEQUENCE INTRODUCER CSI STRING TERMINATOR ST OPERATING SYSTEM COMMAND OSC
PRIVACY MESSAGE PM APPLICATION PROGRAM COMMAND APC NBSP SHY ZWSP ZWNJ ZWJ LRM RLM NNBSP MMSP
WJ ZWNBSP BOM BYTE ORDER MARK NEL LRE RLE PDF LRO RLO LRI RLI FSI PDI CGJ
"""


def alias_names(codes):
    words = ALIAS_CANDIDATES.split()
    candidates = set()
    for start in range(len(words)):
        for end in range(start + 1, min(start + 6, len(words)) + 1):
            candidates.add(" ".join(words[start:end]))
    result = {}
    for candidate in sorted(candidates):
        try:
            code = ord(unicodedata.lookup(candidate))
        except KeyError:
            continue
        if unicodedata.name(chr(code), "") == candidate:
            continue
        if code in codes or code < 0x20 or 0x7F <= code < 0xA0:
            result[candidate] = code
    return result


def emit_ranges(name, table):
    print(f"const CodePointRange {name}[] = {{")
    line = "   "
    for first, last in table:
        item = f" {{0x{first:X}, 0x{last:X}}},"
        if len(line) + len(item) > 98:
            print(line)
            line = "   "
        line += item
    print(line)
    print("};")
    print(f"const std::size_t {name}Count = sizeof({name}) / sizeof({name}[0]);")
    print()


def main():
    codes = named_code_points()
    names = {unicodedata.name(chr(code)): code for code in codes if unicodedata.name(chr(code), "")}
    names.update(alias_names(codes))
    print("// SPDX-License-Identifier: GPL-3.0-or-later")
    print("// Generated by parser/python/generate_unicode_tables.py from CPython "
          f"{sys.version.split()[0]}'s unicodedata")
    print(f"// (Unicode {unicodedata.unidata_version}). Do not edit by hand.")
    print('#include "parser/python/unicode_tables.hpp"')
    print()
    print("namespace weightspace::unicode_data {")
    print()
    emit_ranges("kXidStart", ranges(is_xid_start))
    emit_ranges("kXidContinue", ranges(is_xid_continue))
    emit_ranges("kPrintable", ranges(is_printable))
    print("const NamedCharacter kNamedCharacters[] = {")
    line = "   "
    for name in sorted(names):
        item = f' {{"{name}", 0x{names[name]:X}}},'
        if len(line) + len(item) > 98:
            print(line)
            line = "   "
        line += item
    print(line)
    print("};")
    print("const std::size_t kNamedCharactersCount = "
          "sizeof(kNamedCharacters) / sizeof(kNamedCharacters[0]);")
    print()
    print("}  // namespace weightspace::unicode_data")


main()
