"""X-Rift-Debug over real sockets (docs/debug.md): a hit previews the next response without
moving the cycle, a miss names the clause each stub failed, and the request is counted."""
import json
import unittest

from harness import Rift, request

DEBUG = {"X-Rift-Debug": "true"}


class DebugDryRunTest(unittest.TestCase):
    def test_hit_miss_and_side_effects(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "name": "users", "stubs": [
                {"id": "one", "predicates": [{"equals": {"path": "/users/1"}}],
                 "responses": [{"is": {"statusCode": 201, "body": "first"}},
                               {"is": {"body": "second"}}]},
                {"predicates": [{"equals": {"method": "POST"}}, {"contains": {"body": "x"}}],
                 "responses": [{"is": {"body": {"b": 2, "a": 1}}}]}]})["port"]
            status, headers, body = request(port, "GET", "/users/1", b"", DEBUG)
            self.assertEqual(status, 200)
            self.assertEqual({k.lower(): v for k, v in headers.items()}["x-rift-debug-response"],
                             "true")
            report = json.loads(body)
            self.assertEqual(report["imposter"], {"port": port, "name": "users", "protocol": "http",
                                                  "stubCount": 2})
            self.assertEqual(report["matchResult"]["stubId"], "one")
            self.assertEqual(report["matchResult"]["responsePreview"],
                             {"responseType": "is", "statusCode": 201, "bodyPreview": "first"})
            # The cycle did not move: the real request still gets the first response.
            self.assertEqual(request(port, "GET", "/users/1")[2], b"first")
            report = json.loads(request(port, "GET", "/users/1", b"", DEBUG)[2])
            self.assertEqual(report["matchResult"]["responsePreview"]["bodyPreview"], "second")

            report = json.loads(request(port, "POST", "/users/2", b"y", DEBUG)[2])
            result = report["matchResult"]
            self.assertFalse(result["matched"])
            self.assertEqual(result["reason"], "No stub predicates matched the request")
            self.assertEqual([s["index"] for s in result["allStubs"]], [0, 1])
            self.assertEqual(result["allStubs"][0]["failedClause"]["field"], "path")
            self.assertEqual(result["allStubs"][1]["failedClause"]["field"], "body")
            self.assertEqual(report["request"]["body"], "y")

            _, _, imposter = rift.admin("GET", f"/imposters/{port}")
            self.assertEqual(imposter["numberOfRequests"], 4)

    def test_only_true_or_one_asks(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http",
                                "stubs": [{"responses": [{"is": {"body": "served"}}]}]})["port"]
            for value, debug in (("TRUE", True), ("1", True), ("yes", False), ("0", False)):
                body = request(port, "GET", "/", b"", {"x-rift-debug": value})[2]
                self.assertEqual(body != b"served", debug, value)


if __name__ == "__main__":
    unittest.main()
