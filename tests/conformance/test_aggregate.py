"""aggregate.py fails on each thing it must fail on, and passes a clean set of lanes."""

import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

AGGREGATE = pathlib.Path(__file__).with_name("aggregate.py")


def line(outcome):
    return json.dumps({"client": "c", "transport": "t", "tier": "interpreter", "corpus": "rift",
                       "fixture": "f", "stub": 0, "step": 0, "outcome": outcome, "reason": ""})


class AggregateTest(unittest.TestCase):
    def run_with(self, lanes, expect):
        with tempfile.TemporaryDirectory() as folder:
            for name, outcomes in lanes.items():
                text = "\n".join(line(o) for o in outcomes) + "\n"
                pathlib.Path(folder, f"{name}.jsonl").write_text(text)
            return subprocess.run([sys.executable, str(AGGREGATE), "--results", folder, "--expect", *expect],
                                  capture_output=True, text=True)

    def test_clean_lanes_pass(self):
        result = self.run_with({"a-embedded-interpreter": ["pass", "skip"], "a-spawn-interpreter": ["pass"]},
                               ["a:embedded:interpreter", "a:spawn:interpreter"])
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("a-embedded-interpreter: conformance: 1 passed, 0 failed, 1 skipped", result.stdout)

    def test_a_failed_step_fails(self):
        result = self.run_with({"a-embedded-interpreter": ["pass", "fail"]}, ["a:embedded:interpreter"])
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("1 failed", result.stderr)

    def test_a_missing_lane_fails(self):
        result = self.run_with({"a-embedded-interpreter": ["pass"]}, ["a:embedded:interpreter", "a:connect:interpreter"])
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("a:connect:interpreter: no result file", result.stderr)

    def test_an_all_skipped_lane_fails(self):
        result = self.run_with({"a-embedded-interpreter": ["skip", "skip"]}, ["a:embedded:interpreter"])
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("nothing passed", result.stderr)

    def test_a_garbled_line_fails(self):
        with tempfile.TemporaryDirectory() as folder:
            pathlib.Path(folder, "a-embedded-interpreter.jsonl").write_text(line("pass") + "\n{oops\n")
            result = subprocess.run([sys.executable, str(AGGREGATE), "--results", folder], capture_output=True, text=True)
        self.assertNotEqual(result.returncode, 0)


if __name__ == "__main__":
    unittest.main()
