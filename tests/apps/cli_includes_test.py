# SPDX-License-Identifier: GPL-3.0-or-later
"""CLI11 only where options are built (issue 36). <CLI/CLI.hpp> (CLI11 2.1) defines its
validators as const objects at namespace scope, so each translation unit that includes it
constructs its own copies at every process start (35 copies cost a one-episode batch about 91 k
instructions and 12 page faults). Headers name CLI::App through apps/cli/cli_fwd.hpp; this test
fails when a header includes CLI11 again, or when the executable holds more copies than the
source files that include it.

usage: python3 cli_includes_test.py WEIGHTSPACE_BINARY SOURCE_DIR
"""
import os
import re
import subprocess
import sys
import unittest

BINARY, SOURCE = sys.argv[1:3]
del sys.argv[1:3]
INCLUDE = re.compile(r'^\s*#\s*include\s*<CLI/', re.MULTILINE)
FOLDERS = ("apps", "engine", "games", "include", "parser", "policy")


def files_including_cli11():
    found = []
    for folder in FOLDERS:
        for root, _, names in os.walk(os.path.join(SOURCE, folder)):
            for name in names:
                path = os.path.join(root, name)
                if name.endswith((".hpp", ".h", ".cpp")):
                    with open(path, encoding="utf-8") as text:
                        if INCLUDE.search(text.read()):
                            found.append(os.path.relpath(path, SOURCE))
    return sorted(found)


class CliIncludesTest(unittest.TestCase):
    def test_no_header_includes_cli11(self):
        headers = [path for path in files_including_cli11() if not path.endswith(".cpp")]
        self.assertEqual(headers, [], "include apps/cli/cli_fwd.hpp in headers instead")

    def test_the_executable_constructs_no_more_validators_than_its_option_files(self):
        symbols = subprocess.run(["nm", "-C", BINARY], capture_output=True, text=True, check=True).stdout
        copies = sum(1 for line in symbols.splitlines() if line.endswith(" CLI::ExistingFile"))
        sources = [path for path in files_including_cli11() if path.endswith(".cpp")]
        self.assertGreater(copies, 0, "no CLI11 validator found: the probe no longer sees them")
        self.assertLessEqual(copies, len(sources), sources)


if __name__ == "__main__":
    unittest.main()
