# SPDX-License-Identifier: GPL-3.0-or-later
"""What the command-line tests of tests/apps share: a test case with a temporary folder of its
own, and the runner whose exit status ctest reads ("N passed, M failed"; 1 when one failed)."""
import os
import sys
import tempfile
import unittest


class FolderCase(unittest.TestCase):
    """A fresh temporary folder per test (self.dir), removed after it."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)


def run_tests():
    """Runs the test cases of the script being run; returns its exit status."""
    runner = unittest.TextTestRunner(verbosity=2)
    result = runner.run(unittest.defaultTestLoader.loadTestsFromModule(sys.modules["__main__"]))
    failed = len(result.failures) + len(result.errors)
    print(f"{result.testsRun - failed} passed, {failed} failed")
    return 1 if failed else 0
