"""Scenarios over real sockets (docs/scenarios.md): stubs gated on a flow's scenario state and
moving it, in the interpreter, the JIT and a frozen mock; per-flow timelines; the scenario
routes; concurrent requests; a state that is not a string; and two replicas advancing one
scenario through a real Redis, stopped mid-test (503) and started again."""
import json
import threading
import unittest

from every_tier import EveryTier
from harness import Rift, request
from redis_server import RedisServer


def stub(body, path, required=None, new=None, scenario="checkout"):
    out = {"predicates": [{"equals": {"path": path}}], "responses": [{"is": {"body": body}}]}
    if required is not None or new is not None:
        out["scenarioName"] = scenario
    if required is not None:
        out["requiredScenarioState"] = required
    if new is not None:
        out["newScenarioState"] = new
    return out


STUBS = [stub("s1", "/a", "Started", "Two"),
         stub("s2", "/a", "Two", "Three"),
         stub("s3b", "/b", "Three"),
         stub("fallback", "/a"),
         stub("paid", "/pay", "paid"),  # states compare exactly: "Paid" is not "paid"
         stub("plain", "/plain")]


def imposter(port=None, flow_state=None):
    config = {"protocol": "http", "stubs": STUBS}
    if flow_state is not None:
        config["_rift"] = {"flowState": flow_state}
    if port:
        config["port"] = port
    return config


def body_of(port, path, flow=None):
    status, _, body = request(port, "GET", path, b"", {"X-Flow": flow} if flow else {})
    return status, body.decode()


class ScenarioServeTest(EveryTier, unittest.TestCase):
    """The same timeline from every tier."""

    def imposter(self, port):
        return imposter(port)

    def check(self, port):
        self.assertEqual([body_of(port, p)[1] for p in ("/a", "/a", "/a", "/b", "/plain")],
                         ["s1", "s2", "fallback", "s3b", "plain"])


class ScenarioRoutesTest(unittest.TestCase):
    def setUp(self):
        self.rift = Rift().__enter__()
        self.port = self.rift.create(
            imposter(flow_state={"flowIdSource": "header:X-Flow"}))["port"]

    def tearDown(self):
        self.rift.__exit__(None, None, None)

    def admin(self, method, path, body=None):
        return self.rift.admin(method, f"/imposters/{self.port}{path}", body)

    def test_each_flow_has_its_own_timeline(self):
        self.assertEqual(body_of(self.port, "/a", "alpha")[1], "s1")
        self.assertEqual(body_of(self.port, "/a", "alpha")[1], "s2")
        self.assertEqual(body_of(self.port, "/a", "beta")[1], "s1")
        self.assertEqual(body_of(self.port, "/b", "alpha")[1], "s3b")
        self.assertEqual(body_of(self.port, "/b", "beta")[1], "")  # no match: beta is in Two
        status, _, body = self.admin("GET", "/scenarios?flowId=alpha")
        self.assertEqual((status, body), (200, {"flowId": "alpha", "scenarios": [
            {"name": "checkout", "state": "Three"}]}))
        body = self.admin("GET", "/scenarios")[2]  # the port's flow: untouched
        self.assertEqual(body, {"flowId": str(self.port), "scenarios": [
            {"name": "checkout", "state": "Started"}]})
        # A space's view has its flow's scenario states.
        body = self.admin("GET", "/spaces/beta")[2]
        self.assertEqual(body["scenarios"], [{"name": "checkout", "state": "Two"}])

    def test_set_and_reset(self):
        status, _, body = self.admin("PUT", "/scenarios/checkout/state",
                                     {"state": "Three", "flowId": "gamma"})
        self.assertEqual((status, body),
                         (200, {"flowId": "gamma", "name": "checkout", "state": "Three"}))
        self.assertEqual(body_of(self.port, "/b", "gamma")[1], "s3b")
        self.assertEqual(body_of(self.port, "/a", "gamma")[1], "fallback")
        self.admin("PUT", "/scenarios/checkout/state", {"state": "Paid", "flowId": "gamma"})
        self.assertEqual(body_of(self.port, "/pay", "gamma")[1], "")  # exact: Paid is not paid
        self.admin("PUT", "/scenarios/checkout/state", {"state": "paid", "flowId": "gamma"})
        self.assertEqual(body_of(self.port, "/pay", "gamma")[1], "paid")
        status, _, body = self.admin("POST", "/scenarios/reset", {"flowId": "gamma"})
        self.assertEqual((status, body), (200, {"flowId": "gamma", "reset": True}))
        self.assertEqual(body_of(self.port, "/a", "gamma")[1], "s1")
        # The default flow: the port's.
        self.admin("PUT", "/scenarios/checkout/state", {"state": "Two"})
        self.assertEqual(body_of(self.port, "/a")[1], "s2")
        self.assertEqual(self.admin("POST", "/scenarios/reset")[2],
                         {"flowId": str(self.port), "reset": True})
        self.assertEqual(body_of(self.port, "/a")[1], "s1")

    def test_bad_requests_change_nothing(self):
        self.admin("PUT", "/scenarios/checkout/state", {"state": "Two", "flowId": "f"})
        for body in ({}, {"state": 5}, {"flowId": "f"}):
            status, _, answer = self.admin("PUT", "/scenarios/checkout/state", body)
            self.assertEqual(status, 400, body)
            self.assertEqual(answer["errors"][0]["message"], "missing required field: state")
        self.assertEqual(self.admin("PUT", "/scenarios/checkout/state", "{nope")[0], 400)
        self.assertEqual(self.rift.admin("GET", f"/imposters/{self.rift.port}/scenarios")[0], 404)
        self.assertEqual(self.admin("GET", "/scenarios?flowId=f")[2]["scenarios"][0]["state"], "Two")

    def test_a_state_that_is_not_a_string_is_a_500_not_a_guess(self):
        self.rift.admin("PUT", f"/admin/imposters/{self.port}/flow-state/bad/checkout",
                        {"value": 5})
        status, headers, body = request(self.port, "GET", "/a", b"", {"X-Flow": "bad"})
        self.assertEqual(status, 500)
        error = json.loads(body)
        self.assertEqual(error["error"], "internalError")
        self.assertEqual(error["errors"][0]["message"],
                         "scenario state for bad/checkout is not a string: 5")
        self.assertEqual(body_of(self.port, "/plain", "bad"), (200, "plain"))  # no gate read
        self.assertEqual(self.admin("GET", "/scenarios?flowId=bad")[0], 500)

    def test_stub_fields_are_checked_and_echoed(self):
        status, _, body = self.admin("POST", "/stubs", {"stub": {
            "scenarioName": 5, "responses": [{"is": {}}]}})
        self.assertEqual(status, 400)
        self.assertEqual(body["errors"][0]["message"], "'scenarioName' must be a string")
        echoed = self.admin("GET", "")[2]["stubs"][0]
        self.assertEqual((echoed["scenarioName"], echoed["requiredScenarioState"],
                          echoed["newScenarioState"]), ("checkout", "Started", "Two"))

    def test_concurrent_requests_never_advance_one_state_twice(self):
        # Every request that reads Started answers s1 (as in the reference), but only one of
        # them moves the flow on: the flow ends in Two, never in Three.
        port = self.rift.create({"protocol": "http", "stubs": [
            stub("s1", "/a", "Started", "Two"),
            stub("s2", "/never", "Two", "Three")]})["port"]
        answers = []
        lock = threading.Lock()

        def call():
            result = body_of(port, "/a")
            with lock:
                answers.append(result)

        threads = [threading.Thread(target=call) for _ in range(24)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(len(answers), 24)
        self.assertIn((200, "s1"), answers)
        self.assertTrue(all(a in ((200, "s1"), (200, "")) for a in answers), answers)
        body = self.rift.admin("GET", f"/imposters/{port}/scenarios")[2]
        self.assertEqual(body["scenarios"], [{"name": "checkout", "state": "Two"}])


class ScenarioReplicasTest(unittest.TestCase):
    def test_two_replicas_advance_one_scenario_and_a_redis_outage_is_503(self):
        with RedisServer() as redis, Rift() as first, Rift() as second:
            flow_state = {"backend": "redis", "flowIdSource": "header:X-Flow",
                          "redis": {"url": redis.url, "keyPrefix": "replicas:"}}
            one = first.create(imposter(flow_state=flow_state))["port"]
            two = second.create(imposter(flow_state=flow_state))["port"]
            self.assertEqual(body_of(one, "/a", "order-1")[1], "s1")
            self.assertEqual(body_of(two, "/a", "order-1")[1], "s2")  # the other replica
            self.assertEqual(body_of(one, "/b", "order-1")[1], "s3b")
            body = second.admin("GET", f"/imposters/{two}/scenarios?flowId=order-1")[2]
            self.assertEqual(body["scenarios"], [{"name": "checkout", "state": "Three"}])

            redis.stop()
            for port in (one, two):
                status, _, body = request(port, "GET", "/a", b"", {"X-Flow": "order-1"})
                self.assertEqual(status, 503)
                error = json.loads(body)
                self.assertEqual((error["error"], error["feature"]),
                                 ("backendUnavailable", "flowState"))
                self.assertEqual(error["errors"][0]["type"], "backend unavailable")
                # A request that reaches no gate does not need the store.
                self.assertEqual(body_of(port, "/plain", "order-1"), (200, "plain"))
            self.assertEqual(first.admin("GET", f"/imposters/{one}/scenarios")[0], 503)

            redis.start()  # empty again: the flow starts over, on both replicas
            self.assertEqual(body_of(two, "/a", "order-1")[1], "s1")
            self.assertEqual(body_of(one, "/a", "order-1")[1], "s2")


if __name__ == "__main__":
    unittest.main()
