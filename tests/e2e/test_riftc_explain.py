"""`riftc explain` end to end: the real binary on a config file, text and JSON output, exit codes."""
import json
import os
import subprocess
import unittest

RIFTC = os.environ.get("RIFT_RIFTC", "build/bin/riftc")
CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "configs", "explain.json")


def explain(*args):
    return subprocess.run([os.path.abspath(RIFTC), "explain", *args], capture_output=True,
                          text=True, timeout=60)


def explain_json(*args):
    result = explain(CONFIG, "--imposter", "4545", "--format", "json", *args)
    return result.returncode, json.loads(result.stdout)


@unittest.skipUnless(os.path.exists(RIFTC), "riftc binary not built: " + RIFTC)
class RiftcExplainTest(unittest.TestCase):
    def test_match_names_the_stub_and_the_path(self):
        code, report = explain_json("--request", "GET /orders?status=open")
        self.assertEqual(code, 0)
        self.assertEqual(report["matched"], 0)
        self.assertEqual(report["candidatesVisited"], 1)
        steps = [step["step"] for step in report["path"]]
        self.assertEqual(steps[0], "method")
        self.assertIn("candidate", steps)
        self.assertEqual(report["path"][-1], {"step": "candidate", "stub": 0,
                                              "leaf": "GET /orders", "result": "matched"})

    def test_query_is_decoded_by_the_server_rules(self):
        code, report = explain_json("--request", "GET /orders?status=op%65n")
        self.assertEqual(code, 0)
        self.assertEqual(report["matched"], 0)

    def test_miss_names_the_failing_json_body_field(self):
        code, report = explain_json("--request", "POST /orders", "-H", "X-Api-Key: k",
                                    "-d", '{"item": "book", "quantity": 2}')
        self.assertEqual(code, 1)
        self.assertIsNone(report["matched"])
        self.assertEqual(len(report["nearMisses"]), 3)
        best = report["nearMisses"][0]
        self.assertEqual(best["stub"], 1)
        self.assertEqual(best["passedClauses"], 3)
        failed = best["failedClause"]
        self.assertEqual(failed["index"], 1)
        self.assertEqual(failed["field"], "body.quantity")
        self.assertEqual(failed["expected"], 1)
        self.assertEqual(failed["actual"], 2)
        self.assertEqual(failed["reason"], "equals: expected 1 but the request has 2")

    def test_missing_header_and_method_mismatch(self):
        code, report = explain_json("--request", "POST /orders",
                                    "-d", '{"item": "book", "quantity": 1}')
        self.assertEqual(code, 1)
        self.assertEqual(report["nearMisses"][0]["failedClause"]["field"], "headers.X-Api-Key")
        method_miss = report["nearMisses"][1]
        self.assertEqual(method_miss["stub"], 0)
        self.assertFalse(method_miss["candidate"])
        self.assertEqual(method_miss["failedClause"]["field"], "method")

    def test_text_output(self):
        result = explain(CONFIG, "--imposter", "4545", "--request", "DELETE /orders/42")
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn("matched: none", result.stdout)
        self.assertIn("near misses:", result.stdout)
        self.assertIn("not: the request satisfies", result.stdout)

    def test_usage_and_config_errors_exit_2(self):
        self.assertEqual(explain(CONFIG, "--imposter", "4545").returncode, 2)
        several = explain(CONFIG, "--request", "GET /")
        self.assertEqual(several.returncode, 2)
        self.assertIn("--imposter", several.stderr)
        missing = explain(CONFIG, "--imposter", "9", "--request", "GET /")
        self.assertEqual(missing.returncode, 2)
        self.assertIn("no imposter on port 9", missing.stderr)
        self.assertEqual(explain("/nonexistent.json", "--request", "GET /").returncode, 2)
        self.assertEqual(explain(CONFIG, "--imposter", "4545", "--request", "GET").returncode, 2)

    def test_catch_all_imposter_matches(self):
        result = explain(CONFIG, "--imposter", "4546", "--request", "get /anything")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("matched: stub 0", result.stdout)


if __name__ == "__main__":
    unittest.main()
