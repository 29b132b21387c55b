# SPDX-License-Identifier: GPL-3.0-or-later
"""deploy/k8s/job.yaml against the CLI: the Job is Indexed, its WEIGHTSPACE_SHARD_COUNT is its
completions, and each index's pod, rendered here as a process with the pod's arguments and
environment (Kubernetes' JOB_COMPLETION_INDEX set, the volumes mapped to folders), resolves to
its own shard; the pods' records partition the run, and their outputs merge into the
one-process output. deploy/Dockerfile's entrypoint is the binary the arguments are given to.
No cluster or container runtime is involved (docs/cluster.md).

usage: python3 k8s_manifest_test.py WEIGHTSPACE_BINARY SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import yaml

BINARY, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
del sys.argv[1:3]
CLEAN_ENV = {k: v for k, v in os.environ.items()
             if not k.startswith(("SLURM_", "JOB_COMPLETION_INDEX", "WEIGHTSPACE_SHARD"))}


class IndexedJob(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(os.path.join(SOURCE, "deploy", "k8s", "job.yaml"), encoding="utf-8") as f:
            cls.job = yaml.safe_load(f)
        cls.spec = cls.job["spec"]
        cls.pod = cls.spec["template"]["spec"]
        (cls.container,) = cls.pod["containers"]
        cls.env = {variable["name"]: variable["value"] for variable in cls.container.get("env", [])}
        cls.mounts = {mount["name"]: mount["mountPath"] for mount in cls.container["volumeMounts"]}
        cls.tmp = tempfile.TemporaryDirectory()
        # Each volume becomes a folder; the inputs volume gets a manifest of the name the Job reads,
        # whose lines carry their own (small) episode counts.
        cls.folders = {path: os.path.join(cls.tmp.name, name) for name, path in cls.mounts.items()}
        for folder in cls.folders.values():
            os.makedirs(folder)
        manifest = next(arg for arg in cls.container["args"] if arg.endswith(".jsonl") and arg != cls.out_arg())
        answers = ["```edits\nW3[0, %d] = %s\n```" % (i % 6, 0.5 + i) for i in range(30)] + ["not an answer"]
        with open(cls.local(manifest), "w", encoding="utf-8") as f:
            for i, answer in enumerate(answers):
                f.write(json.dumps({"id": f"r{i}", "answer": answer, "episodes": 1 + i % 3}) + "\n")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def out_arg(cls):
        args = cls.container["args"]
        return args[args.index("--out") + 1]

    @classmethod
    def local(cls, path):
        for mount, folder in cls.folders.items():
            if path.startswith(mount + "/"):
                return folder + path[len(mount):]
        return path

    def pod_run(self, index, *extra):
        args = [self.local(arg) for arg in self.container["args"]]
        env = dict(CLEAN_ENV, **self.env, JOB_COMPLETION_INDEX=str(index))
        return subprocess.run([BINARY, *args, *extra], capture_output=True, text=True, env=env, check=True)

    def test_the_job_is_indexed_and_says_its_count(self):
        self.assertEqual(self.job["kind"], "Job")
        self.assertEqual(self.spec["completionMode"], "Indexed")
        completions = self.spec["completions"]
        self.assertEqual(int(self.env["WEIGHTSPACE_SHARD_COUNT"]), completions,
                         "WEIGHTSPACE_SHARD_COUNT must be the Job's completions")
        self.assertLessEqual(self.spec["parallelism"], completions)
        # A retried index must go on with its file, and Kubernetes retries indices alone only
        # with restartPolicy Never.
        self.assertIn("--resume", self.container["args"])
        self.assertEqual(self.pod["restartPolicy"], "Never")
        self.assertGreaterEqual(self.spec["backoffLimitPerIndex"], 1)
        args = self.container["args"]
        self.assertLessEqual(int(args[args.index("--threads") + 1]),
                             int(self.container["resources"]["limits"]["cpu"]), "threads beyond the CPU limit")
        (results,) = [mount for mount in self.container["volumeMounts"]
                      if self.out_arg().startswith(mount["mountPath"] + "/")]
        self.assertFalse(results.get("readOnly", False), "the results must go to a writable volume")

    def test_the_dockerfile_runs_the_binary_the_args_are_for(self):
        with open(os.path.join(SOURCE, "deploy", "Dockerfile"), encoding="utf-8") as f:
            dockerfile = f.read()
        self.assertIn('ENTRYPOINT ["weightspace"]', dockerfile)
        self.assertIn("FROM debian:12", dockerfile)
        self.assertIn(f"USER {self.pod['securityContext']['runAsUser']}", dockerfile)
        # The Job's arguments start with a subcommand of that binary.
        subprocess.run([BINARY, self.container["args"][0], "--help"], capture_output=True, check=True)

    def test_each_index_resolves_to_its_shard_and_the_shards_partition_the_run(self):
        completions = self.spec["completions"]
        positions = []
        total = None
        for index in range(completions):
            lines = [json.loads(line) for line in self.pod_run(index, "--dry-run").stdout.splitlines()]
            header, records, summary = lines[0], lines[1:-1], lines[-1]["summary"]
            self.assertEqual(header["shard"], {"index": index, "count": completions,
                                               "from": f"JOB_COMPLETION_INDEX={index}, "
                                                       f"WEIGHTSPACE_SHARD_COUNT={completions}"})
            stem, extension = os.path.splitext(self.local(self.out_arg()))
            width = len(str(completions - 1))
            self.assertEqual(header["out"], f"{stem}.shard-{index:0{width}d}-of-{completions}{extension}")
            positions += [record["position"] for record in records]
            total = summary["total_records"]
        self.assertEqual(total, 31 * 3, "31 lines on the Job's three games")
        self.assertEqual(sorted(positions), list(range(total)))

    def test_the_pods_outputs_merge_into_the_one_process_output(self):
        completions = self.spec["completions"]
        for index in range(completions):
            self.pod_run(index, "--quiet", "--no-timings")
        out = self.local(self.out_arg())
        stem, extension = os.path.splitext(out)
        shards = [f"{stem}.shard-{index}-of-{completions}{extension}" for index in range(completions)]
        merged = os.path.join(self.tmp.name, "merged.jsonl")
        subprocess.run([BINARY, "merge", "--quiet", "--out", merged, *shards], check=True, env=CLEAN_ENV)
        args = [self.local(arg) for arg in self.container["args"]]
        one = os.path.join(self.tmp.name, "one.jsonl")
        args[args.index("--out") + 1] = one
        subprocess.run([BINARY, *args, "--quiet", "--no-timings"], check=True, env=CLEAN_ENV)
        with open(merged, "rb") as a, open(one, "rb") as b:
            self.assertEqual(a.read(), b.read())


if __name__ == "__main__":
    unittest.main()
