"""Stub ids, stub reads and enable/disable over real sockets (docs/stub-ids.md): by-id reads,
replacements that keep the position and the response cycle, deletes, 409 on a repeated id with
nothing changed, and a disabled imposter answering 503 without counting or recording, saved under
--datadir across a restart."""
import json
import shutil
import tempfile
import unittest

from harness import Rift, request


def stub(body, path, stub_id=None, bodies=None):
    out = {"predicates": [{"equals": {"path": path}}],
           "responses": [{"is": {"body": b}} for b in (bodies or [body])]}
    if stub_id is not None:
        out["id"] = stub_id
    return out


class StubIdTest(unittest.TestCase):
    def setUp(self):
        self.rift = Rift().__enter__()
        self.port = self.rift.create({"protocol": "http", "stubs": [
            stub("first", "/a", "login"),
            stub(None, "/c", "cycle", bodies=["one", "two", "three"]),
            stub("anonymous", "/b")]})["port"]

    def tearDown(self):
        self.rift.__exit__(None, None, None)

    def admin(self, method, path, body=None):
        return self.rift.admin(method, f"/imposters/{self.port}{path}", body)

    def body(self, path):
        return request(self.port, "GET", path)[2].decode()

    def test_reads(self):
        status, _, body = self.admin("GET", "/stubs")
        self.assertEqual(status, 200)
        self.assertEqual([s.get("id") for s in body["stubs"]], ["login", "cycle", None])
        self.assertTrue(body["stubs"][0]["_links"]["self"]["href"].endswith(
            f"/imposters/{self.port}/stubs/0"))
        status, _, body = self.admin("GET", "/stubs/2")
        self.assertEqual((status, body["responses"][0]["is"]["body"]), (200, "anonymous"))
        self.assertEqual(self.admin("GET", "/stubs/3")[0], 404)
        status, _, body = self.admin("GET", "/stubs/by-id/login")
        self.assertEqual(status, 200)
        self.assertEqual(body, stub("first", "/a", "login"))
        status, _, body = self.admin("GET", "/stubs/by-id/nope")
        self.assertEqual((status, body["errors"][0]["message"]), (404, "No stub with id 'nope'"))

    def test_a_replacement_keeps_position_id_and_cycle(self):
        self.assertEqual(self.body("/c"), "one")
        replacement = stub(None, "/c", "other-id", bodies=["uno", "dos", "tres"])
        status, _, body = self.admin("PUT", "/stubs/by-id/cycle", replacement)
        self.assertEqual(status, 200)
        self.assertEqual(body["stubs"][1]["id"], "cycle")  # the path's id wins
        self.assertEqual(body["stubs"][1]["responses"][0]["is"]["body"], "uno")
        self.assertEqual(self.body("/c"), "dos")  # the cycle went on
        status, _, body = self.admin("DELETE", "/stubs/by-id/login")
        self.assertEqual([s.get("id") for s in body["stubs"]], ["cycle", None])
        self.assertEqual(self.body("/a"), "")
        self.assertEqual(self.admin("DELETE", "/stubs/by-id/login")[0], 404)
        # A PUT to an id no stub has is a 404 and changes nothing.
        before = self.admin("GET", "")[2]["stubs"]
        status, _, answer = self.admin("PUT", "/stubs/by-id/nope", stub("x", "/x"))
        self.assertEqual((status, answer["errors"][0]["message"]), (404, "No stub with id 'nope'"))
        self.assertEqual(self.admin("GET", "")[2]["stubs"], before)

    def test_a_repeated_id_is_409_and_changes_nothing(self):
        before = self.admin("GET", "")[2]["stubs"]
        for method, path, body in (
                ("POST", "/stubs", {"stub": stub("x", "/x", "login")}),
                ("PUT", "/stubs", {"stubs": [stub("x", "/x", "d"), stub("y", "/y", "d")]}),
                ("PUT", "/stubs/2", stub("x", "/x", "cycle"))):
            status, _, answer = self.admin(method, path, body)
            self.assertEqual(status, 409, (method, path))
            self.assertEqual(answer["errors"][0],
                             {"code": "resource conflict",
                              "message": answer["errors"][0]["message"]})
            self.assertIn("already exists", answer["errors"][0]["message"])
        self.assertEqual(self.admin("GET", "")[2]["stubs"], before)
        status, _, answer = self.rift.admin("POST", "/imposters", {
            "protocol": "http", "stubs": [stub("a", "/a", "same"), stub("b", "/b", "same")]})
        self.assertEqual((status, answer["errors"][0]["message"]),
                         (409, "A stub with id 'same' already exists"))
        status, _, answer = self.admin("POST", "/stubs", {"stub": stub("x", "/x", 5)})
        self.assertEqual((status, answer["errors"][0]["message"]), (400, "'id' must be a string"))


class EnableDisableTest(unittest.TestCase):
    def test_disabled_answers_503_without_counting_or_recording(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "recordRequests": True,
                                "stubs": [stub("hi", "/")]})["port"]
            status, _, body = rift.admin("POST", f"/imposters/{port}/disable")
            self.assertEqual((status, body), (200, {"message": "Imposter disabled"}))
            status, headers, body = request(port, "GET", "/")
            self.assertEqual(status, 503)
            self.assertEqual(headers.get("x-rift-imposter-disabled"), "true")
            self.assertEqual(json.loads(body)["errors"][0]["code"], "imposter disabled")
            shown = rift.admin("GET", f"/imposters/{port}")[2]
            self.assertEqual((shown["enabled"], shown["numberOfRequests"], shown["requests"]),
                             (False, 0, []))
            status, _, body = rift.admin("POST", f"/imposters/{port}/enable")
            self.assertEqual((status, body), (200, {"message": "Imposter enabled"}))
            self.assertEqual(request(port, "GET", "/")[2], b"hi")
            self.assertNotIn("enabled", rift.admin("GET", f"/imposters/{port}")[2])

    def test_created_disabled_and_kept_so_across_a_restart(self):
        datadir = tempfile.mkdtemp(prefix="rift-enabled-")
        try:
            with Rift("--datadir", datadir) as rift:
                port = rift.create({"protocol": "http", "stubs": [stub("hi", "/")]})["port"]
                rift.admin("POST", f"/imposters/{port}/disable")
                status, _, body = rift.admin("POST", "/imposters", {
                    "protocol": "http", "enabled": "no"})
                self.assertEqual((status, body["errors"][0]["message"]),
                                 (400, "'enabled' must be a boolean"))
            with Rift("--datadir", datadir) as rift:
                self.assertEqual(request(port, "GET", "/")[0], 503)
                rift.admin("POST", f"/imposters/{port}/enable")
            with Rift("--datadir", datadir) as rift:
                self.assertEqual(request(port, "GET", "/")[2], b"hi")
                created = rift.create({"protocol": "http", "enabled": False})["port"]
                self.assertEqual(request(created, "GET", "/")[0], 503)
        finally:
            shutil.rmtree(datadir, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
