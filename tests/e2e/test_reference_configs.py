"""Config files written for the reference Rift load unchanged (issue 18, item 7): every shape it
reads — the `{"imposters": [...]}` wrapper with its sibling blocks (`routes`, `intercept`), a
single imposter, a bare array, a YAML sequence — with the reference-era forms inside (faults,
templates, route patterns, lenient Mountebank spellings), served and echoed. Our own configs; the
reference's examples were checked by hand when this was written (docs/rift-compatibility.md)."""
import json
import os
import tempfile
import time
import unittest

from harness import Rift, free_port, request


def reference_imposter(port):
    return {
        "protocol": "http", "port": port, "name": "orders", "serviceName": "orders",
        "_rift": {"flowState": {"backend": "inmemory", "ttlSeconds": 60}},
        "stubs": [
            {"routePattern": "/orders/:id", "rules": [{"startsWith": {"path": "/orders/"}}],
             "responses": [{"is": {"statusCode": "200",
                                   "headers": {"X-Order": "${request.pathParams.id}", "X-Count": 2},
                                   "body": "order {{request.path | last_segment}}"},
                            "_rift": {"templated": True},
                            "_behaviors": {"wait": 1}}]},
            {"predicates": [{"equals": {"path": "/flaky"}}],
             "responses": [{"statusCode": 201, "body": "flat"},
                           {"is": {"body": "never"},
                            "_rift": {"fault": {"error": {"probability": 1, "status": 503}}}}]},
            {"predicates": [{"equals": {"path": "/slow"}}], "delayRange": [{"min": "5", "max": "5"}],
             "responses": [{"is": {"body": "slow"}, "proxy": None}]},
        ]}


def check(test, rift, port):
    status, headers, body = request(port, "GET", "/orders/42")
    lower = {k.lower(): v for k, v in headers.items()}
    test.assertEqual((status, body, lower["x-order"], lower["x-count"]),
                     (200, b"order 42", "42", "2"))
    test.assertEqual(request(port, "GET", "/flaky")[:3:2], (201, b"flat"))
    test.assertEqual(request(port, "GET", "/flaky")[0], 503)
    test.assertEqual(request(port, "GET", "/slow")[2], b"slow")
    _, _, echo = rift.admin("GET", f"/imposters/{port}")
    test.assertEqual(echo["_rift"], {"flowState": {"backend": "inmemory", "ttlSeconds": 60}})
    test.assertEqual(echo["serviceName"], "orders")
    test.assertEqual(echo["stubs"][0]["predicates"], [{"startsWith": {"path": "/orders/"}}])


class ReferenceConfigTest(unittest.TestCase):
    def serve(self, name, text):
        with tempfile.TemporaryDirectory(prefix="rift-refconfig-") as folder:
            path = os.path.join(folder, name)
            with open(path, "w") as f:
                f.write(text)
            with Rift("--configfile", path) as rift:
                yield rift

    def test_every_shape(self):
        for name, shape in (
                ("wrapper.json", lambda port: json.dumps({
                    "imposters": [reference_imposter(port)],
                    "routes": {"routes": [{"id": "orders", "match": {"host": "orders.local"},
                                           "target": {"port": port}}]},
                    "intercept": {"enabled": False}})),
                ("single.json", lambda port: json.dumps(reference_imposter(port))),
                ("array.json", lambda port: json.dumps([reference_imposter(port)])),
                # YAML is a superset of JSON: one flow-style sequence of one imposter.
                ("imposters.yaml", lambda port: "- " + json.dumps(reference_imposter(port)))):
            with self.subTest(name):
                port = free_port()
                for rift in self.serve(name, shape(port)):
                    check(self, rift, port)


if __name__ == "__main__":
    unittest.main()
