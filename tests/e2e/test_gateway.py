"""The single-port gateway over real sockets (docs/front-door.md#gateway): `/__rift/{port}/...`
on the admin port reaches the imposter without the API key the admin API asks for, keeps the
query, records the request as the imposter's own, and leaves the admin API as it was."""
import json
import unittest

from harness import Rift, request


class GatewayTest(unittest.TestCase):
    def test_the_gateway_needs_no_api_key_and_answers_as_the_imposter(self):
        with Rift("--apikey", "secret") as rift:
            key = {"x-api-key": "secret"}
            status, _, body = rift.admin("POST", "/imposters", {
                "protocol": "http", "recordRequests": True,
                "stubs": [{"predicates": [{"equals": {"path": "/users/7", "query": {"v": "2"}}}],
                           "responses": [{"is": {"statusCode": 201, "body": "seven"},
                                          "_rift": {"fault": {"latency": {"probability": 1,
                                                                          "ms": 20}}}}]}]},
                key)
            self.assertEqual(status, 201, body)
            port = body["port"]
            # The admin API still wants its key; the gateway does not.
            self.assertEqual(rift.admin("GET", "/imposters")[0], 401)
            status, headers, body = request(rift.port, "GET", f"/__rift/{port}/users/7?v=2")
            headers = {k.lower(): v for k, v in headers.items()}
            self.assertEqual((status, body), (201, b"seven"))
            self.assertEqual((headers["x-rift-imposter"], headers["x-rift-fault"]),
                             ("true", "latency"))
            self.assertEqual(request(rift.port, "POST", f"/__rift/{port}/other", b"x")[0], 200)
            # Recorded by the imposter, with its own path and a loopback client.
            _, _, imposter = rift.admin("GET", f"/imposters/{port}", headers=key)
            recorded = [(r["method"], r["path"], r["query"], r["requestFrom"].split(":")[0])
                        for r in imposter["requests"]]
            self.assertEqual(recorded, [("GET", "/users/7", {"v": "2"}, "127.0.0.1"),
                                        ("POST", "/other", {}, "127.0.0.1")])

    def test_bad_targets_get_the_error_envelope(self):
        with Rift() as rift:
            for path, status, message in (
                    ("/__rift/x/y", 400, "invalid gateway target 'x' (expected /__rift/<port>/<path>)"),
                    ("/__rift/70000", 400,
                     "invalid gateway target '70000' (expected /__rift/<port>/<path>)"),
                    ("/__rift/4999/y", 404, "no imposter on port 4999")):
                got, headers, body = request(rift.port, "GET", path)
                self.assertEqual(got, status, path)
                self.assertEqual(json.loads(body)["errors"][0]["message"], message)
            # Everything else is the admin API.
            self.assertEqual(rift.admin("GET", "/__riftx/1")[0], 404)
            self.assertEqual(rift.admin("GET", "/imposters")[0], 200)


if __name__ == "__main__":
    unittest.main()
