#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""How sparse an answer's network is, as Policy (policy/policy.hpp) sees it: the hidden units
that reach an output, the non-zero W2 and W3 weights among them, and the inputs read.

usage: VERIFY_DIR=../shared/seed PYTHONPATH=MINATAR_CHECKOUT /usr/bin/python3 bench/weight_stats.py ANSWER.md ...

The edits are applied by the grader's own verify.apply_edits (numpy 1.24, Debian's python3).
"""
import os
import sys
from pathlib import Path

import numpy as np


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[3], file=sys.stderr)
        return 2
    verify_dir = Path(os.environ.get("VERIFY_DIR", Path(__file__).resolve().parents[2] / "shared/seed"))
    sys.path.insert(0, str(verify_dir))
    import verify  # noqa: E402  (the grader: the specification)

    print(f"{'answer':36} {'units1':>6} {'units2':>6} {'W2 nonzero':>10} {'W3 nonzero':>10} {'inputs':>6}  W2 fan-out per hidden-1 unit")
    for path in sys.argv[1:]:
        tensors, _ = verify.apply_edits(Path(path).read_text())
        w1, w2, w3 = tensors["W1"], tensors["W2"], tensors["W3"]
        kept2 = [u for u in range(w3.shape[0]) if np.any(w3[u] != 0)]
        kept1 = [u for u in range(w2.shape[0]) if np.any(w2[u, kept2] != 0)]
        w2_kept = w2[np.ix_(kept1, kept2)]
        inputs = int(np.sum(np.any(w1[:, kept1] != 0, axis=1)))
        fan_out = [int(n) for n in np.sum(w2_kept != 0, axis=1)]
        name = "/".join(Path(path).parts[-2:])
        print(f"{name:36} {len(kept1):6} {len(kept2):6} {int(np.sum(w2_kept != 0)):10} "
              f"{int(np.sum(w3[kept2] != 0)):10} {inputs:6}  {fan_out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
