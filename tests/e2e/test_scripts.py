"""`_rift.script` over real sockets (docs/scripts.md): ctx, state in memory and in a real Redis
shared by two servers, the results, failures, the time limit and the --allowInjection gate."""
import json
import socket
import time
import unittest

from harness import Rift, request
from redis_server import RedisServer


def call(port, method, path, body=b"", headers=None):
    """request(), with header names lower-cased."""
    status, found, payload = request(port, method, path, body, headers)
    return status, {k.lower(): v for k, v in found.items()}, payload


def script(code, engine="javascript"):
    return {"_rift": {"script": {"engine": engine, "code": code}}}


def stub(path, code, **extra):
    return {"predicates": [{"equals": {"path": path}}], "responses": [script(code)], **extra}


COUNTER = """function respond(ctx) {
  const n = ctx.state.incr('visits');
  const seen = ctx.state.getOr('first', null);
  if (seen === null) ctx.state.set('first', {flow: ctx.flowId, at: n});
  return http(200, {n: n, first: ctx.state.get('first')}).header('X-Flow', ctx.flowId);
}"""


class ScriptTest(unittest.TestCase):
    def test_ctx_results_and_state_in_memory(self):
        with Rift("--allowInjection") as rift:
            port = rift.create({"protocol": "http", "stubs": [
                stub("/count", COUNTER),
                stub("/echo", "http(201, {m: ctx.request.method, q: ctx.request.query, "
                              "h: ctx.request.header('X-ONE'), j: ctx.request.json, "
                              "s: ctx.stub})",
                     id="echo"),
                stub("/text", "http(404, 'plain').header('Content-Type', 'text/plain')"),
                stub("/cas", "function respond(ctx) { const a = ctx.state.cas('k', null, 1);"
                             " const b = ctx.state.cas('k', null, 2);"
                             " return http(200, [a, b]); }"),
                stub("/other", "ctx.store.flow('elsewhere').set('x', 5); "
                               "http(200, String(ctx.state.get('x')))"),
                stub("/pass", "pass()"),
                stub("/delay", "delay(150)"),
                stub("/reset", "reset()"),
            ]})["port"]
            status, headers, body = call(port, "GET", "/count")
            self.assertEqual((status, json.loads(body)),
                             (200, {"n": 1, "first": {"flow": str(port), "at": 1}}))
            self.assertEqual(headers["x-flow"], str(port))
            self.assertEqual(headers["content-type"], "application/json")
            self.assertEqual(headers["x-rift-script"], "javascript")
            _, _, body = call(port, "GET", "/count")
            self.assertEqual(json.loads(body)["n"], 2)
            # The admin API reads what the script wrote.
            _, _, stored = rift.admin("GET", f"/admin/imposters/{port}/flow-state/{port}/visits")
            self.assertEqual(stored["value"], 2)

            status, _, body = call(port, "POST", "/echo?a=1&a=2&p=x+y", b'{"k": [1]}',
                                      {"X-One": "v"})
            self.assertEqual((status, json.loads(body)), (201, {
                "m": "POST", "q": {"a": "1,2", "p": "x+y"}, "h": "v", "j": {"k": [1]},
                "s": {"id": "echo", "scenarioName": None, "scenarioState": None}}))
            status, headers, body = call(port, "GET", "/text")
            self.assertEqual((status, body, headers["content-type"]), (404, b"plain", "text/plain"))
            _, _, body = call(port, "GET", "/cas")
            self.assertEqual(json.loads(body), [{"applied": True, "current": None},
                                                {"applied": False, "current": 1}])
            _, _, body = call(port, "GET", "/other")
            self.assertEqual(body, b"null")
            _, _, stored = rift.admin("GET", f"/admin/imposters/{port}/flow-state/elsewhere/x")
            self.assertEqual(stored["value"], 5)
            self.assertEqual(call(port, "GET", "/pass")[:3:2], (200, b""))
            started = time.monotonic()
            status, headers, _ = call(port, "GET", "/delay")
            self.assertGreaterEqual(time.monotonic() - started, 0.15)
            self.assertEqual((status, headers["x-rift-latency-ms"]), (200, "150"))
            with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                sock.sendall(b"GET /reset HTTP/1.1\r\nHost: x\r\n\r\n")
                with self.assertRaises(ConnectionResetError):
                    if sock.recv(100) == b"":
                        raise ConnectionResetError  # a reset may read as an empty close
            # Each run has its own scope: one script's `respond` is not another's.
            self.assertEqual(call(port, "GET", "/pass")[0], 200)

    def test_failures_and_the_time_limit(self):
        with Rift("--allowInjection") as rift:
            port = rift.create({"protocol": "http", "_rift": {"scriptEngine": {"timeoutMs": 200}},
                                "stubs": [
                stub("/throw", "function respond(ctx) { throw new Error('boom'); }"),
                stub("/type", "ctx.state.get(5)"),
                stub("/loop", "while (true) {}"),
                stub("/value", "42"),
                stub("/tampered", "const r = http(200); r.status = 'x'; r.headers = [[1, 2]]; r"),
                stub("/forged", "__riftState('{\"op\": 5}')"),
                stub("/after", "http(200, 'still serving')"),
            ]})["port"]
            status, headers, body = call(port, "GET", "/throw")
            self.assertEqual((status, headers["x-rift-script-error"]), (500, "true"))
            self.assertEqual(json.loads(body)["errors"][0]["message"],
                             "Script error: Failed to call respond(ctx): Error: boom")
            _, _, body = call(port, "GET", "/type")
            self.assertEqual(json.loads(body)["errors"][0]["message"],
                             "Script error: Failed to execute script: TypeError: key must be a string")
            started = time.monotonic()
            status, headers, body = call(port, "GET", "/loop")
            self.assertLess(time.monotonic() - started, 3)
            self.assertEqual((status, headers["x-rift-script-timeout"]), (504, "true"))
            self.assertEqual(json.loads(body)["errors"][0]["message"],
                             "Script timeout: _rift.script timed out after 200ms")
            _, _, body = call(port, "GET", "/value")
            self.assertIn("must return http(...)", json.loads(body)["errors"][0]["message"])
            # A result or a state call a script forged is its error, never a crash.
            status, _, body = call(port, "GET", "/tampered")
            self.assertEqual((status, json.loads(body)["errors"][0]["message"]),
                             (500, "Response build error"))
            status, _, body = call(port, "GET", "/forged")  # a string back, not a crash
            self.assertEqual(status, 500)
            self.assertIn("must return http(...)", json.loads(body)["errors"][0]["message"])
            # The engine is free again after a script it stopped.
            self.assertEqual(call(port, "GET", "/after")[::2], (200, b"still serving"))

            # A syntax error is refused when the stub is added, and nothing changes.
            status, _, body = rift.admin("POST", f"/imposters/{port}/stubs",
                                         {"stub": {"responses": [script("function (")]}})
            self.assertEqual(status, 400)
            self.assertIn("SyntaxError", body["errors"][0]["message"])
            _, _, stubs = rift.admin("GET", f"/imposters/{port}/stubs")
            self.assertEqual(len(stubs["stubs"]), 7)

    def test_the_gate(self):
        with Rift() as rift:
            status, _, body = rift.admin("POST", "/imposters", {
                "protocol": "http", "stubs": [{"responses": [
                    {"is": {}, "_rift": {"script": {"engine": "js", "code": "pass()"}}}]}]})
            self.assertEqual((status, body["errors"][0]["code"]), (400, "invalid injection"))
            status, _, _ = rift.admin("GET", "/imposters")
            self.assertEqual(status, 200)

    def test_two_servers_share_script_state_through_redis(self):
        with RedisServer() as redis, Rift("--allowInjection") as first, \
                Rift("--allowInjection") as second:
            imposter = {"protocol": "http", "stubs": [stub("/count", COUNTER)],
                        "_rift": {"flowState": {"backend": "redis",
                                                "redis": {"url": redis.url,
                                                          "keyPrefix": "scripts:"}}}}
            a = first.create(imposter)["port"]
            b = second.create({**imposter, "_rift": {"flowState": {
                **imposter["_rift"]["flowState"], "flowIdSource": "header:X-Flow"}}})["port"]
            # The first server's flow id is its port: the second reads that flow by header.
            self.assertEqual(json.loads(call(a, "GET", "/count")[2])["n"], 1)
            body = json.loads(call(b, "GET", "/count", headers={"X-Flow": str(a)})[2])
            self.assertEqual(body, {"n": 2, "first": {"flow": str(a), "at": 1}})
            redis.stop()
            status, headers, body = call(a, "GET", "/count")
            self.assertEqual((status, headers["x-rift-script-error"]), (500, "true"))
            self.assertIn("backend unavailable", json.loads(body)["errors"][0]["message"])
            redis.start()
            for _ in range(50):  # the store stays quiet for a second after an outage
                status, _, body = call(a, "GET", "/count")
                if status == 200:
                    break
                time.sleep(0.1)
            self.assertEqual(status, 200)


if __name__ == "__main__":
    unittest.main()
