# SPDX-License-Identifier: GPL-3.0-or-later
"""`weightspace serve` end to end, on a free loopback port: every endpoint's rewards against
`weightspace grade` and the golden grades byte for byte, the OpenRLHF request shape, 64
concurrent clients against a serial run, the refusals (413, 400, 401, 503), /metrics as
Prometheus text, client-disconnect cancellation and the SIGTERM drain. All traffic stays on
127.0.0.1, and every wait is bounded.

usage: python3 serve_test.py WEIGHTSPACE_BINARY GOLDEN_DIR EXAMPLES_DIR
"""
import concurrent.futures
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

BINARY, GOLDEN, EXAMPLES = sys.argv[1:4]
del sys.argv[1:4]
SANITIZED = os.environ.get("WEIGHTSPACE_SANITIZED", "0") in ("1", "ON", "TRUE", "true")
HOST = "127.0.0.1"
TIMEOUT = 600 if SANITIZED else 120  # any one request or wait, at most


def golden_cases(count):
    """`count` golden grades of different games and kinds, 1000 episodes each."""
    with open(os.path.join(GOLDEN, "grades.json"), encoding="utf-8") as file:
        cases = json.load(file)["cases"]
    chosen, seen = [], set()
    for case in cases:
        key = (case["game"], case["kind"])
        if key not in seen and case["source"] == "original":
            seen.add(key)
            chosen.append(case)
    return chosen[:count]


class Server:
    """A `weightspace serve` process on a free port; stopped (SIGTERM) on exit."""

    def __init__(self, *arguments):
        self.process = subprocess.Popen([BINARY, "serve", "--host", HOST, "--port", "0", *arguments],
                                        stderr=subprocess.PIPE, text=True)
        line = self.process.stderr.readline()
        match = re.search(r"serving on http://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.process.kill()
            raise AssertionError("no 'serving on' line: " + line + self.process.stderr.read())
        self.port = int(match.group(1))
        # The rest of stderr is drained so the server never blocks on a full pipe.
        self.log = []
        self.reader = threading.Thread(target=lambda: self.log.extend(self.process.stderr), daemon=True)
        self.reader.start()

    def request(self, method, path, body=None, headers=None, timeout=TIMEOUT):
        connection = http.client.HTTPConnection(HOST, self.port, timeout=timeout)
        try:
            data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
            connection.request(method, path, body=data, headers=headers or {})
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read().decode()
        finally:
            connection.close()

    def post(self, path, body, headers=None):
        return self.request("POST", path, body, headers)

    def metrics(self, headers=None):
        status, _, text = self.request("GET", "/metrics", headers=headers)
        assert status == 200, text
        return parse_prometheus(text)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=TIMEOUT)

    def __enter__(self):
        return self

    def __exit__(self, *failure):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.reader.join(timeout=TIMEOUT)
        self.process.stderr.close()


SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="[^"\\]*"(,[a-zA-Z_][a-zA-Z0-9_]*="[^"\\]*")*)?\})? (\S+)$')


def parse_prometheus(text):
    """The exposition as {(name, labels): value}; AssertionError on any line the format does not allow."""
    samples, types = {}, {}
    assert text.endswith("\n")
    for line in text.splitlines():
        if line.startswith("# HELP "):
            continue
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ")
            assert kind in ("counter", "gauge", "histogram"), line
            types[name] = kind
            continue
        match = SAMPLE.match(line)
        assert match, "not a Prometheus sample line: " + line
        labels = tuple(sorted(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="([^"]*)"', match.group(3) or "")))
        name = match.group(1)
        family = re.sub(r"_(bucket|sum|count)$", "", name) if name not in types else name
        assert family in types, "sample before its TYPE: " + line
        samples[(name, labels)] = float(match.group(5))
    return samples


def metric(samples, name, **labels):
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def grade_cli(case):
    with tempfile.NamedTemporaryFile("w", suffix=".md", encoding="utf-8") as answer:
        answer.write(case["answer"])
        answer.flush()
        return subprocess.run([BINARY, "grade", "--game", case["game"], "--source", case["source"], "--episodes",
                               str(case["episodes"]), "--threads", "2", "--answer", answer.name],
                              capture_output=True, text=True, check=True, timeout=TIMEOUT).stdout.rstrip("\n")


def record(case, **extra):
    return {"answer": case["answer"], "game": case["game"], "source": case["source"],
            "episodes": int(case["episodes"]), **extra}


def distinct_answer(index):
    """Short episodes (a dozen steps): cheap grades."""
    return "```edits\nW3[0, %d] = %s\n```" % (index % 6, 0.25 + index)


def read_reply(raw):
    """One HTTP reply off a raw socket: the head and then Content-Length bytes of body, however
    the server's writes were cut into segments (a single recv may return the head alone). A
    reset after a refusal (the server closes with the client's body unread) ends the reply."""
    data = b""
    while True:
        head, separator, body = data.partition(b"\r\n\r\n")
        if separator:
            length = re.search(rb"(?im)^content-length: *(\d+)\r?$", head)
            if length and len(body) >= int(length.group(1)):
                return data.decode()
        try:
            chunk = raw.recv(65536)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            return data.decode()
        data += chunk


def long_answer(index):
    """examples/answers/breakout.md (about 500 steps an episode), its weights made distinct by one
    more edit: grades that take a while, for the tests that need work in flight."""
    with open(os.path.join(EXAMPLES, "answers", "breakout.md"), encoding="utf-8") as file:
        text = file.read()
    end = text.rindex("```")
    return text[:end] + "b3[5] = %s\n```" % (1e-6 * (index + 1))


class GoldenThroughEveryEndpoint(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cases = golden_cases(3 if SANITIZED else 8)
        cls.expected = [grade_cli(case) for case in cls.cases]
        cls.server = Server("--threads", "2")

    @classmethod
    def tearDownClass(cls):
        cls.server.__exit__()

    def test_grade_cli_matches_the_golden_grades(self):
        for case, text in zip(self.cases, self.expected):
            self.assertEqual(text, case["expected_reward_json"], case["id"])

    def test_v1_grade_answer_and_trajectory(self):
        for case, text in zip(self.cases, self.expected):
            status, headers, body = self.server.post("/v1/grade", record(case))
            self.assertEqual(status, 200, body)
            self.assertEqual(headers["Content-Type"], "application/json")
            self.assertTrue(body.startswith('{"reward": ' + text + ', "weights_sha256": '), body)
            result = json.loads(body)
            if "weights_sha256" in case:
                self.assertEqual(result["weights_sha256"], case["weights_sha256"])
            self.assertIsInstance(result["cached"], bool)
            self.assertEqual(result["steps"] > 0, result["reward"]["parse_success"] == 1.0)
            trajectory = {"steps": [{"messages": [{"role": "assistant", "content": case["answer"]}]}]}
            by_trajectory = {key: value for key, value in record(case).items() if key != "answer"}
            status, _, body = self.server.post("/v1/grade", {**by_trajectory, "trajectory": trajectory})
            self.assertEqual(status, 200, body)
            self.assertTrue(body.startswith('{"reward": ' + text + ", "), body)

    def test_grade_many_in_order_and_streamed(self):
        records = [record(case) for case in self.cases]
        status, _, body = self.server.post("/v1/grade_many", records)
        self.assertEqual(status, 200, body)
        results = json.loads(body)["results"]
        self.assertEqual([json.dumps(r["reward"]) for r in results], self.expected)
        self.assertTrue(body.startswith('{"results": [{"reward": ' + self.expected[0] + ", "), body)
        status, headers, body = self.server.post("/v1/grade_many", {"records": records},
                                                 {"Accept": "application/x-ndjson"})
        self.assertEqual(status, 200, body)
        self.assertEqual(headers["Content-Type"], "application/x-ndjson")
        self.assertEqual(headers.get("Transfer-Encoding"), "chunked")
        lines = body.splitlines()
        self.assertEqual(len(lines), len(self.expected))
        for line, text in zip(lines, self.expected):
            self.assertTrue(line.startswith('{"reward": ' + text + ", "), line)

    def test_openrlhf_get_reward(self):
        # remote_rm_utils.py: POST {"query": [...], "prompts": [...], "labels": [...]}, read
        # response.json()["rewards"]. The query is the prompt and the response together.
        prompt = "Improve the policy. Example:\n```edits\nW1[:, :] = 1\n```\nAnswer:\n"
        queries = [prompt + case["answer"] for case in self.cases] + [prompt + "I cannot help."]
        labels = [f"{case['source']}/{case['game']}@{case['episodes']}" for case in self.cases] + ["breakout"]
        status, headers, body = self.server.post("/get_reward", {"query": queries, "prompts": [prompt] * len(queries),
                                                                 "labels": labels})
        self.assertEqual(status, 200, body)
        rewards = json.loads(body)["rewards"]
        self.assertEqual(len(rewards), len(queries))
        expected = [json.loads(text)["normalized_score"] for text in self.expected]
        self.assertEqual(rewards[:-1], expected)
        self.assertEqual(rewards[-1], 0.0)  # no edits block: the grader's failed parse
        # The scores are written as the grader's json.dumps writes them.
        self.assertEqual(body, json.dumps({"rewards": rewards}))
        # A bare game name takes the server's source and episodes (1000).
        case = self.cases[0]
        status, _, body = self.server.post("/get_reward", {"query": [case["answer"]], "labels": [case["game"]]})
        self.assertEqual(json.loads(body)["rewards"], expected[:1])

    def test_64_concurrent_clients_match_a_serial_run(self):
        records = [{"answer": distinct_answer(i % 16), "game": ("breakout", "freeway", "asterix")[i % 3],
                    "episodes": 50} for i in range(64)]
        serial = []
        for item in records:
            status, _, body = self.server.post("/v1/grade", item)
            self.assertEqual(status, 200, body)
            serial.append(body[:body.index(', "weights_sha256"')])
        with concurrent.futures.ThreadPoolExecutor(max_workers=64) as pool:
            answers = list(pool.map(lambda item: self.server.post("/v1/grade", item), records))
        self.assertEqual([status for status, _, _ in answers], [200] * 64)
        self.assertEqual([body[:body.index(', "weights_sha256"')] for _, _, body in answers], serial)

    def test_probes_and_metrics(self):
        self.assertEqual(self.server.request("GET", "/healthz")[0], 200)
        self.assertEqual(self.server.request("GET", "/readyz")[0], 200)
        self.server.post("/v1/grade", record(self.cases[0]))
        self.server.post("/v1/grade", b"{")
        samples = self.server.metrics()
        self.assertGreaterEqual(metric(samples, "weightspace_requests_total", endpoint="/v1/grade", status="200"), 1)
        self.assertGreaterEqual(metric(samples, "weightspace_requests_total", endpoint="/v1/grade", status="400"), 1)
        self.assertGreaterEqual(metric(samples, "weightspace_grades_total"), 1)
        self.assertGreaterEqual(metric(samples, "weightspace_cache_hits_total"), 1)  # the case graded twice
        self.assertGreater(metric(samples, "weightspace_steps_total"), 0)
        self.assertEqual(metric(samples, "weightspace_queue_depth"), 0)
        count = metric(samples, "weightspace_request_seconds_count", endpoint="/v1/grade")
        self.assertEqual(metric(samples, "weightspace_request_seconds_bucket", endpoint="/v1/grade", le="+Inf"), count)


class Refusals(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        token = os.path.join(cls.folder.name, "token")
        with open(token, "w", encoding="utf-8") as file:
            file.write("s3cret-token\n")
        cls.auth = {"Authorization": "Bearer s3cret-token"}
        cls.server = Server("--threads", "1", "--max-request-bytes", "4096", "--token-file", token,
                            "--game", "breakout", "--episodes", "3", "--max-records", "8", "--queue", "8")

    @classmethod
    def tearDownClass(cls):
        cls.server.__exit__()
        cls.folder.cleanup()

    def test_401_without_the_token(self):
        body = {"answer": distinct_answer(1)}
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "Bearer s3cret-token2"},
                        {"Authorization": "s3cret-token"}):
            status, response_headers, text = self.server.post("/v1/grade", body, headers)
            self.assertEqual(status, 401, headers)
            self.assertEqual(response_headers.get("WWW-Authenticate"), "Bearer")
        self.assertEqual(self.server.request("GET", "/metrics")[0], 401)
        self.assertEqual(self.server.post("/v1/grade", body, self.auth)[0], 200)
        # The probes need none: a kubelet carries no token.
        self.assertEqual(self.server.request("GET", "/healthz")[0], 200)
        self.assertEqual(self.server.request("GET", "/readyz")[0], 200)

    def test_400_with_the_parsers_message(self):
        status, _, text = self.server.post("/v1/grade", b'{"answer": ', self.auth)
        self.assertEqual(status, 400)
        self.assertIn("malformed JSON: [json.exception.parse_error.101]", json.loads(text)["error"])
        for body, words in (({}, "exactly one of"), ({"answer": 5}, '"answer" must be a string'),
                            ({"answer": "x", "episodes": -1}, '"episodes" must be from 0 to'),
                            ({"answer": "x", "episodes": 2 ** 64 - 1}, '"episodes" must be from 0 to'),
                            ({"answer": "x", "source": "other"}, '"source" must be'),
                            ([{"answer": "x"}, 3], "record 1: a record must be a JSON object"),
                            ({"query": "x"}, "{\"query\": [text, ...]}"),
                            ({"query": ["x"], "labels": ["breakout@many"]}, "query 0: label")):
            path = "/v1/grade_many" if isinstance(body, list) else "/get_reward" if "query" in body else "/v1/grade"
            status, _, text = self.server.post(path, body, self.auth)
            self.assertEqual(status, 400, body)
            self.assertIn(words, json.loads(text)["error"])
        # An unknown game is no refusal: the grader's failed grade, reward 0.
        status, _, text = self.server.post("/v1/grade", {"answer": distinct_answer(2), "game": "pong"}, self.auth)
        self.assertEqual(status, 200, text)
        self.assertEqual(json.loads(text)["reward"]["parse_success"], 0.0)
        # A rejected answer: the exception's class and place beside the reward, as batch gives them.
        bad = "```edits\nW1[0, 0] = 0.5\nW9[0] = 1\n```\n"
        status, _, text = self.server.post("/v1/grade", {"answer": bad}, self.auth)
        self.assertEqual(status, 200, text)
        batch = subprocess.run([BINARY, "batch", "--game", "breakout", "--episodes", "3", "--quiet", "-"],
                               input=json.dumps({"id": 0, "answer": bad}) + "\n", capture_output=True,
                               text=True, check=True, timeout=TIMEOUT)
        line = json.loads(batch.stdout)
        result = json.loads(text)
        self.assertEqual([result[key] for key in ("error_kind", "error_line", "error_column")], ["ValueError", 2, 1])
        for key in ("reward", "weights_sha256", "error_kind", "error_line", "error_column"):
            self.assertEqual(result[key], line[key], key)

    def test_413_before_the_body_is_read(self):
        # A declared length above the limit is refused with nothing of the body sent.
        with socket.create_connection((HOST, self.server.port), timeout=TIMEOUT) as raw:
            raw.sendall(b"POST /v1/grade HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret-token\r\n"
                        b"Content-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n")
            reply = read_reply(raw)
        self.assertTrue(reply.startswith("HTTP/1.1 413"), reply)
        self.assertIn("--max-request-bytes", reply)
        # A chunked body is cut off as soon as it passes the limit.
        with socket.create_connection((HOST, self.server.port), timeout=TIMEOUT) as raw:
            raw.sendall(b"POST /v1/grade HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret-token\r\n"
                        b"Transfer-Encoding: chunked\r\n\r\n")
            for _ in range(3):
                raw.sendall(b"800\r\n" + b" " * 0x800 + b"\r\n")
            reply = read_reply(raw)
        self.assertTrue(reply.startswith("HTTP/1.1 413"), reply)
        # More records than --max-records.
        status, _, _ = self.server.post("/v1/grade_many", [{"answer": "x"}] * 9, self.auth)
        self.assertEqual(status, 413)
        # The server still answers.
        self.assertEqual(self.server.post("/v1/grade", {"answer": distinct_answer(3)}, self.auth)[0], 200)


class QueueAndCancellation(unittest.TestCase):
    def wait_for(self, server, condition):
        """Polls /metrics until condition(samples) holds; bounded."""
        end = time.monotonic() + TIMEOUT
        while time.monotonic() < end:
            samples = server.metrics()
            if condition(samples):
                return samples
            time.sleep(0.05)
        self.fail("the server's metrics never reached the condition")

    def test_503_with_retry_after_when_the_queue_is_full(self):
        with Server("--threads", "1", "--queue", "2", "--max-episodes", "1000000") as server:
            long = [{"answer": long_answer(i), "game": "breakout", "episodes": 20000} for i in range(2)]
            raw = socket.create_connection((HOST, server.port), timeout=TIMEOUT)
            body = json.dumps(long).encode()
            raw.sendall(b"POST /v1/grade_many HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
            self.wait_for(server, lambda s: metric(s, "weightspace_in_flight") + metric(s, "weightspace_queue_depth") == 2)
            status, headers, text = server.post("/v1/grade", {"answer": distinct_answer(9), "game": "breakout"})
            self.assertEqual(status, 503, text)
            self.assertEqual(headers.get("Retry-After"), "1")
            status, _, text = server.post("/v1/grade_many", [{"answer": "x", "game": "breakout"}] * 3)
            self.assertEqual(status, 413, text)  # more than the whole queue: retrying cannot help
            raw.close()  # the client goes away: its grades are cancelled
            self.wait_for(server, lambda s: metric(s, "weightspace_in_flight") + metric(s, "weightspace_queue_depth") == 0)
            status, _, text = server.post("/v1/grade", {"answer": distinct_answer(9), "game": "breakout", "episodes": 5})
            self.assertEqual(status, 200, text)

    def test_a_disconnected_client_cancels_its_grades(self):
        # Each record (20 episodes, ~10^4 steps) takes far less than the server's 50 ms poll: the
        # client's going is seen between results, not only when a result is slow to come.
        with Server("--threads", "1") as server:
            records = [{"answer": long_answer(i), "game": "breakout", "episodes": 20} for i in range(1000)]
            body = json.dumps(records).encode()
            raw = socket.create_connection((HOST, server.port), timeout=TIMEOUT)
            raw.sendall(b"POST /v1/grade_many HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
            self.wait_for(server, lambda s: metric(s, "weightspace_grades_total") >= 1)
            raw.close()
            samples = self.wait_for(server, lambda s: metric(s, "weightspace_in_flight") == 0
                                    and metric(s, "weightspace_queue_depth") == 0)
            self.assertGreater(metric(samples, "weightspace_dropped_total"), 0)
            graded = metric(samples, "weightspace_grades_total")
            self.assertLess(graded, len(records))
            # Idle from then on: nothing more is graded.
            time.sleep(0.5)
            self.assertEqual(metric(server.metrics(), "weightspace_grades_total"), graded)
            self.assertEqual(metric(server.metrics(), "weightspace_requests_total", endpoint="/v1/grade_many",
                                    status="499"), 1)

    def test_504_past_the_deadline(self):
        with Server("--threads", "1", "--deadline", "1", "--max-episodes", "1000000") as server:
            # The first record plays about 20 M steps (more than a second); the second waits for it.
            records = [{"answer": long_answer(i), "game": "breakout", "episodes": 40000} for i in range(2)]
            status, _, text = server.post("/v1/grade_many", records)
            self.assertEqual(status, 504, text)
            self.assertIn("deadline", json.loads(text)["error"])
            samples = self.wait_for(server, lambda s: metric(s, "weightspace_in_flight") == 0)
            self.assertEqual(metric(samples, "weightspace_dropped_total"), 1)  # the second never started

    def test_sigterm_drains_the_requests_in_flight(self):
        server = Server("--threads", "1")
        try:
            records = [{"answer": long_answer(i), "game": "breakout", "episodes": 1000} for i in range(20)]
            result = {}
            worker = threading.Thread(target=lambda: result.update(answer=server.post("/v1/grade_many", records)))
            worker.start()
            self.wait_for(server, lambda s: metric(s, "weightspace_in_flight") > 0)
            server.process.send_signal(signal.SIGTERM)
            worker.join(timeout=TIMEOUT)
            self.assertEqual(server.process.wait(timeout=TIMEOUT), 0)
            status, _, body = result["answer"]
            self.assertEqual(status, 200, body)
            self.assertEqual(len(json.loads(body)["results"]), len(records))
            with self.assertRaises(ConnectionRefusedError):
                socket.create_connection((HOST, server.port), timeout=5)
        finally:
            server.__exit__()


class TheServingExecutable(unittest.TestCase):
    """`weightspace serve` becomes weightspace-serve (exec: the same pid), so cpp-httplib and the
    TLS and compression libraries it loads stay out of every other command's start."""

    def test_the_same_process_serves_and_no_other_command_loads_httplib(self):
        server = Server("--threads", "1")
        try:
            with open(f"/proc/{server.process.pid}/cmdline", "rb") as f:
                words = f.read().split(b"\0")
            self.assertEqual(os.path.basename(words[0]), b"weightspace-serve")
            self.assertEqual(words[1:5], [b"serve", b"--host", HOST.encode(), b"--port"])
        finally:
            server.__exit__()
        libraries = subprocess.run(["ldd", BINARY], capture_output=True, text=True, timeout=60).stdout
        self.assertNotIn("httplib", libraries)
        self.assertNotIn("libssl", libraries)

    def test_a_missing_serving_executable_is_a_clear_error(self):
        with tempfile.TemporaryDirectory() as folder:
            alone = os.path.join(folder, "weightspace")
            with open(BINARY, "rb") as source, open(alone, "wb") as target:
                target.write(source.read())
            os.chmod(alone, 0o755)
            result = subprocess.run([alone, "serve", "--port", "0"], capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn("cannot start the server: weightspace-serve, installed with weightspace, is missing (looked for "
                      + os.path.join(folder, "weightspace-serve"), result.stderr)


if __name__ == "__main__":
    unittest.main()
