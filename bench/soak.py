#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Soak: many records streamed into one `weightspace batch -`, its RSS and output rate over time.

    python3 bench/soak.py WEIGHTSPACE_BINARY EXAMPLES_DIR [--records 1000000] [--interval 10]
        [--threads 0] [--bad 0.1] [--max-growth MB]

Writes --records manifest lines to the batch's stdin from a thread (mixed games, one episode
each; every record's weights differ, so the rollout cache never answers and its bound is
exercised; a fraction --bad of the lines are broken in the ways a real stream breaks: not JSON,
no answer, no edits block, a syntax error, an unknown game), reads the output lines on stdout,
and every --interval seconds samples the process's VmRSS (/proc/PID/status) and the lines
read. Prints the curve (one row per interval: lines, lines/s in that interval, RSS) and the RSS
at the start, middle and end. With --max-growth MB, exits 1 when the RSS at the end is more
than MB above the RSS at the end of the first quarter (issue 34, item 8: a long-lived batch
must not grow). The counts are checked: as many output lines as records, as many failed
records as bad lines written. docs/performance.md, "Soak".
"""

import argparse
import json
import os
import subprocess
import sys
import threading
import time

GAMES = ["breakout", "seaquest", "freeway", "asterix", "space_invaders"]


def options():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("examples")
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--interval", type=float, default=10.0)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--bad", type=float, default=0.1)
    parser.add_argument("--max-growth", type=float, help="MB the RSS may grow after the first quarter")
    parser.add_argument("--timeout", type=float, default=7200.0, help="seconds before the batch is killed")
    result = parser.parse_args()
    if not 1 <= result.records <= 100_000_000:
        parser.error("--records must be 1..100000000")
    if not 0.1 <= result.interval <= 600:
        parser.error("--interval must be 0.1..600 seconds")
    if not 0 <= result.bad <= 1:
        parser.error("--bad must be 0..1")
    if not 1 <= result.timeout <= 86400:
        parser.error("--timeout must be 1..86400 seconds")
    return result


def answer_texts(examples):
    """Each game's example answer, split before its last edits block's closing fence."""
    texts = {}
    for game in GAMES:
        with open(os.path.join(examples, "answers", game + ".md"), encoding="utf-8") as f:
            text = f.read()
        block = text.rindex("```edits\n")
        cut = text.index("```", block + len("```edits\n"))
        texts[game] = (text[:cut], text[cut:])
    return texts


def bad_line(index, texts):
    """One of five broken records, in turn."""
    kind = index % 5
    if kind == 0:
        return '{"id": %d, "answer": "unterminated' % index
    if kind == 1:
        return json.dumps({"id": index, "game": "breakout", "episodes": 1})
    if kind == 2:
        return json.dumps({"id": index, "answer": "no edits block here", "game": "breakout", "episodes": 1})
    if kind == 3:
        return json.dumps({"id": index, "answer": "```edits\nW1[0, = 1\n```", "game": "freeway", "episodes": 1})
    head, tail = texts["breakout"]
    answer = f"{head}b3[0] = {index + 1}e-9\n{tail}"
    return json.dumps({"id": index, "answer": answer, "game": "brekout", "episodes": 1})


def manifest_line(index, texts, every_bad):
    if every_bad and index % every_bad == every_bad - 1:
        return bad_line(index // every_bad, texts), True
    game = GAMES[index % len(GAMES)]
    head, tail = texts[game]
    # A unique bias set last, so that no two records share weights (and the cache never answers).
    answer = f"{head}b3[{index % 6}] = {index + 1}e-9\n{tail}"
    return json.dumps({"id": index, "answer": answer, "game": game, "episodes": 1}), False


def feed(process, count, texts, every_bad, written):
    try:
        for index in range(count):
            line, bad = manifest_line(index, texts, every_bad)
            process.stdin.write(line.encode() + b"\n")
            written["bad"] += bad
        process.stdin.close()
    except BrokenPipeError:
        written["broken"] = True


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except FileNotFoundError:
        pass
    return None


def read_output(process, counts):
    for line in process.stdout:
        counts["lines"] += 1
        if b'"error_kind": null' not in line:
            counts["failed"] += 1
        if b'"cached": true' in line:
            counts["cached"] += 1


def sample(process, counts, interval, deadline):
    """(seconds, lines, RSS KiB) every interval until the batch ends or the deadline passes."""
    start = time.monotonic()
    samples = [(0.0, 0, rss_kib(process.pid))]
    while process.poll() is None:
        try:
            process.wait(timeout=interval)
        except subprocess.TimeoutExpired:
            pass
        now = time.monotonic()
        rss = rss_kib(process.pid)
        if rss is not None:
            samples.append((now - start, counts["lines"], rss))
        if now > deadline:
            process.kill()
            process.wait()
            raise SystemExit(f"the batch ran past --timeout; killed after {counts['lines']} lines")
    samples.append((time.monotonic() - start, counts["lines"], samples[-1][2]))
    return samples


def print_curve(samples):
    print(f"{'seconds':>8} {'lines':>9} {'lines/s':>9} {'RSS MB':>8}")
    previous = samples[0]
    for point in samples[1:]:
        rate = (point[1] - previous[1]) / max(point[0] - previous[0], 1e-9)
        print(f"{point[0]:8.1f} {point[1]:9d} {rate:9.0f} {point[2] / 1024:8.1f}")
        previous = point


def rss_at(samples, fraction):
    """The RSS of the first sample at or after `fraction` of the run's lines."""
    total = samples[-1][1]
    return next(point[2] for point in samples if point[1] >= fraction * total)


def main():
    config = options()
    texts = answer_texts(config.examples)
    every_bad = round(1 / config.bad) if config.bad else 0
    command = [config.binary, "batch", "-", "--no-timings", "--quiet", "--threads", str(config.threads)]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=1 << 20)
    counts = {"lines": 0, "failed": 0, "cached": 0}
    written = {"bad": 0, "broken": False}
    threads = [threading.Thread(target=feed, args=(process, config.records, texts, every_bad, written)),
               threading.Thread(target=read_output, args=(process, counts))]
    for thread in threads:
        thread.start()
    samples = sample(process, counts, config.interval, time.monotonic() + config.timeout)
    for thread in threads:
        thread.join()
    print_curve(samples)
    seconds = samples[-1][0]
    start, quarter, middle, end = (rss_at(samples, f) for f in (0.0, 0.25, 0.5, 1.0))
    print(f"{counts['lines']} lines in {seconds:.1f} s ({counts['lines'] / seconds:.0f} lines/s), "
          f"{counts['failed']} failed ({written['bad']} bad lines written), {counts['cached']} cached; exit {process.returncode}")
    print(f"RSS MB: start {start / 1024:.1f}, first quarter {quarter / 1024:.1f}, middle {middle / 1024:.1f}, "
          f"end {end / 1024:.1f}")
    problems = []
    if process.returncode != 0 or written["broken"]:
        problems.append(f"the batch exited {process.returncode}")
    if counts["lines"] != config.records:
        problems.append(f"{counts['lines']} output lines for {config.records} records")
    if counts["failed"] != written["bad"]:
        problems.append(f"{counts['failed']} failed records for {written['bad']} bad lines")
    if counts["cached"]:
        problems.append(f"{counts['cached']} cached records: the records' weights were meant to differ")
    if config.max_growth is not None and (end - quarter) / 1024 > config.max_growth:
        problems.append(f"RSS grew {(end - quarter) / 1024:.1f} MB after the first quarter "
                        f"(--max-growth {config.max_growth})")
    for problem in problems:
        print("FAIL:", problem, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
