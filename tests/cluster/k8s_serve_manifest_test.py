# SPDX-License-Identifier: GPL-3.0-or-later
"""deploy/k8s/serve.yaml and deploy/systemd/weightspace-serve.service against the CLI: the
container's and the unit's arguments start `weightspace serve` (run here on 127.0.0.1 and a
free port instead of the address and port they name), its probes' paths answer 200, the
Service reaches the container's port, and the pod's grace period outlasts the server's. No
cluster, container runtime or systemd is involved.

usage: python3 k8s_serve_manifest_test.py WEIGHTSPACE_BINARY SOURCE_DIR
"""
import configparser
import http.client
import os
import re
import shlex
import signal
import subprocess
import sys
import unittest

import yaml

BINARY, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
del sys.argv[1:3]


def option(args, name):
    return args[args.index(name) + 1]


def on_loopback(args):
    """The arguments with --host 127.0.0.1 --port 0: tests never listen beyond loopback."""
    args = list(args)
    args[args.index("--host") + 1] = "127.0.0.1"
    args[args.index("--port") + 1] = "0"
    return args


def probe(args, paths):
    """Starts `weightspace ARGS`, GETs each path, stops it with SIGTERM; statuses and exit code."""
    server = subprocess.Popen([BINARY, *args], stderr=subprocess.PIPE, text=True)
    try:
        line = server.stderr.readline()
        match = re.search(r"serving on http://127\.0\.0\.1:(\d+)", line)
        if not match:
            raise AssertionError("no 'serving on' line: " + line)
        statuses = {}
        for path in paths:
            connection = http.client.HTTPConnection("127.0.0.1", int(match.group(1)), timeout=60)
            connection.request("GET", path)
            statuses[path] = connection.getresponse().status
            connection.close()
        server.send_signal(signal.SIGTERM)
        return statuses, server.wait(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


class ServeDeployment(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(os.path.join(SOURCE, "deploy", "k8s", "serve.yaml"), encoding="utf-8") as file:
            documents = list(yaml.safe_load_all(file))
        cls.deployment = next(d for d in documents if d["kind"] == "Deployment")
        cls.service = next(d for d in documents if d["kind"] == "Service")
        cls.pod = cls.deployment["spec"]["template"]["spec"]
        (cls.container,) = cls.pod["containers"]

    def test_the_container_serves_and_its_probes_answer(self):
        args = self.container["args"]
        self.assertEqual(args[0], "serve")
        self.assertEqual(option(args, "--host"), "0.0.0.0")  # reachable through the Service
        paths = [self.container[p]["httpGet"]["path"] for p in ("readinessProbe", "livenessProbe")]
        self.assertEqual(paths, ["/readyz", "/healthz"])
        statuses, code = probe(on_loopback(args), paths)
        self.assertEqual(statuses, {"/readyz": 200, "/healthz": 200})
        self.assertEqual(code, 0)

    def test_ports_and_grace(self):
        args = self.container["args"]
        (port,) = self.container["ports"]
        self.assertEqual(port["containerPort"], int(option(args, "--port")))
        for probe_name in ("readinessProbe", "livenessProbe"):
            self.assertEqual(self.container[probe_name]["httpGet"]["port"], port["name"])
        (service_port,) = self.service["spec"]["ports"]
        self.assertEqual(service_port["targetPort"], port["name"])
        self.assertEqual(self.service["spec"]["selector"], self.deployment["spec"]["selector"]["matchLabels"])
        self.assertEqual(self.deployment["spec"]["template"]["metadata"]["labels"],
                         self.deployment["spec"]["selector"]["matchLabels"])
        self.assertGreater(self.pod["terminationGracePeriodSeconds"], int(option(args, "--grace")))

    def test_the_systemd_unit_serves_on_loopback(self):
        unit = configparser.ConfigParser(interpolation=None)
        unit.read(os.path.join(SOURCE, "deploy", "systemd", "weightspace-serve.service"), encoding="utf-8")
        service = unit["Service"]
        command = shlex.split(service["ExecStart"])
        self.assertEqual(command[:2], ["/usr/bin/weightspace", "serve"])
        self.assertEqual(option(command, "--host"), "127.0.0.1")
        self.assertEqual(service["KillSignal"], "SIGTERM")
        self.assertGreater(int(service["TimeoutStopSec"]), int(option(command, "--grace")))
        statuses, code = probe(on_loopback(command[1:]), ["/healthz", "/readyz"])
        self.assertEqual(statuses, {"/healthz": 200, "/readyz": 200})
        self.assertEqual(code, 0)


if __name__ == "__main__":
    unittest.main()
