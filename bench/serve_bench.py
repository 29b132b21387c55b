# SPDX-License-Identifier: GPL-3.0-or-later
"""`weightspace serve` against `weightspace batch` on the same records (docs/performance.md,
"Serving"): answers/s through POST /v1/grade at each connection count, each run on a fresh
server (so no run reuses another's cache), against `batch --threads T` on the same manifest;
then p50/p99 latency of one-answer requests on an idle server, beside the grades' own time.
Every reward the server returns is checked against batch's. Loopback only.

usage: python3 bench/serve_bench.py WEIGHTSPACE SET_DIR [--threads 2] [--connections 1,4,16,64]
       [--latency-requests 200] [--soak-seconds 0]
SET_DIR is bench/batch_set.py's output (manifest.jsonl and its answers).
"""
import argparse
import http.client
import json
import os
import queue
import re
import resource
import signal
import statistics
import subprocess
import threading
import time


def load_records(set_dir):
    records = []
    with open(os.path.join(set_dir, "manifest.jsonl"), encoding="utf-8") as file:
        for line in file:
            entry = json.loads(line)
            with open(os.path.join(set_dir, entry["answer_path"]), encoding="utf-8") as answer:
                records.append({"answer": answer.read(), "game": entry.get("game", "breakout"),
                                "source": entry.get("source", "original"), "episodes": 1000})
    return records


def run_batch(binary, set_dir, threads):
    out = os.path.join(set_dir, "batch.jsonl")
    if os.path.exists(out):
        os.remove(out)
    start = time.monotonic()
    subprocess.run([binary, "batch", os.path.join(set_dir, "manifest.jsonl"), "--threads", str(threads),
                    "--episodes", "1000", "--quiet", "--no-timings", "--out", out], check=True)
    seconds = time.monotonic() - start
    with open(out, encoding="utf-8") as file:
        rewards = [json.dumps(json.loads(line)["reward"]) for line in file]
    return seconds, rewards


class Server:
    def __init__(self, binary, threads, *extra):
        self.process = subprocess.Popen([binary, "serve", "--port", "0", "--threads", str(threads),
                                         "--queue", "4096", *extra], stderr=subprocess.PIPE, text=True)
        line = self.process.stderr.readline()
        self.port = int(re.search(r"127\.0\.0\.1:(\d+)", line).group(1))
        threading.Thread(target=lambda: [None for _ in self.process.stderr], daemon=True).start()

    def rss_mb(self):
        with open(f"/proc/{self.process.pid}/status", encoding="utf-8") as file:
            for line in file:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=120)


def client(port, jobs, results, latencies):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    while True:
        try:
            index, body = jobs.get_nowait()
        except queue.Empty:
            break
        start = time.monotonic()
        connection.request("POST", "/v1/grade", body=body, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        text = response.read().decode()
        latencies.append(time.monotonic() - start)
        assert response.status == 200, text
        results[index] = text
    connection.close()


def run_serve(binary, threads, records, connections):
    server = Server(binary, threads)
    jobs = queue.Queue()
    bodies = [json.dumps(record).encode() for record in records]
    for index, body in enumerate(bodies):
        jobs.put((index, body))
    results, latencies = [None] * len(records), []
    workers = [threading.Thread(target=client, args=(server.port, jobs, results, latencies))
               for _ in range(connections)]
    start = time.monotonic()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    seconds = time.monotonic() - start
    rss = server.rss_mb()
    server.stop()
    rewards = [json.dumps(json.loads(text)["reward"]) for text in results]
    return seconds, rewards, latencies, rss


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def idle_latency(binary, threads, records, count):
    server = Server(binary, threads)
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
    latencies, overheads = [], []
    chosen = [record for record in records if record["game"] != "freeway"][:count]
    for record in chosen:  # distinct answers: no cache hits
        body = json.dumps(record).encode()
        start = time.monotonic()
        connection.request("POST", "/v1/grade", body=body, headers={"Content-Type": "application/json"})
        text = connection.getresponse().read().decode()
        latency = time.monotonic() - start
        latencies.append(latency)
        overheads.append(latency - json.loads(text)["seconds"])
    connection.close()
    server.stop()
    return latencies, overheads


def soak(binary, threads, records, connections, seconds):
    server = Server(binary, threads)
    bodies = [json.dumps(record).encode() for record in records]
    stop = time.monotonic() + seconds
    samples = []

    def loop(offset):
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
        index = offset
        while time.monotonic() < stop:
            connection.request("POST", "/v1/grade", body=bodies[index % len(bodies)])
            connection.getresponse().read()
            index += connections
        connection.close()

    workers = [threading.Thread(target=loop, args=(i,)) for i in range(connections)]
    for worker in workers:
        worker.start()
    while time.monotonic() < stop:
        samples.append(server.rss_mb())
        time.sleep(min(10, seconds / 10))
    for worker in workers:
        worker.join()
    samples.append(server.rss_mb())
    server.stop()
    return samples


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("set_dir")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--connections", default="1,4,16,64")
    parser.add_argument("--latency-requests", type=int, default=200)
    parser.add_argument("--soak-seconds", type=int, default=0)
    args = parser.parse_args()
    records = load_records(args.set_dir)
    batch_seconds, expected = run_batch(args.binary, args.set_dir, args.threads)
    print(f"records: {len(records)}")
    print(f"| run | wall s | answers/s | vs batch | p50 ms | p99 ms | server RSS MB |")
    print(f"|---|---:|---:|---:|---:|---:|---:|")
    print(f"| `batch --threads {args.threads}` | {batch_seconds:.2f} | {len(records) / batch_seconds:.1f} | 1.00 | | | |",
          flush=True)
    for connections in map(int, args.connections.split(",")):
        seconds, rewards, latencies, rss = run_serve(args.binary, args.threads, records, connections)
        assert rewards == expected, "serve's rewards differ from batch's"
        print(f"| `serve`, {connections} connection(s) | {seconds:.2f} | {len(records) / seconds:.1f} | "
              f"{batch_seconds / seconds:.2f} | {1000 * percentile(latencies, 0.5):.1f} | "
              f"{1000 * percentile(latencies, 0.99):.1f} | {rss:.1f} |", flush=True)
    # Batch again after the serve runs: on a shared machine the load moves, and the two batch
    # runs bracket the serve runs.
    again, rewards = run_batch(args.binary, args.set_dir, args.threads)
    assert rewards == expected
    print(f"| `batch --threads {args.threads}`, again | {again:.2f} | {len(records) / again:.1f} | "
          f"{batch_seconds / again:.2f} | | | |", flush=True)
    if args.latency_requests:
        latencies, overheads = idle_latency(args.binary, args.threads, records, args.latency_requests)
        print(f"idle, one answer a request ({len(latencies)} requests): latency p50 "
              f"{1000 * percentile(latencies, 0.5):.2f} ms, p99 {1000 * percentile(latencies, 0.99):.2f} ms; "
              f"over the grade's own seconds: p50 {1000 * percentile(overheads, 0.5):.3f} ms, "
              f"p99 {1000 * percentile(overheads, 0.99):.3f} ms, mean {1000 * statistics.mean(overheads):.3f} ms")
    if args.soak_seconds:
        samples = soak(args.binary, args.threads, records, 64, args.soak_seconds)
        print(f"soak {args.soak_seconds} s at 64 connections: RSS MB samples {[round(s, 1) for s in samples]}")
    print(f"client peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MB")


if __name__ == "__main__":
    main()
