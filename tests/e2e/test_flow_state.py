"""Flow state over real sockets (docs/flow-state.md): the admin routes on the in-memory store,
lifetimes, bad configurations refused with nothing stored changed, and a real redis-server shared
by two rift processes, stopped mid-test (503 `backend unavailable`) and started again (recovery)."""
import json
import time
import unittest

from harness import Rift
from redis_server import RedisServer


def flow_path(port, flow, key=None):
    path = f"/admin/imposters/{port}/flow-state/{flow}"
    return path if key is None else f"{path}/{key}"


def redis_imposter(url, ttl=300):
    return {"protocol": "http",
            "_rift": {"flowState": {"backend": "redis", "ttlSeconds": ttl,
                                    "redis": {"url": url, "poolSize": 2, "keyPrefix": "e2e:"}}}}


class InMemoryFlowStateTest(unittest.TestCase):
    def test_put_get_delete_and_clear(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http"})["port"]
            status, _, body = rift.admin("PUT", flow_path(port, "checkout-1", "cart"),
                                         {"value": {"z": 1, "a": [1, 2]}})
            self.assertEqual((status, body),
                             (200, {"flowId": "checkout-1", "key": "cart",
                                    "value": {"a": [1, 2], "z": 1}}))
            status, _, body = rift.admin("GET", flow_path(port, "checkout-1", "cart"))
            self.assertEqual((status, body["value"]), (200, {"a": [1, 2], "z": 1}))
            rift.admin("PUT", flow_path(port, "checkout-1", "count"), {"value": 3})
            rift.admin("PUT", flow_path(port, "checkout-2", "cart"), {"value": None})
            # null is a value, not an absence
            status, _, body = rift.admin("GET", flow_path(port, "checkout-2", "cart"))
            self.assertEqual((status, body["value"]), (200, None))

            status, _, body = rift.admin("DELETE", flow_path(port, "checkout-1", "count"))
            self.assertEqual((status, body),
                             (200, {"deleted": True, "flowId": "checkout-1", "key": "count"}))
            status, _, body = rift.admin("GET", flow_path(port, "checkout-1", "count"))
            self.assertEqual(status, 404)
            self.assertEqual(body["errors"][0]["message"], "flow-state key not found")

            status, _, body = rift.admin("DELETE", flow_path(port, "checkout-1"))
            self.assertEqual((status, body), (200, {"cleared": True, "flowId": "checkout-1"}))
            self.assertEqual(rift.admin("DELETE", flow_path(port, "checkout-1"))[0], 200)
            self.assertEqual(rift.admin("GET", flow_path(port, "checkout-1", "cart"))[0], 404)
            self.assertEqual(rift.admin("GET", flow_path(port, "checkout-2", "cart"))[0], 200)

    def test_ids_are_percent_decoded(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http"})["port"]
            rift.admin("PUT", flow_path(port, "team%20a", "k%2Fy"), {"value": 1})
            status, _, body = rift.admin("GET", flow_path(port, "team%20a", "k%2Fy"))
            self.assertEqual(body, {"flowId": "team a", "key": "k/y", "value": 1})

    def test_values_outlive_stub_edits_and_belong_to_their_imposter(self):
        with Rift() as rift:
            one = rift.create({"protocol": "http"})["port"]
            two = rift.create({"protocol": "http"})["port"]
            rift.admin("PUT", flow_path(one, "f", "k"), {"value": "one"})
            rift.admin("PUT", f"/imposters/{one}/stubs",
                       {"stubs": [{"responses": [{"is": {"body": "x"}}]}]})
            self.assertEqual(rift.admin("GET", flow_path(one, "f", "k"))[2]["value"], "one")
            self.assertEqual(rift.admin("GET", flow_path(two, "f", "k"))[0], 404)

    def test_bad_requests(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http"})["port"]
            rift.admin("PUT", flow_path(port, "f", "k"), {"value": "kept"})
            for body in ({"val": 1}, [1, 2], '"text"'):
                status, _, answer = rift.admin("PUT", flow_path(port, "f", "k"), body)
                self.assertEqual(status, 400, body)
                self.assertEqual(answer["errors"][0]["message"], "missing required field: value")
            status, _, answer = rift.admin("PUT", flow_path(port, "f", "k"), "{not json")
            self.assertEqual(status, 400)
            status, _, answer = rift.admin("GET", flow_path(port, "f", "%zz"))
            self.assertEqual((status, answer["errors"][0]["code"]), (400, "bad data"))
            status, _, answer = rift.admin("GET", flow_path(port, "%ff", "k"))
            self.assertEqual(status, 400)
            # the admin port is no imposter
            self.assertEqual(rift.admin("GET", flow_path(rift.port, "f", "k"))[0], 404)
            self.assertEqual(rift.admin("GET", flow_path(port, "f", "k"))[2]["value"], "kept")

    def test_every_write_restamps_and_old_values_expire(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http",
                                "_rift": {"flowState": {"ttlSeconds": 3}}})["port"]
            rift.admin("PUT", flow_path(port, "f", "old"), {"value": 1})
            rift.admin("PUT", flow_path(port, "f", "fresh"), {"value": 1})
            time.sleep(2)
            rift.admin("PUT", flow_path(port, "f", "fresh"), {"value": 2})
            time.sleep(1.5)
            self.assertEqual(rift.admin("GET", flow_path(port, "f", "old"))[0], 404)
            self.assertEqual(rift.admin("GET", flow_path(port, "f", "fresh"))[2]["value"], 2)


class FlowStoreConfigurationTest(unittest.TestCase):
    def refused(self, rift, flow_state):
        status, _, body = rift.admin("POST", "/imposters",
                                     {"protocol": "http", "_rift": {"flowState": flow_state}})
        self.assertEqual(status, 400, flow_state)
        self.assertEqual(body["errors"][0]["code"], "bad data")
        return body["errors"][0]["message"]

    def test_misconfigurations_are_400_and_change_nothing(self):
        with Rift() as rift:
            kept = rift.create({"protocol": "http"})["port"]
            self.assertIn("no such backend exists",
                          self.refused(rift, {"backend": "memcached"}))
            self.assertIn("ttlSeconds must be >= 1", self.refused(rift, {"ttlSeconds": 0}))
            self.assertIn("no redis config block", self.refused(rift, {"backend": "redis"}))
            self.assertIn("redis:// scheme", self.refused(
                rift, {"backend": "redis", "redis": {"url": "http://127.0.0.1:6379"}}))
            self.assertIn("poolSize", self.refused(
                rift, {"backend": "redis", "redis": {"url": "redis://127.0.0.1", "poolSize": 0}}))
            # Nothing listens on port 1: refused at creation, not at the first request.
            self.assertIn("cannot reach Redis at 127.0.0.1:1", self.refused(
                rift, {"backend": "redis", "redis": {"url": "redis://127.0.0.1:1"}}))
            status, _, body = rift.admin("GET", "/imposters")
            self.assertEqual([i["port"] for i in body["imposters"]], [kept])


class RedisFlowStateTest(unittest.TestCase):
    def test_two_replicas_share_state_and_an_outage_is_503_then_recovers(self):
        with RedisServer() as redis, Rift() as first, Rift() as second:
            config = redis_imposter(redis.url)
            one = first.create(config)["port"]
            two = second.create(config)["port"]
            first.admin("PUT", flow_path(one, "shared-flow", "step"), {"value": "paid"})
            status, _, body = second.admin("GET", flow_path(two, "shared-flow", "step"))
            self.assertEqual((status, body["value"]), (200, "paid"))

            redis.stop()
            for rift, port in ((first, one), (second, two)):
                for method, path, payload in (
                        ("GET", flow_path(port, "shared-flow", "step"), None),
                        ("PUT", flow_path(port, "shared-flow", "step"), {"value": 1}),
                        ("DELETE", flow_path(port, "shared-flow", "step"), None),
                        ("DELETE", flow_path(port, "shared-flow"), None)):
                    status, headers, body = rift.admin(method, path, payload)
                    self.assertEqual(status, 503, (method, path, body))
                    self.assertEqual(body["error"], "backendUnavailable")
                    self.assertEqual(body["feature"], "flowState")
                    self.assertEqual(body["errors"][0]["type"], "backend unavailable")
                    self.assertEqual(body["errors"][0]["code"], "503")
                    self.assertTrue(body["errors"][0]["message"].startswith("flowState: "))

            redis.start()  # same port, empty: it saved nothing
            self.assertEqual(first.admin("GET", flow_path(one, "shared-flow", "step"))[0], 404)
            first.admin("PUT", flow_path(one, "shared-flow", "step"), {"value": "again"})
            self.assertEqual(second.admin("GET", flow_path(two, "shared-flow", "step"))[2]["value"],
                             "again")

    def test_a_password_is_used_and_shown_only_in_the_replayable_export(self):
        with RedisServer(password="s3cret") as redis, Rift() as rift:
            url = f"redis://:s3cret@127.0.0.1:{redis.port}/1"
            port = rift.create(redis_imposter(url))["port"]
            rift.admin("PUT", flow_path(port, "f", "k"), {"value": 1})
            self.assertEqual(rift.admin("GET", flow_path(port, "f", "k"))[2]["value"], 1)
            shown = rift.admin("GET", f"/imposters/{port}")[2]["_rift"]["flowState"]["redis"]
            self.assertEqual(shown["url"], f"redis://:****@127.0.0.1:{redis.port}/1")
            exported = rift.admin("GET", f"/imposters/{port}?replayable=true")[2]
            self.assertEqual(exported["_rift"]["flowState"]["redis"]["url"], url)
            status, _, body = rift.admin("POST", "/imposters", redis_imposter(
                f"redis://:wrong@127.0.0.1:{redis.port}"))
            self.assertEqual(status, 400)
            self.assertIn("refused AUTH", body["errors"][0]["message"])


if __name__ == "__main__":
    unittest.main()
