# SPDX-License-Identifier: GPL-3.0-or-later
"""The man page (cmake/ManPage.cmake, apps/man/sections.roff) as `man` shows it at 80
columns: every section a user looks for, a synopsis per command, every environment variable
the command line reads, and no line past the 80th column.

usage: python3 man_page_test.py WEIGHTSPACE_1 SOURCE_DIR
"""
import os
import re
import subprocess
import sys
import unittest

PAGE, SOURCE = sys.argv[1:3]
del sys.argv[1:3]


def rendered():
    # What `MANWIDTH=80 man weightspace` prints, without man-db: groff's man macros, plain text.
    result = subprocess.run(["groff", "-man", "-Tutf8", "-rLL=80n", "-rLT=80n", "-P-cbou", PAGE],
                            capture_output=True, text=True, check=True)
    return result.stdout


def variables_read():
    names = set()
    for folder in ("apps", "engine", "parser", "policy", "games", "conform", "include"):
        for root, _, files in os.walk(os.path.join(SOURCE, folder)):
            for name in files:
                if name.endswith((".cpp", ".hpp")):
                    with open(os.path.join(root, name), encoding="utf-8") as f:
                        text = f.read()
                    names.update(re.findall(r'"((?:WEIGHT_SPACE|WEIGHTSPACE|SLURM)_[A-Z_]+|JOB_COMPLETION_INDEX)"', text))
    return names


class ManPage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.text = rendered()

    def test_sections(self):
        for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES",
                        "EXAMPLES", "SEE ALSO"):
            self.assertRegex(self.text, re.compile("^" + section + "$", re.M))

    def test_a_synopsis_and_name_per_command(self):
        synopsis = self.text.split("\nSYNOPSIS\n")[1].split("\nDESCRIPTION\n")[0]
        for command in ("grade", "batch", "merge", "bench", "verify", "parse", "episode", "replay", "games",
                        "conform", "sweep", "runs", "compare", "report"):
            self.assertIn(f"weightspace {command} [OPTIONS]", synopsis)
            self.assertRegex(self.text, re.compile(f"^   weightspace {command}$", re.M))

    def test_every_variable_read_is_described(self):
        environment = self.text.split("\nENVIRONMENT\n")[1].split("\nFILES\n")[0]
        variables = variables_read()
        self.assertIn("WEIGHT_SPACE_EPISODES", variables)  # the scan finds them
        for name in variables:
            self.assertIn(name, environment)

    def test_eighty_columns(self):
        for line in self.text.splitlines():
            self.assertLessEqual(len(line), 80, line)


if __name__ == "__main__":
    unittest.main()
