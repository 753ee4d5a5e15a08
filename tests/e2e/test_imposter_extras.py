"""The reference Rift's imposter fields over real sockets (docs/default-forward.md): defaultForward
sends what no stub matches to an origin, before defaultResponse; the other fields are echoed."""
import unittest

from harness import Rift, request


def lower(headers):
    return {k.lower(): v for k, v in headers.items()}


class ImposterExtrasTest(unittest.TestCase):
    def test_default_forward(self):
        with Rift() as rift:
            origin = rift.create({"protocol": "http", "stubs": [{"responses": [
                {"is": {"statusCode": 203, "headers": {"X-Origin": "yes"},
                        "body": "origin saw it"}}]}]})["port"]
            port = rift.create({
                "protocol": "http", "defaultForward": f"http://127.0.0.1:{origin}",
                "defaultResponse": {"statusCode": 404, "body": "default"},
                "serviceName": "users", "service_info": {"team": "a"}, "strictBehaviors": True,
                "stubs": [{"predicates": [{"equals": {"path": "/stubbed"}}],
                           "responses": [{"is": {"body": "stub"}}]}]})["port"]
            self.assertEqual(request(port, "GET", "/stubbed")[2], b"stub")
            status, headers, body = request(port, "POST", "/elsewhere?q=1", b"payload")
            self.assertEqual((status, body), (203, b"origin saw it"))
            self.assertEqual(lower(headers)["x-origin"], "yes")
            self.assertEqual(lower(headers)["x-rift-default-forward"], "true")
            self.assertNotIn("x-rift-no-match", lower(headers))
            _, _, seen = rift.admin("GET", f"/imposters/{origin}")
            self.assertEqual(seen["numberOfRequests"], 1)
            _, _, echo = rift.admin("GET", f"/imposters/{port}")
            self.assertEqual((echo["defaultForward"], echo["serviceName"], echo["serviceInfo"],
                              echo["strictBehaviors"]),
                             (f"http://127.0.0.1:{origin}", "users", {"team": "a"}, True))

    def test_bad_fields_are_refused(self):
        with Rift() as rift:
            for body, field in (({"defaultForward": "http://h:1/path"}, "'defaultForward'"),
                                ({"defaultForward": 5}, "'defaultForward'"),
                                ({"strictBehaviors": "yes"}, "'strictBehaviors'")):
                status, _, answer = rift.admin("POST", "/imposters", {"protocol": "http", **body})
                self.assertEqual(status, 400, body)
                self.assertIn(field, answer["errors"][0]["message"])


if __name__ == "__main__":
    unittest.main()
