# SPDX-License-Identifier: GPL-3.0-or-later
"""Grade one answer with the Python grader (verify.py), as its main() would, and print the
reward JSON text on stdout and the grading time (wall and CPU seconds) on stderr.

usage: python3 python_grade.py VERIFY_DIR SOURCE GAME EPISODES ANSWER_FILE
MinAtar (source original) or minatar_synth (source synth; tools/ of this repository) must be
importable, e.g. PYTHONPATH=<MinAtar checkout>:tools.
"""
import json
import sys
import time


def main() -> None:
    verify_dir, source, game, episodes, answer_path = sys.argv[1:6]
    sys.path.insert(0, verify_dir)
    import verify  # noqa: E402  (the grader, found through verify_dir)

    answer = open(answer_path, encoding="utf-8").read()
    wall, cpu = time.perf_counter(), time.process_time()
    score, metadata = verify.grade_answer(game, source, answer, int(episodes))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(json.dumps({"normalized_score": score, **metadata}))
    print(f"{wall:.3f} {cpu:.3f}", file=sys.stderr)


if __name__ == "__main__":
    main()
