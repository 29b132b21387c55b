#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The differential generator and its golden file (standard library only).

    generator_test.py tests/golden/edge_cases/differential.json

The golden file must be exactly what the regeneration command in generate.py gives (so that
command stays true), and what the grader recorded must cover many outcomes: a generator bug
that made most answers alike would show up here before anywhere else.
"""
import json
import re
import sys
import unittest
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import GOLDEN_COUNT, GOLDEN_SEED, AnswerGenerator  # noqa: E402

GOLDEN = Path(sys.argv.pop(1)) if len(sys.argv) > 1 else None


class Generator(unittest.TestCase):
    def test_a_seed_gives_the_same_answers(self):
        self.assertEqual(AnswerGenerator(7).cases(300), AnswerGenerator(7).cases(300))

    def test_seeds_differ_and_answers_are_unique(self):
        first = [case["answer"] for case in AnswerGenerator(1).cases(1000)]
        second = [case["answer"] for case in AnswerGenerator(2).cases(1000)]
        self.assertEqual(len(set(first)), 1000)
        self.assertLess(len(set(first) & set(second)), 20)  # a few short answers may meet

    def test_every_category_is_drawn(self):
        generator = AnswerGenerator(3)
        drawn = Counter(case["category"] for case in generator.cases(2000))
        for _, name, _ in generator.categories:
            self.assertGreater(drawn[name], 40, name)

    def test_mutations_change_their_base(self):
        # A mutation that gave its base back would only repeat the "valid" category.
        generator = AnswerGenerator(4)
        for _ in range(500):
            base = generator.valid()
            self.assertNotEqual(generator.mutate(base, 0, len(base)), base)


@unittest.skipIf(GOLDEN is None, "no golden file given")
class GoldenFile(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.document = json.loads(GOLDEN.read_text(encoding="ascii"))
        cls.cases = cls.document["cases"]

    def test_it_is_the_documented_regeneration(self):
        expected = AnswerGenerator(GOLDEN_SEED).cases(GOLDEN_COUNT)
        self.assertEqual(len(self.cases), len(expected))
        for recorded, generated in zip(self.cases, expected):
            self.assertEqual({key: recorded[key] for key in generated}, generated)

    def test_recorded_by_the_grader_stack(self):
        self.assertEqual(self.document["generator"], "tests/support/record_parser_cases.py")
        self.assertEqual(self.document["environment"], {"python": "3.11.2", "numpy": "1.24.2"})

    def test_size_budget(self):
        self.assertLessEqual(GOLDEN.stat().st_size, 1_500_000)

    def test_outcomes_are_broad(self):
        outcomes = [case["outcome"] for case in self.cases]
        successes = sum(outcome["parse_success"] for outcome in outcomes)
        self.assertGreater(successes, len(outcomes) * 0.25)
        self.assertLess(successes, len(outcomes) * 0.6)
        failures = [outcome for outcome in outcomes if not outcome["parse_success"]]
        kinds = Counter(outcome["error_type"] for outcome in failures)
        for kind in ["SyntaxError", "IndentationError", "TabError", "ValueError", "TypeError", "IndexError",
                     "UFuncTypeError", "OverflowError"]:
            self.assertGreater(kinds[kind], 2, kind)
        # Messages with their numbers and quoted parts blanked: the distinct kinds of rejection.
        shapes = Counter(re.sub(r"\d+", "N", re.sub(r"'[^']*'", "Q", outcome["message"])) for outcome in failures)
        self.assertGreater(len(shapes), 100)
        self.assertLess(shapes.most_common(1)[0][1], len(failures) * 0.15)
        successes_by_category = Counter(case["category"] for case in self.cases if case["outcome"]["parse_success"])
        self.assertGreater(successes_by_category["valid"], successes * 0.3)


if __name__ == "__main__":
    unittest.main()
