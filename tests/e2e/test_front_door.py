"""The front door over real sockets (docs/front-door.md): one port routing to imposters by host,
path prefix, headers and method, from the config file's `routes` block and from
PUT /front-door/routes at run time; what no route claims may use the gateway's addressing, the
rest is a marked 404; a table the contract refuses stops start-up, or is refused whole by PUT."""
import json
import os
import subprocess
import unittest

from harness import RIFT, Rift, free_port, request

IMPOSTERS = [
    {"protocol": "http", "port": None, "name": "payments", "recordRequests": True,
     "stubs": [{"responses": [{"is": {"body": "payments"}}]}]},
    {"protocol": "http", "port": None, "name": "users", "recordRequests": True,
     "stubs": [{"predicates": [{"equals": {"path": "/users"}}],
                "responses": [{"is": {"body": "users stripped"}}]},
               {"responses": [{"is": {"body": "users"}}]}]},
]


def config(folder, routes):
    ports = [free_port(), free_port()]
    imposters = [dict(i, port=p) for i, p in zip(IMPOSTERS, ports)]
    path = os.path.join(folder, "config.json")
    with open(path, "w") as f:
        json.dump({"imposters": imposters, "routes": routes(*ports)}, f)
    return path, ports


def call(port, path, host=None, method="GET", headers=None):
    sent = dict(headers or {})
    if host:
        sent["Host"] = host
    status, got, body = request(port, method, path, b"", sent)
    return status, {k.lower(): v for k, v in got.items()}, body


class FrontDoorTest(unittest.TestCase):
    def start(self, routes, *args):
        rift = Rift(*args)
        path, ports = config(rift.dir, routes)
        front = free_port()
        rift.args += ["--configfile", path, "--front-door", f"127.0.0.1:{front}"]
        return rift, front, ports

    def test_routes_from_the_config_file(self):
        def routes(payments, users):
            # The reference's form: the block is {"routes": [...]}.
            return {"routes": [
                {"id": "pay", "match": {"host": "payments.test"}, "target": {"port": payments}},
                {"id": "wild", "match": {"host": "*.pay.test"}, "target": {"port": payments}},
                {"id": "users", "match": {"path_prefix": "/api", "method": "get"},
                 "target": {"port": users, "strip_prefix": True, "set_host": "users.internal"}},
                {"id": "tenant", "priority": 5,
                 "match": {"headers": [{"name": "X-Tenant", "value": "acme"}]},
                 "target": {"port": users}},
                {"id": "gone", "match": {"path_prefix": "/gone"}, "target": {"port": 1}}]}
        rift, front, (payments, users) = self.start(routes)
        with rift:
            self.assertEqual(call(front, "/x", "payments.test")[2], b"payments")
            self.assertEqual(call(front, "/x", "PAYMENTS.test:8080")[2], b"payments")
            self.assertEqual(call(front, "/", "a.b.pay.test")[2], b"payments")
            self.assertEqual(call(front, "/api/users?q=1")[2], b"users stripped")
            self.assertEqual(call(front, "/api")[2], b"users")
            self.assertEqual(call(front, "/", "payments.test", headers={"X-Tenant": "acme"})[2],
                             b"users")  # priority 5 wins over the exact host
            for path, host, method, headers in (("/apix", None, "GET", {}),
                                                ("/api/users", None, "POST", {}),
                                                ("/", "pay.test", "GET", {}),
                                                ("/", None, "GET", {"X-Tenant": "ACME"})):
                status, got, body = call(front, path, host, method, headers)
                self.assertEqual((status, got.get("x-rift-front-door")), (404, "no-route"), path)
                self.assertEqual(json.loads(body)["errors"][0]["message"],
                                 f"no route matches {method} {path}")
            # A route whose imposter is gone: a 404 without the marker.
            status, got, body = call(front, "/gone/x")
            self.assertEqual((status, "x-rift-front-door" in got), (404, False))
            self.assertEqual(json.loads(body)["errors"][0]["message"], "no imposter on port 1")
            # The gateway's addressing still works on the front door.
            self.assertEqual(call(front, f"/__rift/{payments}/hey")[2], b"payments")
            # The imposter saw the stripped path and the Host the route set.
            _, _, imposter = rift.admin("GET", f"/imposters/{users}")
            self.assertEqual([(r["path"], r["query"], r["headers"]["Host"])
                              for r in imposter["requests"][:2]],
                             [("/users", {"q": "1"}, "users.internal"),
                              ("/", {}, "users.internal")])

    def test_routes_are_edited_at_run_time(self):
        rift, front, (payments, users) = self.start(lambda p, u: [])
        with rift:
            self.assertEqual(rift.admin("GET", "/front-door/routes")[2], {"routes": []})
            self.assertEqual(call(front, "/a")[0], 404)
            table = {"routes": [{"id": "a", "match": {"path_prefix": "/a"},
                                 "target": {"port": users}}]}
            status, _, body = rift.admin("PUT", "/front-door/routes", table)
            self.assertEqual((status, body), (200, table))
            self.assertEqual(call(front, "/a/b")[2], b"users")
            # A table the contract refuses is refused whole; the old one keeps routing.
            bad = {"routes": [{"id": "b", "target": {"port": payments}},
                              {"id": "b", "target": {"port": users}}]}
            status, _, body = rift.admin("PUT", "/front-door/routes", bad)
            self.assertEqual((status, body["errors"][0]["message"]),
                             (400, "duplicate route id 'b'"))
            self.assertEqual(call(front, "/a/b")[2], b"users")
            self.assertEqual(rift.admin("GET", "/front-door/routes")[2], table)

    def test_reload_reads_the_routes_again(self):
        rift, front, (payments, users) = self.start(
            lambda p, u: [{"id": "a", "match": {"path_prefix": "/a"}, "target": {"port": p}}])
        with rift:
            self.assertEqual(call(front, "/a")[2], b"payments")
            path = [a for a in rift.args if a.endswith("config.json")][0]
            with open(path) as f:
                document = json.load(f)
            document["routes"] = [{"id": "a", "match": {"path_prefix": "/a"},
                                   "target": {"port": users}}]
            with open(path, "w") as f:
                json.dump(document, f)
            self.assertEqual(rift.admin("POST", "/admin/reload")[0], 200)
            self.assertEqual(call(front, "/a")[2], b"users")
            # A refused table fails the reload and changes nothing.
            document["routes"] = [{"id": "", "target": {"port": payments}}]
            with open(path, "w") as f:
                json.dump(document, f)
            status, _, body = rift.admin("POST", "/admin/reload")
            self.assertEqual(status, 500)
            self.assertIn("routes: route id must not be empty", body["errors"][0]["message"])
            self.assertEqual(call(front, "/a")[2], b"users")

    def test_a_refused_table_stops_start_up(self):
        rift = Rift()
        path, _ = config(rift.dir, lambda p, u: [
            {"id": "s", "target": {"port": p, "strip_prefix": True}}])
        started = subprocess.run(
            [os.path.abspath(RIFT), "start", "--port", str(free_port()), "--nologfile",
             "--pidfile", os.path.join(rift.dir, "rift.pid"), "--host", "127.0.0.1",
             "--configfile", path, "--front-door", str(free_port())],
            cwd=rift.dir, capture_output=True, text=True, timeout=30)
        self.assertEqual(started.returncode, 1)
        self.assertIn("routes: route 's' sets strip_prefix but has no path_prefix to strip",
                      started.stdout + started.stderr)


if __name__ == "__main__":
    unittest.main()
