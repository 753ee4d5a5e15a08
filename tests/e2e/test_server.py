"""End-to-end tests of the rift binary over real sockets: framing, limits, bad input, lifecycle."""
import json
import os
import signal
import socket
import subprocess
import tempfile
import threading
import time
import unittest

from harness import Rift, free_port, parse_response, raw, request, RIFT

HEALTH = {"protocol": "http", "stubs": [
    {"predicates": [{"equals": {"path": "/health"}}], "responses": [{"is": {"body": "OK"}}]},
    {"predicates": [{"equals": {"method": "POST", "path": "/echo"}}, {"contains": {"body": "ping"}}],
     "responses": [{"is": {"statusCode": 201, "body": "pong"}}]},
    {"predicates": [{"equals": {"path": "/keep"}}],
     "responses": [{"is": {"headers": {"Connection": "keep-alive", "Content-Length": 1}, "body": "k"}}]},
]}


class ServingTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # Mountebank's framing: these tests read each answer until the server closes.
        cls.rift = Rift("--maxBodyBytes", "4096", "--mountebankFraming").__enter__()
        cls.port = cls.rift.create(dict(HEALTH))["port"]

    @classmethod
    def tearDownClass(cls):
        cls.rift.__exit__(None, None, None)

    def test_mountebank_default_framing(self):
        data = raw(self.port, b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        status, headers, body, _ = parse_response(data)
        self.assertEqual((status, body), (200, b"OK"))
        self.assertEqual(headers["connection"], "close")
        self.assertEqual(headers["transfer-encoding"], "chunked")
        self.assertIn("date", headers)

    def test_no_match_is_empty_200(self):
        status, headers, body = request(self.port, "GET", "/nothing")
        self.assertEqual((status, body), (200, b""))

    def test_keep_alive_and_pipelining_answer_in_order(self):
        one = b"GET /keep HTTP/1.1\r\nHost: x\r\n\r\n"
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
            s.sendall(one + one + b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        first = parse_response(data)
        second = parse_response(first[3])
        third = parse_response(second[3])
        self.assertEqual([first[2], second[2], third[2]], [b"k", b"k", b"OK"])
        self.assertEqual(first[1]["content-length"], "1")

    def test_chunked_request_body_is_matched(self):
        data = raw(self.port, b"POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                              b"3\r\npin\r\n1\r\ng\r\n0\r\n\r\n")
        status, _, body, _ = parse_response(data)
        self.assertEqual((status, body), (201, b"pong"))

    def test_malformed_request_gets_400_and_others_are_unaffected(self):
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as healthy:
            data = raw(self.port, b"THIS IS NOT HTTP\r\n\r\n")
            self.assertTrue(data.startswith(b"HTTP/1.1 400"), data)
            healthy.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            self.assertIn(b"OK", healthy.recv(65536))

    def test_oversized_headers_get_431(self):
        big = b"X-Big: " + b"a" * (70 * 1024) + b"\r\n"
        data = raw(self.port, b"GET /health HTTP/1.1\r\nHost: x\r\n" + big + b"\r\n")
        self.assertTrue(data.startswith(b"HTTP/1.1 431"), data[:40])

    def test_oversized_body_gets_413(self):
        data = raw(self.port, b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n" + b"a" * 5000)
        self.assertTrue(data.startswith(b"HTTP/1.1 413"), data[:40])

    def test_head_has_no_body(self):
        data = raw(self.port, b"HEAD /health HTTP/1.1\r\nHost: x\r\n\r\n")
        status, headers, body, _ = parse_response(data + b"")
        self.assertEqual(status, 200)
        self.assertEqual(body, b"")


class LifecycleTest(unittest.TestCase):
    def test_port_in_use_keeps_existing_imposter(self):
        with Rift() as rift:
            port = rift.create(dict(HEALTH))["port"]
            status, _, body = rift.admin("POST", "/imposters", {"protocol": "http", "port": port})
            self.assertEqual(status, 400)
            self.assertTrue(body["errors"])
            self.assertEqual(request(port, "GET", "/health")[2], b"OK")
            status, _, body = rift.admin("POST", "/imposters", {"protocol": "http", "port": rift.port})
            self.assertEqual(status, 400)

    def test_port_taken_by_another_process_is_refused(self):
        with socket.socket() as other, Rift() as rift:
            other.bind(("0.0.0.0", 0))
            other.listen()
            taken = other.getsockname()[1]
            status, _, body = rift.admin("POST", "/imposters", {"protocol": "http", "port": taken})
            self.assertEqual(status, 400, body)
            self.assertEqual(rift.admin("GET", "/imposters")[2]["imposters"], [])

    def test_edit_is_visible_to_the_next_request(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "stubs": []})["port"]
            for i in range(20):
                stubs = {"stubs": [{"responses": [{"is": {"body": f"v{i}"}}]}]}
                self.assertEqual(rift.admin("PUT", f"/imposters/{port}/stubs", stubs)[0], 200)
                self.assertEqual(request(port, "GET", "/")[2], f"v{i}".encode())

    def test_delete_frees_the_port_and_closes_connections(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "stubs": [{"responses": [
                {"is": {"headers": {"Connection": "keep-alive"}, "body": "x"}}]}]})["port"]
            held = socket.create_connection(("127.0.0.1", port), timeout=5)
            held.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            self.assertIn(b"x", held.recv(65536))
            self.assertEqual(rift.admin("DELETE", f"/imposters/{port}")[0], 200)
            self.assertEqual(held.recv(65536), b"")
            held.close()
            with self.assertRaises(OSError):
                socket.create_connection(("127.0.0.1", port), timeout=2)
            self.assertEqual(rift.admin("POST", "/imposters", {"protocol": "http", "port": port})[0], 201)

    def test_wait_behavior_delays_only_its_own_connection(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "stubs": [
                {"predicates": [{"equals": {"path": "/slow"}}],
                 "responses": [{"is": {"body": "slow"}, "behaviors": [{"wait": 1500}]}]},
                {"responses": [{"is": {"body": "fast"}}]}]})["port"]
            finished = []
            slow = threading.Thread(target=lambda: finished.append(request(port, "GET", "/slow")[2]))
            slow.start()
            time.sleep(0.05)
            finished.append(request(port, "GET", "/fast")[2])
            slow.join()
            self.assertEqual(finished, [b"fast", b"slow"])

    def test_faults(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "stubs": [
                {"predicates": [{"equals": {"path": "/reset"}}], "responses": [{"fault": "CONNECTION_RESET_BY_PEER"}]},
                {"predicates": [{"equals": {"path": "/garbage"}}], "responses": [{"fault": "RANDOM_DATA_THEN_CLOSE"}]},
            ]})["port"]
            self.assertIn(raw(port, b"GET /reset HTTP/1.1\r\nHost: x\r\n\r\n"), (b"", b"<RST>"))
            self.assertEqual(raw(port, b"GET /garbage HTTP/1.1\r\nHost: x\r\n\r\n"),
                             b'Htijy%@tWXJ/hQ#[Q:7G@dH4"gu[QaX&')
            self.assertEqual(rift.admin("GET", f"/imposters/{port}")[2]["numberOfRequests"], 2)

    def test_unknown_fault_is_logged_and_answered_with_the_default_response(self):
        with Rift("--nologfile=false", "--logfile", "rift.log") as rift:
            port = rift.create({"protocol": "http", "name": "faulty",
                                "defaultResponse": {"statusCode": 503, "body": "default"},
                                "stubs": [{"responses": [{"fault": "NO_SUCH_FAULT", "behaviors": [
                                    {"copy": {"from": "path", "into": "${x}",
                                              "using": {"method": "regex", "selector": ".*"}}}]}]}]})["port"]
            status, _, body = request(port, "GET", "/x")
            self.assertEqual((status, body), (503, b"default"))
            status, headers, body = request(port, "HEAD", "/x")
            self.assertEqual((status, body), (503, b""))
            logs = rift.admin("GET", "/logs")[2]["logs"]
            self.assertIn(f"[http:{port} faulty] Unexpected fault type [NO_SUCH_FAULT], expected either "
                          "CONNECTION_RESET_BY_PEER or RANDOM_DATA_THEN_CLOSE",
                          [entry["message"] for entry in logs])

    def test_configfile_json_and_yaml_twins_serve_the_same(self):
        root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
        # The examples use ports 4545-4547; move them to free ports so the test never collides.
        ports = {str(p): str(free_port()) for p in (4545, 4546, 4547)}
        answers = []
        for name in ("imposters.json", "imposters.yaml"):
            with open(os.path.join(root, "examples", name)) as source:
                text = source.read()
            for old, new in ports.items():
                text = text.replace(old, new)
            copy = os.path.join(tempfile.mkdtemp(prefix="rift-e2e-"), name)
            with open(copy, "w") as out:
                out.write(text)
            with Rift("--configfile", copy) as rift:
                listing = rift.admin("GET", "/imposters?replayable=true")[2]
                self.assertEqual(len(listing["imposters"]), 3)
                answers.append(listing)
        self.assertEqual(answers[0], answers[1])

    def test_cli_save_stop(self):
        with Rift() as rift:
            rift.create(dict(HEALTH))
            savefile = os.path.join(rift.dir, "saved.json")
            subprocess.run([os.path.abspath(RIFT), "save", "--port", str(rift.port), "--savefile", savefile],
                           check=True, timeout=20)
            with open(savefile) as saved_file:
                saved = json.load(saved_file)
            self.assertEqual(len(saved["imposters"]), 1)
            self.assertNotIn("_links", saved["imposters"][0])
            subprocess.run([os.path.abspath(RIFT), "stop", "--pidfile", os.path.join(rift.dir, "rift.pid")],
                           check=True, timeout=20)
            self.assertEqual(rift.process.wait(10), 0)
            self.assertFalse(os.path.exists(os.path.join(rift.dir, "rift.pid")))

    def test_save_without_server_fails(self):
        result = subprocess.run([os.path.abspath(RIFT), "save", "--port", str(free_port())],
                                capture_output=True, text=True, timeout=20)
        self.assertEqual(result.returncode, 1)
        self.assertIn("No mb process running", result.stderr)


class BehaviorPipelineTest(unittest.TestCase):
    """copy, decorate and a wait function run as one pipeline, in array order
    (docs/mountebank-semantics.md §5.1, §6.2)."""

    def test_copy_then_decorate_then_wait_function(self):
        with Rift("--allowInjection") as rift:
            port = rift.create({"protocol": "http", "stubs": [
                {"predicates": [{"equals": {"path": "/copy"}}], "responses": [{"is": {"body": "${x}"}, "behaviors": [
                    {"copy": {"from": "path", "into": "${x}", "using": {"method": "regex", "selector": ".*"}}},
                    {"decorate": "(config) => { config.response.body += '!'; }"},
                    {"wait": "() => 1"}]}]},
            ]})["port"]
            status, headers, body = request(port, "GET", "/copy")
            self.assertEqual(status, 200)
            self.assertEqual(body, b"/copy!")
            stubs = rift.admin("GET", f"/imposters/{port}")[2]["stubs"]
            self.assertEqual(stubs[0]["responses"][0]["behaviors"][0]["copy"]["into"], "${x}")


def lan_address():
    """The host's first non-loopback IPv4 address, or None (then the filter tests skip)."""
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=5).stdout.split()
    except OSError:
        return None
    return next((a for a in out if "." in a and not a.startswith("127.")), None)


def request_from(address, port, path):
    """GET from a given local source address; returns the raw bytes (b'' when dropped)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(5)
        s.bind((address, 0))
        s.connect((address, port))
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        data = b""
        try:
            while chunk := s.recv(65536):
                data += chunk
        except (ConnectionResetError, socket.timeout):
            pass
        return data


class ClientFilterTest(unittest.TestCase):
    def setUp(self):
        self.lan = lan_address()
        if self.lan is None:
            self.skipTest("no non-loopback address on this machine")

    def test_local_only_drops_lan_clients_uncounted(self):
        with Rift("--localOnly") as rift:
            port = rift.create({"protocol": "http", "stubs": [{"responses": [{"is": {"body": "hi"}}]}]})["port"]
            self.assertEqual(request_from(self.lan, port, "/"), b"")
            self.assertIn(b"hi", request_from("127.0.0.1", port, "/"))
            self.assertEqual(rift.admin("GET", f"/imposters/{port}")[2]["numberOfRequests"], 1)
            self.assertEqual(request_from(self.lan, rift.port, "/"), b"")  # the admin API too

    def test_ip_whitelist_needs_the_dual_stack_spelling(self):
        with Rift("--ipWhitelist", self.lan) as rift:
            port = rift.create({"protocol": "http", "stubs": [{"responses": [{"is": {"body": "hi"}}]}]})["port"]
            self.assertEqual(request_from(self.lan, port, "/"), b"")
        with Rift("--ipWhitelist", "::ffff:" + self.lan) as rift:
            port = rift.create({"protocol": "http", "stubs": [{"responses": [{"is": {"body": "hi"}}]}]})["port"]
            self.assertIn(b"hi", request_from(self.lan, port, "/"))


class DebugAndMockTest(unittest.TestCase):
    def test_debug_keeps_matches_and_mock_records(self):
        with Rift("--debug", "--mock") as rift:
            port = rift.create({"protocol": "http", "stubs": [
                {"predicates": [{"equals": {"path": "/a"}}], "responses": [{"is": {"body": "a"}}]}]})["port"]
            request(port, "GET", "/a")
            request(port, "GET", "/b")
            imposter = rift.admin("GET", f"/imposters/{port}")[2]
            self.assertFalse(imposter["recordRequests"])
            self.assertEqual([r["path"] for r in imposter["requests"]], ["/a", "/b"])
            matches = imposter["stubs"][0]["matches"]
            self.assertEqual(len(matches), 1)
            self.assertEqual(matches[0]["request"]["path"], "/a")
            self.assertEqual(set(matches[0]), {"timestamp", "request", "response", "responseConfig", "processingTime"})
            replayable = rift.admin("GET", f"/imposters/{port}?replayable=true")[2]
            self.assertNotIn("matches", replayable["stubs"][0])


class KeepAliveOptionTest(unittest.TestCase):
    def test_keep_alive_serves_many_requests_on_one_connection(self):
        with Rift("--keepAlive") as rift:
            port = rift.create({"protocol": "http", "stubs": [{"responses": [{"is": {"body": "ok"}}]}]})["port"]
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                for _ in range(3):
                    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                    data = b""
                    while b"0\r\n\r\n" not in data:
                        data += s.recv(65536)
                    status, headers, body, _ = parse_response(data)
                    self.assertEqual((status, body), (200, b"ok"))
                    self.assertNotIn("connection", headers)


class MetricsTest(unittest.TestCase):
    def test_prometheus_series_per_called_imposter(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "name": "api", "stubs": [
                {"predicates": [{"equals": {"path": "/a"}}], "responses": [{"is": {"body": "a"}}]}]})["port"]
            idle = rift.create({"protocol": "http"})["port"]
            request(port, "GET", "/a")
            request(port, "GET", "/missing")
            status, headers, text = rift.admin("GET", "/metrics")
            self.assertEqual(status, 200)
            text = text.decode() if isinstance(text, bytes) else text
            label = f'imposter="[http:{port} api] "'
            self.assertIn(f"mb_request_total{{{label}}} 2", text)
            self.assertIn(f"mb_no_match_total{{{label}}} 1", text)
            self.assertIn(f'mb_predicate_match_duration_seconds_bucket{{le="+Inf",{label}}} 2', text)
            # Mountebank times every answer it resolves, the default one for a miss included.
            self.assertIn(f"mb_response_generation_duration_seconds_count{{{label}}} 2", text)
            self.assertNotIn(f"[http:{idle}] ", text)


class AdminCorsTest(unittest.TestCase):
    def test_origin_option_answers_preflight_and_tags_responses(self):
        with Rift("--origin", "http://app.test") as rift:
            status, headers, _ = rift.admin("OPTIONS", "/imposters", headers={
                "Origin": "http://app.test", "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type"})
            self.assertEqual(status, 204)
            self.assertEqual(headers["access-control-allow-origin"], "http://app.test")
            self.assertEqual(headers["access-control-allow-headers"], "content-type")
            status, headers, _ = rift.admin("GET", "/imposters", headers={"Origin": "http://app.test"})
            self.assertEqual((status, headers["access-control-allow-origin"]), (200, "http://app.test"))
        with Rift() as rift:
            status, headers, _ = rift.admin("GET", "/imposters", headers={"Origin": "http://app.test"})
            self.assertNotIn("access-control-allow-origin", headers)


class InspectionEndpointsTest(unittest.TestCase):
    """Rift's own views, on routes Mountebank does not have."""

    def test_plan_and_explain(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "stubs": [
                {"predicates": [{"equals": {"method": "GET", "path": "/a"}}], "responses": [{"is": {"body": "a"}}]},
                {"predicates": [{"equals": {"path": "/a", "method": "GET"}}], "responses": [{"is": {"body": "dup"}}]},
                {"predicates": [{"equals": {"query": {"q": "1"}}}], "responses": [{"is": {"body": "q"}}]},
            ]})["port"]
            status, _, plan = rift.admin("GET", f"/imposters/{port}/plan")
            self.assertEqual(status, 200)
            self.assertEqual(list(plan)[0], "tier")
            self.assertEqual(plan["tier"], "interpreter")
            self.assertIn("duplicate", json.dumps(plan))

            status, _, report = rift.admin("POST", f"/imposters/{port}/explain",
                                           {"method": "GET", "path": "/zzz", "query": {"q": "2"}})
            self.assertEqual(status, 200)
            self.assertIsNone(report["matched"])
            misses = {miss["stub"]: miss for miss in report["nearMisses"]}
            self.assertIn("query", json.dumps(misses[2]["failedClause"]))
            status, _, report = rift.admin("POST", f"/imposters/{port}/explain", {"path": "/a"})
            self.assertEqual(report["matched"], 0)
            status, _, error = rift.admin("POST", f"/imposters/{port}/explain", {"path": 5})
            self.assertEqual(status, 400)
            self.assertEqual(error["errors"][0]["code"], "bad data")
            self.assertEqual(rift.admin("GET", "/imposters/1/plan")[0], 404)


class EngineTest(unittest.TestCase):
    """--engine: the JIT tier takes over after an edit; interp never compiles."""

    def wait_for_tier(self, rift, port, tier, version):
        deadline = time.time() + 30
        while time.time() < deadline:
            plan = rift.admin("GET", f"/imposters/{port}/plan")[2]
            if plan["tier"] == tier and plan["planVersion"] == version:
                return plan
            time.sleep(0.02)
        self.fail(f"imposter {port} never served plan {version} on tier {tier}: {plan}")

    def test_jit_compiles_each_edit_and_answers_like_the_interpreter(self):
        port = free_port()
        stubs = [{"predicates": [{"equals": {"path": f"/p{i}"}}],
                  "responses": [{"is": {"body": f"stub {i}"}}]} for i in range(20)]
        with Rift("--engine", "jit") as rift:
            status, _, _ = rift.admin("POST", "/imposters",
                                      {"protocol": "http", "port": port, "stubs": stubs})
            self.assertEqual(status, 201)
            plan = self.wait_for_tier(rift, port, "jit", 1)
            self.assertGreater(plan["codeBytes"], 0)
            self.assertGreater(plan["compileMillis"], 0)
            self.assertEqual(request(port, "GET", "/p7")[2], b"stub 7")
            # An edit is served at once (whatever the tier), then compiled.
            status, _, _ = rift.admin("PUT", f"/imposters/{port}/stubs/7",
                                      {"predicates": [{"equals": {"path": "/p7"}}],
                                       "responses": [{"is": {"body": "edited"}}]})
            self.assertEqual(status, 200)
            self.assertEqual(request(port, "GET", "/p7")[2], b"edited")
            self.wait_for_tier(rift, port, "jit", 2)
            self.assertEqual(request(port, "GET", "/p7")[2], b"edited")
            self.assertEqual(request(port, "GET", "/p8")[2], b"stub 8")
            metrics = rift.admin("GET", "/metrics")[2].decode()
            self.assertIn("rift_jit_swaps_total 2", metrics)
            self.assertIn("rift_jit_failures_total 0", metrics)

    def test_interp_never_compiles(self):
        port = free_port()
        with Rift("--engine", "interp") as rift:
            rift.admin("POST", "/imposters", {"protocol": "http", "port": port, "stubs": [
                {"responses": [{"is": {"body": "x"}}]}]})
            time.sleep(0.5)
            plan = rift.admin("GET", f"/imposters/{port}/plan")[2]
            self.assertEqual(plan["tier"], "interpreter")
            self.assertNotIn("rift_jit_", rift.admin("GET", "/metrics")[2].decode())

    def test_an_unknown_engine_is_refused(self):
        result = subprocess.run([os.path.abspath(RIFT), "start", "--engine", "llvm", "--nologfile"],
                                capture_output=True, text=True, timeout=30)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("--engine must be interp, jit or auto", result.stdout + result.stderr)


class ConfigfileStartupTest(unittest.TestCase):
    def test_an_imposter_on_the_admin_port_stops_start_up(self):
        admin = free_port()
        config = os.path.join(tempfile.mkdtemp(prefix="rift-e2e-"), "clash.json")
        with open(config, "w") as out:
            json.dump({"imposters": [{"protocol": "http", "port": admin}]}, out)
        result = subprocess.run([os.path.abspath(RIFT), "start", "--port", str(admin), "--nologfile",
                                 "--pidfile", config + ".pid", "--configfile", config],
                                capture_output=True, text=True, timeout=30)
        self.assertEqual(result.returncode, 1)
        self.assertIn(f"Port {admin} is already in use", result.stdout + result.stderr)


if __name__ == "__main__":
    unittest.main()
