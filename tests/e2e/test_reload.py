"""Reconciling over real sockets (docs/reload.md): PUT /imposters and POST /admin/reload apply
the least change each imposter needs, so an unchanged imposter keeps its journal, response
cycles and scenario states, a stub edit keeps the cycles of the stubs it did not touch, and a
refused set or source changes nothing."""
import json
import os
import shutil
import tempfile
import unittest

from harness import Rift, free_port, request


def stub(path, bodies, **extra):
    out = {"predicates": [{"equals": {"path": path}}],
           "responses": [{"is": {"body": b}} for b in bodies]}
    out.update(extra)
    return out


def imposters(port, other, first_bodies=("one", "two", "three"), record=True, extra_stub=None):
    stubs = [stub("/cycle", list(first_bodies)),
             stub("/s", ["s1"], scenarioName="flow", requiredScenarioState="Started",
                  newScenarioState="Next"),
             stub("/s", ["s2"], scenarioName="flow", requiredScenarioState="Next")]
    if extra_stub:
        stubs.append(extra_stub)
    return [{"protocol": "http", "port": port, "recordRequests": record, "stubs": stubs},
            {"protocol": "http", "port": other, "stubs": [stub("/", ["other"])]}]


def body(port, path):
    return request(port, "GET", path)[2].decode()


class PutImpostersTest(unittest.TestCase):
    def test_an_unchanged_imposter_keeps_its_state(self):
        port, other = free_port(), free_port()
        with Rift() as rift:
            self.assertEqual(rift.admin("PUT", "/imposters",
                                        {"imposters": imposters(port, other)})[0], 200)
            self.assertEqual((body(port, "/cycle"), body(port, "/s")), ("one", "s1"))
            status, _, answer = rift.admin("PUT", "/imposters",
                                           {"imposters": imposters(port, other)})
            self.assertEqual(status, 200)
            self.assertEqual(sorted(i["port"] for i in answer["imposters"]), sorted([port, other]))
            # Journal, cycle and scenario state all went on.
            self.assertEqual((body(port, "/cycle"), body(port, "/s")), ("two", "s2"))
            shown = rift.admin("GET", f"/imposters/{port}")[2]
            self.assertEqual(shown["numberOfRequests"], 4)

            # A stub added: the others keep their cycles.
            rift.admin("PUT", "/imposters", {"imposters": imposters(
                port, other, extra_stub=stub("/new", ["new"]))})
            self.assertEqual((body(port, "/cycle"), body(port, "/new")), ("three", "new"))
            self.assertEqual(rift.admin("GET", f"/imposters/{port}")[2]["numberOfRequests"], 6)

            # A setting changed: the imposter starts afresh; one left out is deleted.
            rift.admin("PUT", "/imposters",
                       {"imposters": imposters(port, other, record=False)[:1]})
            self.assertEqual(body(port, "/cycle"), "one")
            self.assertEqual(rift.admin("GET", f"/imposters/{port}")[2]["numberOfRequests"], 1)
            self.assertEqual(rift.admin("GET", f"/imposters/{other}")[0], 404)

    def test_a_refused_set_changes_nothing(self):
        port, other = free_port(), free_port()
        with Rift() as rift:
            rift.admin("PUT", "/imposters", {"imposters": imposters(port, other)})
            body(port, "/cycle")
            bad = imposters(port, other)
            bad[1]["stubs"][0]["responses"] = []
            status, _, answer = rift.admin("PUT", "/imposters", {"imposters": bad})
            self.assertEqual(status, 400)
            self.assertEqual(body(port, "/cycle"), "two")
            self.assertEqual(body(other, "/"), "other")
            # Two imposters on one port, two stubs with one id: refused whole.
            twice = imposters(port, other)
            twice[1]["port"] = port
            status, _, answer = rift.admin("PUT", "/imposters", {"imposters": twice})
            self.assertEqual((status, answer["errors"][0]["message"]),
                             (400, f"Port {port} is already in use: the set has two imposters on it"))
            same_id = imposters(port, other)
            same_id[0]["stubs"][0]["id"] = same_id[0]["stubs"][1]["id"] = "x"
            status, _, answer = rift.admin("PUT", "/imposters", {"imposters": same_id})
            self.assertEqual((status, answer["errors"][0]["code"]), (409, "resource conflict"))
            self.assertEqual(body(port, "/cycle"), "three")
            self.assertEqual(body(other, "/"), "other")


class ReloadTest(unittest.TestCase):
    def test_without_a_source_there_is_nothing_to_reload(self):
        with Rift() as rift:
            status, _, answer = rift.admin("POST", "/admin/reload")
            self.assertEqual((status, answer),
                             (200, {"message": "No config source configured; nothing to reload"}))

    def test_a_config_file_is_read_again(self):
        folder = tempfile.mkdtemp(prefix="rift-reload-")
        try:
            port, other, third = free_port(), free_port(), free_port()
            config = os.path.join(folder, "imposters.json")
            with open(config, "w") as f:
                json.dump({"imposters": imposters(port, other)}, f)
            with Rift("--configfile", config) as rift:
                self.assertEqual(body(port, "/cycle"), "one")
                wanted = imposters(port, other, extra_stub=stub("/new", ["new"]))[:1]
                wanted.append({"protocol": "http", "port": third,
                               "stubs": [stub("/", ["third"])]})
                with open(config, "w") as f:
                    json.dump({"imposters": wanted}, f)
                status, _, answer = rift.admin("POST", "/admin/reload")
                self.assertEqual((status, answer), (200, {
                    "message": "Reloaded 2 imposter(s)", "created": [third], "replaced": [],
                    "stubPatched": [port], "deleted": [other]}))
                self.assertEqual((body(port, "/cycle"), body(third, "/")), ("two", "third"))

                with open(config, "w") as f:
                    f.write("{not json")
                status, _, answer = rift.admin("POST", "/admin/reload")
                self.assertEqual(status, 500)
                self.assertTrue(answer["errors"][0]["message"].startswith(
                    "Reload failed (imposters unchanged): "))
                self.assertEqual((body(port, "/cycle"), body(third, "/")), ("three", "third"))

                with open(config, "w") as f:
                    json.dump({"imposters": wanted}, f)
                status, _, answer = rift.admin("POST", "/admin/reload")
                self.assertEqual((status, answer["created"], answer["stubPatched"]),
                                 (200, [], []))
        finally:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
