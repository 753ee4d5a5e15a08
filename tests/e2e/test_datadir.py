"""--datadir over real sockets: what the admin API changed is there after a restart."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from harness import Rift, free_port, request, RIFT


def stub(body, path=None):
    out = {"responses": [{"is": {"body": body}}]}
    if path:
        out["predicates"] = [{"equals": {"path": path}}]
    return out


def saved_state(server, port):
    """The imposter's full form minus what is not saved (the journal and the request count)."""
    status, _, body = server.admin("GET", f"/imposters/{port}")
    assert status == 200, (status, body)
    for key in ("numberOfRequests", "requests"):
        body.pop(key, None)
    return json_without_hosts(body)


def json_without_hosts(value):
    """_links carry the admin port, which changes with every start."""
    text = json.dumps(value, sort_keys=True)
    for prefix in ("http://localhost:",):
        while prefix in text:
            start = text.index(prefix)
            end = text.index("/", start + len(prefix))
            text = text[:start] + "ADMIN" + text[end:]
    return json.loads(text)


def answer(port, path="/"):
    status, _, body = request(port, "GET", path)
    return status, body.decode()


class Datadir(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rift-datadir-e2e-")
        self.data = os.path.join(self.dir, "data")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def server(self, *extra):
        return Rift("--datadir", self.data, "--engine", "interp", *extra)

    def ports(self):
        return sorted(p for p in os.listdir(self.data)) if os.path.isdir(self.data) else []

    def test_restart_keeps_imposters_and_stubs(self):
        port = free_port()
        with self.server() as rift:
            rift.create({"protocol": "http", "port": port, "name": "orders", "recordRequests": True,
                         "defaultResponse": {"body": "none"},
                         "stubs": [stub("A", "/a"), {"responses": [{"is": {"body": "x"}, "repeat": 2},
                                                                   {"is": {"statusCode": 500}}]}]})
            chosen = rift.create({"protocol": "http", "stubs": [stub("os-chosen")]})["port"]
            answer(port, "/a")
            before = saved_state(rift, port)
            before_chosen = saved_state(rift, chosen)
        self.assertEqual(self.ports(), sorted([str(port), str(chosen)]))
        with self.server() as rift:
            self.assertEqual(saved_state(rift, port), before)
            self.assertEqual(saved_state(rift, chosen), before_chosen)
            status, _, body = rift.admin("GET", f"/imposters/{port}")
            self.assertEqual((body["numberOfRequests"], body["requests"]), (0, []))  # not saved
            self.assertEqual(answer(port, "/a"), (200, "A"))
            self.assertEqual(answer(port, "/b"), (200, "x"))
            self.assertEqual(answer(chosen), (200, "os-chosen"))

    def test_every_kind_of_stub_edit_is_saved(self):
        port = free_port()
        with self.server() as rift:
            rift.create({"protocol": "http", "port": port, "stubs": [stub("zero", "/0")]})
            edits = [
                ("PUT", f"/imposters/{port}/stubs", {"stubs": [stub("a", "/a"), stub("b", "/b")]}),
                ("POST", f"/imposters/{port}/stubs", {"index": 1, "stub": stub("inserted", "/i")}),
                ("POST", f"/imposters/{port}/stubs", {"stub": stub("appended", "/z")}),
                ("PUT", f"/imposters/{port}/stubs/0", stub("replaced", "/a")),
                ("DELETE", f"/imposters/{port}/stubs/2", None),
            ]
            for method, path, body in edits:
                status, _, answered = rift.admin(method, path, body)
                self.assertEqual(status, 200, (method, path, answered))
            before = saved_state(rift, port)
        bodies = [s["responses"][0]["is"]["body"] for s in before["stubs"]]
        self.assertEqual(bodies, ["replaced", "inserted", "appended"])
        with self.server() as rift:
            self.assertEqual(saved_state(rift, port), before)
            self.assertEqual(answer(port, "/a"), (200, "replaced"))
            self.assertEqual(answer(port, "/b"), (200, ""))  # deleted: no stub matches

    def test_deleting_saved_proxy_responses_is_saved(self):
        port = free_port()
        recorded = {"is": {"body": "recorded", "_proxyResponseTime": 12}}
        with self.server() as rift:
            rift.create({"protocol": "http", "port": port, "stubs": [
                {"predicates": [{"equals": {"path": "/r"}}], "responses": [recorded]},
                stub("kept", "/k")]})
            status, _, _ = rift.admin("DELETE", f"/imposters/{port}/savedProxyResponses")
            self.assertEqual(status, 200)
            status, _, _ = rift.admin("DELETE", f"/imposters/{port}/savedRequests")
            self.assertEqual(status, 200)
        with self.server() as rift:
            stubs = saved_state(rift, port)["stubs"]
            self.assertEqual([s["responses"][0]["is"]["body"] for s in stubs], ["kept"])

    def test_deletes_are_saved(self):
        ports = [free_port() for _ in range(3)]
        with self.server() as rift:
            for port in ports:
                rift.create({"protocol": "http", "port": port, "stubs": [stub(str(port))]})
            status, _, _ = rift.admin("DELETE", f"/imposters/{ports[0]}")
            self.assertEqual(status, 200)
        self.assertEqual(self.ports(), sorted(str(p) for p in ports[1:]))
        with self.server() as rift:
            status, _, body = rift.admin("GET", "/imposters")
            self.assertEqual([i["port"] for i in body["imposters"]], sorted(ports[1:]))
            status, _, _ = rift.admin("DELETE", "/imposters")
            self.assertEqual(status, 200)
        self.assertEqual(self.ports(), [])
        with self.server() as rift:
            self.assertEqual(rift.admin("GET", "/imposters")[2], {"imposters": []})

    def test_put_imposters_replaces_the_saved_set(self):
        old, kept, new = free_port(), free_port(), free_port()
        with self.server() as rift:
            rift.create({"protocol": "http", "port": old, "stubs": [stub("old")]})
            rift.create({"protocol": "http", "port": kept, "stubs": [stub("kept-before")]})
            status, _, body = rift.admin("PUT", "/imposters", {"imposters": [
                {"protocol": "http", "port": kept, "stubs": [stub("kept-after")]},
                {"protocol": "http", "port": new, "allowCORS": True, "stubs": [stub("new")]}]})
            self.assertEqual(status, 200, body)
        self.assertEqual(self.ports(), sorted([str(kept), str(new)]))
        with self.server() as rift:
            self.assertEqual(answer(kept), (200, "kept-after"))
            self.assertEqual(answer(new), (200, "new"))
            # allowCORS is never echoed, yet it is kept: the saved file is the creation request.
            status, headers, _ = request(new, "OPTIONS", "/", headers={
                "Access-Control-Request-Method": "PUT", "Origin": "localhost:8080",
                "Access-Control-Request-Headers": "X-Custom-Header"})
            self.assertEqual(headers.get("access-control-allow-origin"), "localhost:8080")

    def test_configfile_replaces_what_the_datadir_held(self):
        from_datadir, from_config = free_port(), free_port()
        with self.server() as rift:
            rift.create({"protocol": "http", "port": from_datadir, "stubs": [stub("datadir")]})
        config = os.path.join(self.dir, "imposters.json")
        with open(config, "w") as out:
            json.dump({"imposters": [{"protocol": "http", "port": from_config,
                                      "stubs": [stub("config")]}]}, out)
        with self.server("--configfile", config) as rift:
            status, _, body = rift.admin("GET", "/imposters")
            self.assertEqual([i["port"] for i in body["imposters"]], [from_config])
        self.assertEqual(self.ports(), [str(from_config)])
        with self.server() as rift:  # the datadir now holds what the configfile said
            self.assertEqual(answer(from_config), (200, "config"))
            self.assertEqual(rift.admin("GET", f"/imposters/{from_datadir}")[0], 404)

    def test_a_datadir_written_by_mountebank_loads(self):
        port = free_port()
        base = os.path.join(self.data, str(port))
        files = {
            "imposter.json": {"protocol": "http", "port": port, "name": "mb", "stubs": [
                {"meta": {"dir": "stubs/1-1-1"}, "predicates": [{"equals": {"path": "/a"}}]},
                {"meta": {"dir": "stubs/2-1-3"}}]},
            "stubs/1-1-1/meta.json": {"responseFiles": ["responses/1-1-2.json"],
                                      "orderWithRepeats": [0], "nextIndex": 0},
            "stubs/1-1-1/responses/1-1-2.json": {"is": {"body": "from mb"}},
            "stubs/2-1-3/meta.json": {"responseFiles": ["responses/2-1-4.json"],
                                      "orderWithRepeats": [0], "nextIndex": 0},
            "stubs/2-1-3/responses/2-1-4.json": {"is": {"statusCode": 418}},
        }
        for name, content in files.items():
            os.makedirs(os.path.dirname(os.path.join(base, name)), exist_ok=True)
            with open(os.path.join(base, name), "w") as out:
                json.dump(content, out)
        with self.server() as rift:
            self.assertEqual(answer(port, "/a"), (200, "from mb"))
            self.assertEqual(answer(port, "/b")[0], 418)
            status, _, body = rift.admin("POST", f"/imposters/{port}/stubs",
                                         {"index": 0, "stub": stub("rift", "/r")})
            self.assertEqual(status, 200)
        with open(os.path.join(base, "imposter.json")) as saved:
            stubs = json.load(saved)["stubs"]
        self.assertEqual([s["responses"] for s in stubs],
                         [[{"is": {"body": "rift"}}], [{"is": {"body": "from mb"}}],
                          [{"is": {"statusCode": 418}}]])
        with self.server():
            self.assertEqual(answer(port, "/r"), (200, "rift"))
            self.assertEqual(answer(port, "/a"), (200, "from mb"))

    def test_a_change_that_cannot_be_saved_is_answered_500_and_undone(self):
        port, refused = free_port(), free_port()
        with self.server() as rift:
            rift.create({"protocol": "http", "port": port, "stubs": [stub("before")]})
            before = saved_state(rift, port)
            # Obstacles no write gets past, root or not: a folder where the temporary file goes,
            # a file where the new imposter's folder goes.
            blocker = os.path.join(self.data, str(port), "imposter.json.tmp")
            os.mkdir(blocker)
            with open(os.path.join(self.data, str(refused)), "w") as out:
                out.write("in the way")

            status, _, body = rift.admin("POST", f"/imposters/{port}/stubs",
                                         {"index": 0, "stub": stub("after")})
            self.assertEqual(status, 500, body)
            self.assertEqual(body["errors"][0]["code"], "datadir error")
            self.assertIn("imposter.json.tmp", body["errors"][0]["message"])
            self.assertEqual(saved_state(rift, port), before)
            self.assertEqual(answer(port), (200, "before"))

            status, _, body = rift.admin("POST", "/imposters", {"protocol": "http", "port": refused})
            self.assertEqual(status, 500, body)
            self.assertEqual(rift.admin("GET", f"/imposters/{refused}")[0], 404)

            # Once the disk takes writes again, so does the API.
            os.rmdir(blocker)
            os.remove(os.path.join(self.data, str(refused)))
            status, _, body = rift.admin("POST", "/imposters", {"protocol": "http", "port": refused})
            self.assertEqual(status, 201, body)
        with self.server():
            self.assertEqual(answer(port), (200, "before"))
            self.assertEqual(answer(refused), (200, ""))

    def refuses_to_start(self, *extra):
        """Runs `rift start` expecting it to exit 1; returns its output."""
        result = subprocess.run(
            [os.path.abspath(RIFT), "start", "--port", str(free_port()), "--nologfile",
             "--pidfile", os.path.join(self.dir, "rift.pid"), "--datadir", self.data, *extra],
            cwd=self.dir, capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        return result.stdout + result.stderr

    def test_a_corrupt_file_refuses_to_start_and_is_kept(self):
        port = free_port()
        os.makedirs(os.path.join(self.data, str(port)))
        path = os.path.join(self.data, str(port), "imposter.json")
        with open(path, "w") as out:
            out.write('{"protocol": "http", "port": %d, "stubs": [{"respon' % port)
        output = self.refuses_to_start()
        self.assertIn("Corrupted database", output)
        self.assertIn(path, output)
        self.assertTrue(os.path.exists(path))

    def test_an_invalid_imposter_refuses_to_start(self):
        port = free_port()
        os.makedirs(os.path.join(self.data, str(port)))
        with open(os.path.join(self.data, str(port), "imposter.json"), "w") as out:
            json.dump({"protocol": "http", "port": port, "stubs": [{"responses": []}]}, out)
        self.assertIn("'responses' must be a non-empty array", self.refuses_to_start())

    def test_injection_in_the_datadir_needs_allow_injection(self):
        port = free_port()
        os.makedirs(os.path.join(self.data, str(port)))
        with open(os.path.join(self.data, str(port), "imposter.json"), "w") as out:
            json.dump({"protocol": "http", "port": port, "stubs": [
                {"responses": [{"inject": "config => ({ body: 'x' })"}]}]}, out)
        self.assertIn("invalid injection", self.refuses_to_start())

    def test_an_unacknowledged_temporary_file_is_never_loaded(self):
        port, half = free_port(), free_port()
        with self.server() as rift:
            rift.create({"protocol": "http", "port": port, "stubs": [stub("acknowledged")]})
        # What SIGKILL between write and rename leaves: a temporary beside the real file, and a
        # first write's folder holding only its temporary.
        with open(os.path.join(self.data, str(port), "imposter.json.tmp"), "w") as out:
            out.write('{"protocol": "http", "port": %d, "stubs": [{"responses": [{"is": {"bo' % port)
        os.makedirs(os.path.join(self.data, str(half)))
        with open(os.path.join(self.data, str(half), "imposter.json.tmp"), "w") as out:
            json.dump({"protocol": "http", "port": half, "stubs": []}, out)
        with self.server() as rift:
            self.assertEqual(answer(port), (200, "acknowledged"))
            self.assertEqual(rift.admin("GET", f"/imposters/{half}")[0], 404)
        self.assertEqual(sorted(os.listdir(os.path.join(self.data, str(port)))), ["imposter.json"])
        self.assertEqual(self.ports(), [str(port)])


if __name__ == "__main__":
    unittest.main()
