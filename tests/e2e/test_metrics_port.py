"""The metrics port over real sockets (docs/metrics.md): `--metrics-port` serves the reference
Rift's series in the Prometheus text format, with the values the traffic sent before a scrape
must produce; an accept that fails for want of descriptors is counted as systemic; without the
option nothing listens."""
import http.server
import json
import os
import re
import resource
import socket
import subprocess
import threading
import time
import unittest

from harness import RIFT, Rift, free_port, raw, request

SERIES = re.compile(r'^([a-z_]+)(\{[^}]*\})? (\S+)$')


def scrape(port):
    status, headers, body = request(port, "GET", "/metrics")
    assert status == 200, (status, body)
    content_type = {k.lower(): v for k, v in headers.items()}["content-type"]
    assert content_type == "text/plain; version=0.0.4", headers
    values = {}
    for line in body.decode().splitlines():
        if not line or line.startswith("#"):
            continue
        match = SERIES.match(line)
        assert match, line
        values[match.group(1) + (match.group(2) or "")] = float(match.group(3))
    return values


def stub(path, response, **extra):
    return {"predicates": [{"equals": {"path": path}}], "responses": [response], **extra}


class Origin(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(201)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


class MetricsPortTest(unittest.TestCase):
    def test_series_count_what_the_imposters_did(self):
        origin = http.server.HTTPServer(("127.0.0.1", 0), Origin)
        threading.Thread(target=origin.serve_forever, daemon=True).start()
        self.addCleanup(origin.server_close)
        self.addCleanup(origin.shutdown)
        metrics_port = free_port()
        with Rift("--host", "127.0.0.1", "--metrics-port", str(metrics_port), "--allowInjection",
                  "--engine", "interp") as rift:
            imposter = rift.create({"protocol": "http", "stubs": [
                stub("/slow", {"is": {"statusCode": 201},
                               "_rift": {"fault": {"latency": {"probability": 1, "ms": 30}}}},
                     id="slow"),
                stub("/error", {"is": {}, "_rift": {"fault": {"error": {"probability": 1,
                                                                          "status": 503}}}}),
                stub("/reset", {"is": {}, "_rift": {"fault": {"tcp": "CONNECTION_RESET_BY_PEER"}}}),
                stub("/count", {"_rift": {"script": {"engine": "javascript", "code":
                     "function respond(ctx) { return http(200, {n: ctx.state.incr('n')}); }"}}},
                     id="count"),
                stub("/throw", {"_rift": {"script": {"engine": "javascript", "code":
                     "function respond(ctx) { throw new Error('boom'); }"}}}),
                stub("/proxy", {"proxy": {"to": f"http://127.0.0.1:{origin.server_port}",
                                          "mode": "proxyTransparent"}}),
            ]})
            port = imposter["port"]
            for path in ("/slow", "/slow", "/error", "/count", "/count", "/throw", "/nothing"):
                request(port, "GET", path)
            request(port, "POST", "/proxy", b"{}")
            request(port, "DELETE", "/nothing")
            self.assertIn(raw(port, b"GET /reset HTTP/1.1\r\nHost: x\r\n\r\n"), (b"", b"<RST>"))
            # Admin calls are not imposters' answers.
            rift.admin("GET", "/imposters")

            values = scrape(metrics_port)
            expected = {
                'rift_requests_total{method="GET",status="201"}': 2,
                'rift_requests_total{method="GET",status="503"}': 1,
                'rift_requests_total{method="GET",status="200"}': 3,  # /count twice, /nothing
                'rift_requests_total{method="GET",status="500"}': 1,  # the script that threw
                'rift_requests_total{method="POST",status="201"}': 1,
                'rift_requests_total{method="DELETE",status="200"}': 1,
                # Every request but none: the interpreter matched them all (--engine interp).
                'rift_matches_total{tier="interpreter"}': 10,
                f'rift_faults_injected_total{{type="latency",rule_id="{port}/slow",source="v1"}}': 2,
                f'rift_faults_injected_total{{type="error",rule_id="{port}/1",source="v1"}}': 1,
                f'rift_faults_injected_total{{type="tcp",rule_id="{port}/2",source="v1"}}': 1,
                f'rift_error_status_total{{status="503",rule_id="{port}/1"}}': 1,
                f'rift_latency_injected_ms_count{{rule_id="{port}/slow"}}': 2,
                f'rift_latency_injected_ms_sum{{rule_id="{port}/slow"}}': 60,
                f'rift_latency_injected_ms_bucket{{le="50",rule_id="{port}/slow"}}': 2,
                f'rift_latency_injected_ms_bucket{{le="10",rule_id="{port}/slow"}}': 0,
                f'rift_script_execution_duration_ms_count{{rule_id="{port}/count",result="inject"}}': 2,
                f'rift_script_execution_duration_ms_count{{rule_id="{port}/4",result="error"}}': 1,
                f'rift_script_errors_total{{rule_id="{port}/4",error_type="runtime"}}': 1,
                'rift_flow_state_ops_total{operation="increment",result="success"}': 2,
                'rift_active_flows{backend="inmemory"}': 1,  # the scripts' one flow
                'rift_upstream_request_duration_ms_count{method="POST",status="201"}': 1,
                'rift_accept_error_outage{listener="imposter"}': 0,
                'rift_accept_errors_total{class="systemic",listener="imposter"}': 0,
            }
            for series, value in expected.items():
                self.assertEqual(values.get(series), value, series)
            # One connection per request (Connection: close), on either worker.
            accepted = sum(v for k, v in values.items()
                           if k.startswith("rift_accepted_connections_total"))
            self.assertEqual(accepted, 10)
            self.assertEqual(
                sorted(k for k in values if k.startswith("rift_accepted_connections_total")),
                ['rift_accepted_connections_total{worker="0"}',
                 'rift_accepted_connections_total{worker="1"}'])

            # Counters survive a republished plan: the rule goes on where it was.
            status, _, _ = rift.admin("POST", f"/imposters/{port}/stubs",
                                      {"stub": stub("/new", {"is": {}})})
            self.assertEqual(status, 200)
            request(port, "GET", "/slow")
            values = scrape(metrics_port)
            self.assertEqual(values[f'rift_faults_injected_total{{type="latency",rule_id='
                                    f'"{port}/slow",source="v1"}}'], 3)

            # Anything but GET /metrics is a 404; the port is not an imposter's to take.
            self.assertEqual(request(metrics_port, "GET", "/")[0], 404)
            status, _, body = rift.admin("POST", "/imposters",
                                         {"protocol": "http", "port": metrics_port})
            self.assertEqual(status, 400, body)

    def test_without_the_option_nothing_is_served_and_a_taken_port_stops_start_up(self):
        port = free_port()
        with Rift("--host", "127.0.0.1") as rift:
            rift.create({"protocol": "http", "stubs": []})
            with self.assertRaises(OSError):
                socket.create_connection(("127.0.0.1", port), timeout=2).close()
            holder = socket.socket()
            holder.bind(("127.0.0.1", 0))
            holder.listen()
            taken = holder.getsockname()[1]
            self.addCleanup(holder.close)
            started = subprocess.run(
                [os.path.abspath(RIFT), "start", "--port", str(free_port()), "--nologfile",
                 "--pidfile", os.path.join(rift.dir, "second.pid"), "--host", "127.0.0.1",
                 "--metrics-port", str(taken)],
                cwd=rift.dir, capture_output=True, text=True, timeout=30)
            self.assertEqual(started.returncode, 1, started.stdout + started.stderr)
            self.assertIn(f"Cannot listen on metrics port {taken}: EADDRINUSE",
                          started.stdout + started.stderr)

    def test_an_accept_without_descriptors_is_a_systemic_error_and_the_listener_recovers(self):
        metrics_port = free_port()
        with Rift("--host", "127.0.0.1", "--metrics-port", str(metrics_port), "--engine",
                  "interp") as rift:
            port = rift.create({"protocol": "http", "stubs": [stub("/", {"is": {"body": "up"}})]})[
                "port"]
            pid = rift.process.pid
            limits = resource.prlimit(pid, resource.RLIMIT_NOFILE)
            in_use = len(os.listdir(f"/proc/{pid}/fd"))
            clients = []
            try:
                resource.prlimit(pid, resource.RLIMIT_NOFILE, (in_use + 2, limits[1]))
                # Two connections take the last descriptors; the third waits in the backlog while
                # its accept fails with EMFILE.
                for _ in range(3):
                    clients.append(socket.create_connection(("127.0.0.1", port), timeout=5))
                deadline = time.monotonic() + 5
                while not self._systemic_seen(pid, deadline):
                    pass
            finally:
                resource.prlimit(pid, resource.RLIMIT_NOFILE, limits)
            # With descriptors again, the waiting connection is accepted and answered.
            clients[-1].sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answer = b""
            while chunk := clients[-1].recv(4096):
                answer += chunk
            self.assertTrue(answer.startswith(b"HTTP/1.1 200"), answer)
            for client in clients:
                client.close()
            # Each imposter listener (one per worker) failed while descriptors ran out, and each
            # leaves the outage at its next retry (every 50 ms), whether or not a client waits.
            deadline = time.monotonic() + 10
            while True:
                values = scrape(metrics_port)
                if values['rift_accept_error_outage{listener="imposter"}'] == 0:
                    break
                self.assertLess(time.monotonic(), deadline, "the outage never ended")
                time.sleep(0.05)
            self.assertGreaterEqual(
                values['rift_accept_errors_total{class="systemic",listener="imposter"}'], 1)
            self.assertEqual(values['rift_accept_errors_total{class="transient",listener="imposter"}'],
                             0)

    @staticmethod
    def _systemic_seen(pid, deadline):
        """Waits until the server has taken every descriptor it may: then the last accept fails."""
        if time.monotonic() > deadline:
            raise AssertionError("the server never ran out of descriptors")
        limit = resource.prlimit(pid, resource.RLIMIT_NOFILE)[0]
        if len(os.listdir(f"/proc/{pid}/fd")) >= limit:
            time.sleep(0.2)  # a few accept retries (every 50 ms) fail meanwhile
            return True
        time.sleep(0.01)
        return False


if __name__ == "__main__":
    unittest.main()
