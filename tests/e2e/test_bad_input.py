"""Bad input never crashes the server and never loses what is stored.

A seeded generator mutates valid admin bodies and raw HTTP requests; after every request the
server must still answer, every admin error must be Mountebank's error JSON, and the imposter
created first must still be there, unchanged.
"""
import json
import random
import socket
import unittest

from harness import Rift, raw, request

VALID_IMPOSTER = {
    "protocol": "http",
    "stubs": [
        {"predicates": [{"equals": {"path": "/x", "query": {"a": "1"}}, "caseSensitive": True},
                        {"matches": {"body": "^a.*"}},
                        {"or": [{"exists": {"headers": {"X": True}}}, {"deepEquals": {"body": {"k": [1, 2]}}}]}],
         "responses": [{"is": {"statusCode": 201, "headers": {"A": "b"}, "body": {"o": 1}}, "repeat": 2},
                       {"is": {"_mode": "binary", "body": "AAEC"}, "behaviors": [{"wait": 1}]}]},
    ],
}

WEIRD_VALUES = [None, True, False, 0, -1, 1.5, 1e300, "", "x", "${x}", "\u0000", "é", [], {}, [None], {"": None},
                "(((", "[", "//*[", "$..", 65536, "65536", "0x10", " 12 ", [1, [2, [3]]]]


def mutate(value, rng, depth=0):
    """Returns a randomly damaged copy of a JSON value."""
    if depth > 6 or rng.random() < 0.15:
        return rng.choice(WEIRD_VALUES)
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            roll = rng.random()
            if roll < 0.1:
                continue  # drop a key
            if roll < 0.15:
                key = key.upper()
            out[key] = mutate(item, rng, depth + 1) if rng.random() < 0.5 else item
        if rng.random() < 0.1:
            out[rng.choice(["equals", "is", "proxy", "inject", "fault", "_behaviors", "behaviors", "stubs", "bogus"])] = \
                rng.choice(WEIRD_VALUES)
        return out
    if isinstance(value, list):
        out = [mutate(item, rng, depth + 1) if rng.random() < 0.5 else item for item in value]
        if rng.random() < 0.2:
            out.append(rng.choice(WEIRD_VALUES))
        return out
    return rng.choice(WEIRD_VALUES) if rng.random() < 0.5 else value


def is_mountebank_error(body):
    return (isinstance(body, dict) and isinstance(body.get("errors"), list) and body["errors"]
            and all(isinstance(e, dict) and "code" in e and "message" in e for e in body["errors"]))


class BadInputTest(unittest.TestCase):
    def test_mutated_admin_bodies_and_requests(self):
        rng = random.Random(1202)
        with Rift("--allowInjection") as rift:
            keeper = rift.create({"protocol": "http", "stubs": [{"responses": [{"is": {"body": "kept"}}]}]})
            keeper_port = keeper["port"]
            scratch = rift.create({"protocol": "http", "stubs": []})["port"]
            for round_ in range(250):
                body = mutate(VALID_IMPOSTER, rng)
                target = rng.choice(["POST /imposters", f"PUT /imposters/{scratch}/stubs",
                                     f"POST /imposters/{scratch}/stubs", f"PUT /imposters/{scratch}/stubs/0",
                                     "PUT /imposters"])
                method, path = target.split(" ")
                if path.endswith("/stubs") and method == "PUT":
                    payload = {"stubs": body.get("stubs") if isinstance(body, dict) else body}
                elif path.endswith("/stubs"):
                    payload = {"index": rng.choice([0, 1, -1, "0", None]), "stub": (body.get("stubs") or [{}])[0]
                               if isinstance(body, dict) and isinstance(body.get("stubs"), list) else body}
                elif path.endswith("/0"):
                    payload = (body.get("stubs") or [{}])[0] if isinstance(body, dict) and isinstance(body.get("stubs"), list) else body
                elif method == "PUT":
                    continue  # replacing everything would drop the keeper on purpose; covered by the corpus
                else:
                    payload = body
                    if isinstance(payload, dict):
                        payload.pop("port", None)
                status, _, answer = rift.admin(method, path, payload)
                self.assertIn(status, (200, 201, 400, 404), (round_, target, payload, answer))
                if status >= 400:
                    self.assertTrue(is_mountebank_error(answer), (round_, target, payload, answer))
                if status == 201:
                    rift.admin("DELETE", f"/imposters/{answer['port']}")
                # Whatever was accepted must serve without crashing the process.
                got = request(scratch, rng.choice(["GET", "POST", "PUT"]), rng.choice(["/x?a=1", "/", "/x"]),
                              rng.choice([b"", b"abc", b'{"k":[2,1]}', b"<a/>"]), {"X": "1"})
                self.assertIn(got[0], range(100, 1000))
            self.assertEqual(request(keeper_port, "GET", "/")[2], b"kept")

    def test_malformed_wire_requests(self):
        rng = random.Random(7)
        samples = [b"GET / HTTP/1.1\r\n\r\n", b"GET /x?a=%zz&&=&b HTTP/1.1\r\nHost: h\r\n\r\n",
                   b"POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Encoding: gzip\r\n\r\nabc",
                   b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", b"\x00\xff\xfe garbage\r\n\r\n",
                   b"GET /../../etc/passwd HTTP/1.0\r\n\r\n", b"GET " + b"/a" * 5000 + b" HTTP/1.1\r\n\r\n",
                   b"GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n"]
        with Rift() as rift:
            port = rift.create({"protocol": "http", "recordRequests": True, "stubs": [
                {"predicates": [{"equals": {"body": {"a": 1}}}], "responses": [{"is": {"body": "j"}}]},
                {"responses": [{"is": {"body": "ok"}}]}]})["port"]
            for _ in range(150):
                data = bytearray(rng.choice(samples))
                for _ in range(rng.randrange(3)):
                    data[rng.randrange(len(data))] = rng.randrange(256)
                raw(port, bytes(data), timeout=3, half_close=True)
            self.assertEqual(request(port, "GET", "/")[2], b"ok")
            status, _, imposter = rift.admin("GET", f"/imposters/{port}")
            self.assertEqual(status, 200)
            json.dumps(imposter)  # the journal of odd requests still renders as JSON


if __name__ == "__main__":
    unittest.main()
