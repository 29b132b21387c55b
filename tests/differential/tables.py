# SPDX-License-Identifier: GPL-3.0-or-later
"""The tables the differential generator draws from (grammar.py, generate.py): tensor names and
their look-alikes, \\N{...} names, code point ranges, decimal digits and spaces of other scripts.
Fixed lists, not the interpreter's Unicode database, so that a seed gives the same answers on
any Python 3.
"""

SHAPES = {"W1": (600, 32), "b1": (32,), "W2": (32, 32), "b2": (32,), "W3": (32, 6), "b3": (6,)}

# Spellings that NFKC folds onto a tensor name, and names that are no tensor (some only after
# folding: 'Ｂ1' is B1, 'Ⅰ' is I).
LETTER_FORMS = {"W": ["W", "Ｗ", "𝐖", "𝑊", "𝕎"], "b": ["b", "ｂ", "𝐛", "𝒃", "𝔟"]}
DIGIT_FORMS = {d: [d, chr(0xFF10 + int(d)), chr(0x1D7CE + int(d)), chr(0x1D7D8 + int(d))] for d in "123"}
UNKNOWN_NAMES = ["W4", "w1", "B1", "Ｂ1", "W", "b0", "b7", "x", "_", "W1_", "weights", "ﬁ", "W١", "Ⅰ",
                 "W0", "b4", "W12", "W1ᅟ", "self", "np", "Wº1", "ｉｆ", "Ｎｏｎｅ", "𝐓𝐫𝐮𝐞", "ｍａｔｃｈ", "ｐｒｉｎｔ"]

# \N{...} names (and aliases, abbreviations, other cases) of characters float() reads.
CHAR_NAMES = {
    "0": ["DIGIT ZERO"], "1": ["DIGIT ONE", "digit one"], "2": ["DIGIT TWO"], "3": ["DIGIT THREE"],
    "4": ["DIGIT FOUR"], "5": ["DIGIT FIVE", "Digit Five"], "6": ["DIGIT SIX"], "7": ["DIGIT SEVEN"],
    "8": ["DIGIT EIGHT"], "9": ["DIGIT NINE"], ".": ["FULL STOP"], "-": ["HYPHEN-MINUS"],
    "+": ["PLUS SIGN"], "e": ["LATIN SMALL LETTER E"], "E": ["LATIN CAPITAL LETTER E"],
    " ": ["SPACE", "SP"], "_": ["LOW LINE"], "\t": ["CHARACTER TABULATION", "TAB", "HT"],
    "\n": ["LINE FEED", "LF", "NEW LINE", "EOL"], "\u00a0": ["NO-BREAK SPACE", "NBSP"],
    "\u2003": ["EM SPACE"], "\u0663": ["ARABIC-INDIC DIGIT THREE"], "\uff17": ["FULLWIDTH DIGIT SEVEN"],
}
OTHER_NAMES = ["SNOWMAN", "GREEK SMALL LETTER ALPHA", "ZERO WIDTH SPACE", "BYTE ORDER MARK", "ZWNJ",
               "HANGUL SYLLABLE GAG", "CJK UNIFIED IDEOGRAPH-4E00", "NO SUCH NAME", "LATIN CAPITAL LETTER A WITH MACRON AND GRAVE",
               "SNOWMAN ", "", "DIGIT TEN", "PERIOD", "VARIATION SELECTOR-17", "EURO SIGN", "NULL"]
# Characters for the rejections' repr(): printable or not, combining, bidi, unassigned, quotes.
TEXT_CHARS = ["a", "Z", "é", "ß", "α", "☃", "€", "一", "各", "😀", "\u0301", "\u200b", "\u202e", "\ufeff",
              "\u0378", "\U000e0100", "\ue000", "\U00040000", "\x00", "\x7f", "\\", "'", '"', "{", "}", "\u2028"]

# Where to draw code points for identifiers and text: scripts, compatibility characters that NFKC
# rewrites (ligatures, fullwidth and halfwidth forms, math alphanumerics, enclosed, squared,
# CJK compatibility), modifiers, combining marks, variation selectors, unassigned and private use.
CODE_POINT_RANGES = [(0x41, 0x7A), (0xA0, 0x24F), (0x2B0, 0x36F), (0x370, 0x4FF), (0x530, 0x6FF), (0x900, 0x9FF),
                     (0xE00, 0xEFF), (0x10A0, 0x11FF), (0x1680, 0x18AF), (0x1D00, 0x1DFF), (0x1E00, 0x1FFF),
                     (0x2000, 0x218F), (0x2460, 0x24FF), (0x2C00, 0x2DFF), (0x3000, 0x33FF), (0x4E00, 0x4E40),
                     (0xA640, 0xA7FF), (0xAC00, 0xAC40), (0xD7B0, 0xD7FF), (0xE000, 0xE010), (0xF900, 0xFAFF),
                     (0xFB00, 0xFDFF), (0xFE00, 0xFE6F), (0xFE70, 0xFFFF), (0x10400, 0x1044F), (0x1D400, 0x1D7FF),
                     (0x1E900, 0x1E95F), (0x1F100, 0x1F2FF), (0x1F600, 0x1F64F), (0x2F800, 0x2F8FF),
                     (0xE0000, 0xE01EF), (0x30000, 0x30010), (0x40000, 0x40010), (0x10FFF0, 0x10FFFF)]
# The zero of each run of ten decimal digits (Unicode category Nd), which float() and int() read.
DIGIT_ZEROS = [0x30, 0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66, 0xDE6,
               0xE50, 0xED0, 0xF20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90, 0x1B50, 0x1BB0,
               0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10, 0x104A0, 0x10D30,
               0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0, 0x11650, 0x116C0, 0x11730, 0x118E0,
               0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60, 0x16AC0, 0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC,
               0x1D7F6, 0x1E140, 0x1E2F0, 0x1E950, 0x1FBF0]
# Python's str.isspace() characters and look-alikes that are not.
UNICODE_SPACES = [" ", "\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\xa0", "\u1680",
                  "\u2000", "\u2005", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\u200b", "\ufeff",
                  "\u180e", "\u2060", "\x00", "\u00ad"]

STRING_PREFIXES = ["", "", "", "r", "u", "R", "U", "b", "B", "rb", "Br", "f", "F", "rf", "fR", "ur", "bu", "rr"]
