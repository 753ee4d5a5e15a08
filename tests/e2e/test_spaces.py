"""Spaces over real sockets (docs/spaces.md): one imposter, requests from several flow ids, each
seeing the global stubs and its own space's, in the interpreter, the JIT and a frozen mock; the
space routes; the journal's match=flow_id=; bad input refused with nothing stored changed."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from every_tier import RIFTC, EveryTier
from harness import Rift, parse_response, raw, request


def stub(body, path, space=None, method=None):
    fields = {"path": path}
    if method:
        fields["method"] = method
    out = {"predicates": [{"equals": fields}], "responses": [{"is": {"body": body}}]}
    if space is not None:
        out["space"] = space
    return out


def imposter(port=None):
    config = {"protocol": "http", "recordRequests": True,
              "_rift": {"flowState": {"flowIdSource": "header:X-Flow-Id"}},
              "stubs": [stub("a", "/who", "team-a"),
                        stub("A", "/who", "Team-A"),
                        stub("global first", "/shared"),
                        stub("shadowed", "/shared", "team-a"),
                        stub("global", "/who"),
                        stub("post a", "/only", "team-a", "POST")]}
    if port:
        config["port"] = port
    return config


def answer(port, method, path, flow=None):
    headers = {"X-Flow-Id": flow} if flow is not None else {}
    status, _, body = request(port, method, path, b"", headers)
    return status, body.decode()


class SpacesServeTest(EveryTier, unittest.TestCase):
    """The same answers from every tier."""

    def imposter(self, port):
        return imposter(port)

    def check(self, port):
        self.assertEqual(answer(port, "GET", "/who", "team-a"), (200, "a"))
        self.assertEqual(answer(port, "GET", "/who", "Team-A"), (200, "A"))  # byte for byte
        self.assertEqual(answer(port, "GET", "/who", "team-b"), (200, "global"))
        self.assertEqual(answer(port, "GET", "/who"), (200, "global"))  # the port's flow
        self.assertEqual(answer(port, "GET", "/who", ""), (200, "global"))
        # One first-match order: an earlier global stub beats a later space stub.
        self.assertEqual(answer(port, "GET", "/shared", "team-a"), (200, "global first"))
        self.assertEqual(answer(port, "POST", "/only", "team-a"), (200, "post a"))
        self.assertEqual(answer(port, "POST", "/only", "team-b"), (200, ""))  # no match
        self.assertEqual(answer(port, "GET", "/only", "team-a"), (200, ""))
        # A repeated header: its first value is the flow id.
        data = raw(port, b"GET /who HTTP/1.1\r\nHost: x\r\nX-Flow-Id: Team-A\r\n"
                         b"x-flow-id: team-a\r\nConnection: close\r\n\r\n")
        self.assertEqual(parse_response(data)[2], b"A")


class SpaceRoutesTest(unittest.TestCase):
    def setUp(self):
        self.rift = Rift().__enter__()
        self.port = self.rift.create(imposter())["port"]

    def tearDown(self):
        self.rift.__exit__(None, None, None)

    def admin(self, method, path, body=None):
        return self.rift.admin(method, f"/imposters/{self.port}{path}", body)

    def stored(self):
        return self.admin("GET", "")[2]

    def test_a_space_is_added_read_and_torn_down(self):
        status, _, body = self.admin("POST", "/spaces/team-c/stubs",
                                     stub("c", "/new", space="ignored: the path's id wins"))
        self.assertEqual(status, 201, body)
        self.assertEqual(body["space"], "team-c")
        self.assertEqual([s["responses"][0]["is"]["body"] for s in body["stubs"]], ["c"])
        self.assertEqual(body["stubs"][0]["space"], "team-c")
        self.assertEqual(self.stored()["stubs"][-1]["space"], "team-c")  # appended, echoed
        self.assertEqual(answer(self.port, "GET", "/new", "team-c"), (200, "c"))
        self.assertEqual(answer(self.port, "GET", "/new", "team-d"), (200, ""))

        status, _, body = self.admin("GET", "/spaces/team-c")
        self.assertEqual(status, 200)
        self.assertEqual((body["space"], len(body["stubs"]), body["numberOfRequests"]),
                         ("team-c", 1, 1))
        self.assertEqual(self.admin("GET", "/spaces/team-a/stubs")[2]["space"], "team-a")
        self.assertEqual(len(self.admin("GET", "/spaces/team-a/stubs")[2]["stubs"]), 3)
        saved = self.admin("GET", "/savedRequests?match=flow_id=team-c")[2]
        self.assertEqual([(r["method"], r["path"]) for r in saved], [("GET", "/new")])
        self.assertEqual(len(self.admin("GET", "/savedRequests")[2]), 2)

        status, _, body = self.admin("DELETE", "/spaces/team-c")
        self.assertEqual((status, body), (200, {"space": "team-c", "tornDown": True}))
        body = self.admin("GET", "/spaces/team-c")[2]
        self.assertEqual((body["stubs"], body["numberOfRequests"]), ([], 0))
        # Its requests went with it; the others and the imposter's count stay.
        self.assertEqual([r["headers"].get("X-Flow-Id") for r in self.admin("GET", "/savedRequests")[2]],
                         ["team-d"])
        self.assertEqual(self.stored()["numberOfRequests"], 2)
        self.assertEqual(answer(self.port, "GET", "/new", "team-c"), (200, ""))
        self.assertEqual(len(self.stored()["stubs"]), 6)
        # Unknown spaces read as empty and tear down as well.
        self.assertEqual(self.admin("DELETE", "/spaces/nobody")[0], 200)

    def test_explain_gives_a_request_the_flow_id_serving_would(self):
        def explained(headers):
            status, _, report = self.admin("POST", "/explain",
                                           {"method": "GET", "path": "/who", "headers": headers})
            self.assertEqual(status, 200, report)
            return report["matched"]
        self.assertEqual(explained({"X-Flow-Id": "team-a"}), 0)
        self.assertEqual(explained({"X-Flow-Id": "Team-A"}), 1)
        self.assertEqual(explained({}), 4)  # the port's flow: global stubs only

    def test_riftc_explain_gives_the_flow_id_too(self):
        folder = tempfile.mkdtemp(prefix="rift-spaces-")
        try:
            config = os.path.join(folder, "spaces.json")
            with open(config, "w") as f:
                json.dump({"imposters": [imposter(4545)]}, f)
            def explained(*headers):
                args = [os.path.abspath(RIFTC), "explain", config, "--request", "GET /who",
                        "--format", "json"]
                for header in headers:
                    args += ["-H", header]
                result = subprocess.run(args, capture_output=True, text=True, timeout=120)
                return json.loads(result.stdout)["matched"]
            self.assertEqual(explained("X-Flow-Id: team-a"), 0)
            self.assertEqual(explained("x-flow-id: Team-A"), 1)
            self.assertEqual(explained(), 4)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def test_space_ids_are_percent_decoded(self):
        status, _, body = self.admin("POST", "/spaces/a%2Fb%20c/stubs", stub("slash", "/new"))
        self.assertEqual((status, body["space"]), (201, "a/b c"))
        self.assertEqual(answer(self.port, "GET", "/new", "a/b c"), (200, "slash"))
        self.assertEqual(answer(self.port, "GET", "/new", "a%2Fb%20c"), (200, ""))

    def test_bad_input_is_refused_and_nothing_stored_changes(self):
        before = self.stored()["stubs"]
        for path, body, message in [
                ("/spaces/a%01b/stubs", stub("x", "/x"), "control characters"),
                ("/spaces/a%zz/stubs", stub("x", "/x"), "Failed to decode param"),
                ("/spaces/a%FFb/stubs", stub("x", "/x"), "must be UTF-8"),
                ("/spaces/team-a/stubs", {"predicates": []}, "'responses' must be a non-empty array"),
                ("/spaces/team-a/stubs", [1], "one stub")]:
            status, _, answer_body = self.admin("POST", path, body)
            self.assertEqual(status, 400, (path, answer_body))
            self.assertIn(message, answer_body["errors"][0]["message"])
        status, _, body = self.admin("POST", "/stubs", {"stub": {**stub("x", "/x"), "space": "a\nb"}})
        self.assertEqual((status, body["errors"][0]["code"]), (400, "bad data"))
        status, _, body = self.admin("POST", "/stubs", {"stub": {**stub("x", "/x"), "space": 7}})
        self.assertEqual((status, body["errors"][0]["message"]), (400, "'space' must be a string"))
        for clause, message in [
                ("query=a", "unsupported match clause 'query=a' (expected header:<Name>=<Value>, "
                            "flow_id=<Value>, method=<Verb> or path=<Path>)"),
                ("header:X", "invalid match clause 'header:X' (expected header:<Name>=<Value>)"),
                ("header:=v", "invalid match clause 'header:=v' (empty header name)")]:
            for method in ("GET", "DELETE"):
                status, _, body = self.admin(method, f"/savedRequests?match={clause}")
                self.assertEqual((status, body["errors"][0]["message"]), (400, message))
        self.assertEqual(self.stored()["stubs"], before)

    def test_flow_id_sources_are_checked(self):
        for source in ["Header:X", "header: X", "header:", "cookie:x", 7]:
            status, _, body = self.rift.admin("POST", "/imposters", {
                "protocol": "http", "_rift": {"flowState": {"flowIdSource": source}}})
            self.assertEqual(status, 400, source)
            self.assertIn("flowIdSource", body["errors"][0]["message"])
        status, _, body = self.rift.admin("POST", "/imposters", {
            "protocol": "http", "_rift": {"flowState": {"backend": "etcd", "ttlSeconds": 0}}})
        self.assertEqual(status, 400)
        self.assertEqual([e["message"] for e in body["errors"]], [
            'Flow store configuration error: flowState.backend is "etcd" but no such backend '
            'exists (expected "inmemory" or "redis")',
            "Flow store configuration error: flowState.ttlSeconds must be >= 1 (got 0); a "
            "non-positive TTL would expire every write immediately"])
        # The block is echoed as given.
        self.assertEqual(self.stored()["_rift"], {"flowState": {"flowIdSource": "header:X-Flow-Id"}})


if __name__ == "__main__":
    unittest.main()
