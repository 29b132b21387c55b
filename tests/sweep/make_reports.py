# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the HTML reports of real sweeps for the browser checks (tests/report/check_report.js):
OUT/first.html, which the first sweep of the bundled examples wrote itself (no baseline), and
OUT/regression.html, `weightspace report` of a second sweep in which one stored reward was
changed (one regression against the first) and the speed timings set to the first's.

usage: python3 make_reports.py WEIGHTSPACE_BINARY EXAMPLES_DIR OUT_DIR
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys

binary, examples, out = sys.argv[1:4]
work = os.path.join(out, "sweep")
shutil.rmtree(work, ignore_errors=True)
shutil.copytree(os.path.join(examples, "answers"), os.path.join(work, "answers"))
with open(os.path.join(work, "nightly.toml"), "w", encoding="utf-8") as f:
    f.write('name = "nightly"\n[[answers]]\nname = "examples"\npaths = ["answers/"]\n'
            '[grade]\ngames = ["breakout", "freeway"]\nsources = ["original", "synth"]\nepisodes = [2]\n'
            '[speed]\nthreads = [1, 2]\nrecords = 4\nrepeat = 1\nmin_time = 0\n')
config = os.path.join(work, "nightly.toml")
subprocess.run([binary, "sweep", config, "--quiet", "--report", os.path.join(out, "first.html")], check=True)
subprocess.run([binary, "sweep", config, "--quiet", "--no-report"], check=True)
database = os.path.join(work, "weightspace.sqlite")
connection = sqlite3.connect(database)
with connection:
    [(text,)] = connection.execute("SELECT reward FROM records WHERE run_id = 2 AND seq = 3").fetchall()
    reward = json.loads(text)
    reward["normalized_score"] += 0.25
    connection.execute("UPDATE records SET reward = ? WHERE run_id = 2 AND seq = 3", (json.dumps(reward),))
    # The two runs' speed passes time a few milliseconds on a machine other tests load: give run
    # 2 run 1's timings, so that the planted reward is the only regression.
    connection.execute("UPDATE speed SET steps = (SELECT steps FROM speed AS first WHERE first.run_id = 1 AND "
                       "first.threads = speed.threads), seconds = (SELECT seconds FROM speed AS first WHERE "
                       "first.run_id = 1 AND first.threads = speed.threads), repetitions = (SELECT repetitions "
                       "FROM speed AS first WHERE first.run_id = 1 AND first.threads = speed.threads) WHERE run_id = 2")
connection.close()
subprocess.run([binary, "report", "2", "--baseline", "1", "--db", database, "-o", os.path.join(out, "regression.html")],
               check=True)
