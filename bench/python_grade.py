# SPDX-License-Identifier: GPL-3.0-or-later
"""Grade answers with the Python grader (verify.py), as its main() would, and print each
reward JSON text on stdout and its grading time (wall and CPU seconds) on stderr, one line
per answer, in order.

usage: python3 python_grade.py VERIFY_DIR SOURCE GAME EPISODES ANSWER_FILE [ANSWER_FILE ...]
MinAtar (source original) or minatar_synth (source synth; tools/ of this repository) must be
importable, e.g. PYTHONPATH=<MinAtar checkout>:tools. Several answers share one interpreter,
so that bench/compare_python.sh --batch times grade_answer alone, not imports.
"""
import json
import sys
import time


def main() -> None:
    verify_dir, source, game, episodes = sys.argv[1:5]
    sys.path.insert(0, verify_dir)
    import verify  # noqa: E402  (the grader, found through verify_dir)

    for answer_path in sys.argv[5:]:
        answer = open(answer_path, encoding="utf-8").read()
        wall, cpu = time.perf_counter(), time.process_time()
        score, metadata = verify.grade_answer(game, source, answer, int(episodes))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(json.dumps({"normalized_score": score, **metadata}), flush=True)
        print(f"{wall:.3f} {cpu:.3f}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
