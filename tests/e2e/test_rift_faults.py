"""`_rift.fault` over real sockets (docs/faults.md#probabilistic-faults): seeded probabilities
that repeat run after run, a real RST, a latency served by a timer while the same worker answers
other requests, latency before a drop, and the lenient waits (`delayRange`, `wait: {min, max}`)."""
import socket
import threading
import time
import unittest

from harness import Rift, raw, request


def faulty(path, fault, body="ok"):
    return {"predicates": [{"equals": {"path": path}}],
            "responses": [{"is": {"body": body}, "_rift": {"fault": fault}}]}


def outcomes(port, path, count):
    """What `count` requests in a row get: 'error', 'ok', or 'reset'."""
    seen = []
    for _ in range(count):
        got = raw(port, f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        if got in (b"", b"<RST>"):
            seen.append("reset")
        elif got.startswith(b"HTTP/1.1 503"):
            seen.append("error")
        else:
            seen.append("ok")
    return seen


HALF = {"error": {"probability": 0.5}, "tcp": {"probability": 0.2, "type": "reset"}}


class RiftFaultTest(unittest.TestCase):
    def test_a_seed_repeats_the_same_sequence(self):
        runs = []
        for args in (("--seed", "42"), ("--seed", "42"), ("--seed", "43")):
            with Rift(*args) as rift:
                port = rift.create({"protocol": "http", "stubs": [faulty("/f", HALF)]})["port"]
                runs.append(outcomes(port, "/f", 40))
        self.assertEqual(runs[0], runs[1])
        self.assertNotEqual(runs[0], runs[2])
        # Each kind shows up: the probabilities are rolled, not fixed.
        self.assertEqual(set(runs[0]), {"error", "ok", "reset"})

    def test_the_imposter_seed_wins_over_the_command_line(self):
        runs = []
        for args in (("--seed", "1"), ("--seed", "2")):
            with Rift(*args) as rift:
                port = rift.create({"protocol": "http", "_rift": {"seed": 7},
                                    "stubs": [faulty("/f", HALF)]})["port"]
                runs.append(outcomes(port, "/f", 30))
        self.assertEqual(runs[0], runs[1])

    def test_tcp_reset_is_a_real_rst(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "stubs": [
                faulty("/r", {"tcp": "CONNECTION_RESET_BY_PEER"})]})["port"]
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                s.sendall(b"GET /r HTTP/1.1\r\nHost: x\r\n\r\n")
                with self.assertRaises(ConnectionResetError):
                    while s.recv(1024):
                        pass

    def test_latency_uses_a_timer_not_the_worker(self):
        with Rift("--threads", "1") as rift:
            port = rift.create({"protocol": "http", "stubs": [
                faulty("/slow", {"latency": {"ms": 1500}}, body="slow"),
                {"responses": [{"is": {"body": "fast"}}]}]})["port"]
            slow = {}

            def call_slow():
                slow["answer"] = request(port, "GET", "/slow")

            worker = threading.Thread(target=call_slow)
            started = time.monotonic()
            worker.start()
            time.sleep(0.2)
            status, _, body = request(port, "GET", "/fast")
            fast_at = time.monotonic() - started
            worker.join()
            slow_at = time.monotonic() - started
            self.assertEqual((status, body), (200, b"fast"))
            # The one worker answered /fast while /slow waited on its timer.
            self.assertLess(fast_at, 1.2)
            self.assertGreaterEqual(slow_at, 1.5)
            status, headers, body = slow["answer"]
            self.assertEqual((status, body), (200, b"slow"))
            lower = {k.lower(): v for k, v in headers.items()}
            self.assertEqual(lower["x-rift-fault"], "latency")
            self.assertEqual(lower["x-rift-latency-ms"], "1500")
            self.assertEqual(lower["x-rift-imposter"], "true")

    def test_latency_then_reset(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "stubs": [
                faulty("/lr", {"latency": {"ms": 400}, "tcp": "reset"})]})["port"]
            started = time.monotonic()
            got = raw(port, b"GET /lr HTTP/1.1\r\nHost: x\r\n\r\n")
            self.assertIn(got, (b"", b"<RST>"))
            self.assertGreaterEqual(time.monotonic() - started, 0.4)

    def test_bad_shapes_are_refused_at_creation(self):
        with Rift() as rift:
            for fault, field in (({"latency": {"probability": 2, "ms": 1}},
                                  "_rift.fault.latency.probability"),
                                 ({"error": {"status": 1000}}, "_rift.fault.error.status"),
                                 ({"tcp": "NOPE"}, "_rift.fault.tcp"),
                                 ({"tcp": {"type": "reset"}}, "_rift.fault.tcp.probability"),
                                 ({"latency": {"ms": -1}}, "_rift.fault.latency.ms")):
                status, _, body = rift.admin("POST", "/imposters", {
                    "protocol": "http", "stubs": [faulty("/x", fault)]})
                self.assertEqual(status, 400, fault)
                self.assertIn(field, body["errors"][0]["message"])
            status, _, body = rift.admin("POST", "/imposters", {"protocol": "http",
                                                             "_rift": {"seed": -1}})
            self.assertEqual(status, 400)
            self.assertIn("_rift.seed", body["errors"][0]["message"])

    def test_delay_range_and_wait_ranges(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "stubs": [
                {"predicates": [{"equals": {"path": "/d"}}], "delayRange": [{"min": "300", "max": 400}],
                 "responses": [{"statusCode": 201, "body": "flat"}]},
                {"predicates": [{"equals": {"path": "/w"}}],
                 "responses": [{"is": {"body": "w"}, "behaviors": [{"wait": {"min": 300, "max": 350}}]}]},
            ]})["port"]
            for path, expected in (("/d", (201, b"flat")), ("/w", (200, b"w"))):
                started = time.monotonic()
                status, _, body = request(port, "GET", path)
                self.assertEqual((status, body), expected)
                self.assertGreaterEqual(time.monotonic() - started, 0.3)
            for stub in ({"delayRange": [{"min": 0, "max": "99999999999999999999"}],
                          "responses": [{"is": {}}]},
                         {"responses": [{"is": {}, "behaviors": [{"wait": {"min": 0,
                                                                           "max": 1e300}}]}]}):
                status, _, body = rift.admin("POST", "/imposters",
                                             {"protocol": "http", "stubs": [stub]})
                self.assertEqual(status, 400, stub)
                self.assertIn("2147483647", body["errors"][0]["message"])
            status, _, body = rift.admin("GET", f"/imposters/{port}")
            first = body["stubs"][0]
            self.assertNotIn("delayRange", first)
            self.assertEqual(first["responses"][0]["behaviors"], [{"wait": {"min": 300, "max": 400}}])


if __name__ == "__main__":
    unittest.main()
