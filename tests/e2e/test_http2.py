"""HTTP/2 on imposters over real sockets with real clients (docs/http2.md): curl with prior
knowledge, through `Upgrade: h2c` and by ALPN on https; h2load with many streams per connection;
the same stubs, behaviors and journal as HTTP/1.1; imposters with TCP faults and
--disableHttp2 stay HTTP/1.1; a malformed frame ends only its own connection."""
import socket
import subprocess
import unittest

from harness import Rift, free_port, request

IMPOSTER = {
    "protocol": "http", "recordRequests": True,
    "stubs": [
        {"predicates": [{"equals": {"method": "POST", "path": "/orders", "body": "{\"id\": 7}"}}],
         "responses": [{"is": {"statusCode": 201, "headers": {"X-Order": "7"}, "body": "created"}}]},
        {"predicates": [{"equals": {"path": "/slow"}}],
         "responses": [{"is": {"body": "slow"}, "behaviors": [{"wait": 400}]}]},
        {"predicates": [{"equals": {"path": "/head"}}],
         "responses": [{"is": {"headers": {"Content-Length": "5"}, "body": "hello"}}]},
        {"responses": [{"is": {"body": "hello h2"}}]}]}


def curl(*args):
    out = subprocess.run(["curl", "-sS", "--max-time", "10", "-w", "\n%{http_version} %{http_code}",
                          *args], capture_output=True, text=True, timeout=20)
    body, _, tail = out.stdout.rpartition("\n")
    version, _, code = tail.partition(" ")
    return version, int(code or 0), body, out.stderr


def frame_types(data):
    """The types of the HTTP/2 frames in `data`, in order (RFC 9113 §4.1)."""
    types = []
    while len(data) >= 9:
        length = int.from_bytes(data[:3], "big")
        types.append(data[3])
        data = data[9 + length:]
    return types


class Http2Test(unittest.TestCase):
    def imposter(self, rift, protocol="http", **extra):
        port = free_port()
        rift.create(dict(IMPOSTER, protocol=protocol, port=port, **extra))
        return port

    def test_prior_knowledge_upgrade_and_alpn(self):
        with Rift() as rift:
            plain = self.imposter(rift)
            tls = self.imposter(rift, protocol="https")
            self.assertEqual(curl("--http2-prior-knowledge", f"http://127.0.0.1:{plain}/")[:3],
                             ("2", 200, "hello h2"))
            self.assertEqual(curl("--http2", f"http://127.0.0.1:{plain}/up")[:3],
                             ("2", 200, "hello h2"))
            # The upgrading request carries a body: it is answered as stream 1.
            self.assertEqual(curl("--http2", "--data-binary", '{"id": 7}',
                                  f"http://127.0.0.1:{plain}/orders")[:3], ("2", 201, "created"))
            self.assertEqual(curl("--http2", "-k", f"https://127.0.0.1:{tls}/")[:3],
                             ("2", 200, "hello h2"))
            # HTTP/1.1 is still served on the same ports.
            self.assertEqual(curl("--http1.1", f"http://127.0.0.1:{plain}/")[:3],
                             ("1.1", 200, "hello h2"))
            self.assertEqual(curl("--http1.1", "-k", f"https://127.0.0.1:{tls}/")[:3],
                             ("1.1", 200, "hello h2"))

    def test_same_requests_and_answers_as_http1(self):
        with Rift() as rift:
            port = self.imposter(rift)
            version, code, body, _ = curl("--http2-prior-knowledge", "-i", "--data-binary",
                                          '{"id": 7}', f"http://127.0.0.1:{port}/orders?x=1")
            self.assertEqual((version, code), ("2", 201))
            self.assertIn("x-order: 7", body.lower())
            self.assertNotIn("connection:", body.lower())
            self.assertTrue(body.endswith("created"))
            # HEAD: the length of what a GET would get, no body.
            out = subprocess.run(["curl", "-sS", "-I", "--http2-prior-knowledge",
                                  f"http://127.0.0.1:{port}/head"], capture_output=True, text=True,
                                 timeout=20)
            self.assertIn("content-length: 5", out.stdout.lower())
            _, _, imposter = rift.admin("GET", f"/imposters/{port}")
            recorded = imposter["requests"][0]
            self.assertEqual((recorded["method"], recorded["path"], recorded["query"],
                              recorded["body"]), ("POST", "/orders", {"x": "1"}, '{"id": 7}'))
            self.assertEqual(recorded["headers"]["host"], f"127.0.0.1:{port}")

    def test_streams_are_answered_concurrently(self):
        with Rift() as rift:
            port = self.imposter(rift)
            # One connection, a slow stream first: the quick one is not held behind it.
            out = subprocess.run(
                ["curl", "-sS", "--http2-prior-knowledge", "--parallel", "--parallel-immediate",
                 "-w", "%{url_effective} %{time_total}\n", "-o", "/dev/null", "-o", "/dev/null",
                 f"http://127.0.0.1:{port}/slow", f"http://127.0.0.1:{port}/quick"],
                capture_output=True, text=True, timeout=20)
            times = dict(line.split() for line in out.stdout.strip().split("\n"))
            self.assertLess(float(times[f"http://127.0.0.1:{port}/quick"]),
                            float(times[f"http://127.0.0.1:{port}/slow"]), out)

    def test_h2load_many_streams(self):
        with Rift() as rift:
            port = self.imposter(rift)
            out = subprocess.run(["h2load", "-n", "2000", "-c", "4", "-m", "16",
                                  f"http://127.0.0.1:{port}/"], capture_output=True, text=True,
                                 timeout=60)
            self.assertIn("2000 succeeded, 0 failed, 0 errored", out.stdout, out.stdout)
            self.assertIn("status codes: 2000 2xx", out.stdout, out.stdout)

    def test_tcp_faults_and_the_flag_keep_http1(self):
        with Rift() as rift:
            faulty = free_port()
            rift.create({"protocol": "https", "port": faulty, "stubs": [
                {"predicates": [{"equals": {"path": "/drop"}}],
                 "responses": [{"fault": "CONNECTION_RESET_BY_PEER"}]},
                {"responses": [{"is": {"body": "h1"}}]}]})
            self.assertEqual(curl("--http2", "-k", f"https://127.0.0.1:{faulty}/")[:3],
                             ("1.1", 200, "h1"))
        with Rift("--disableHttp2") as rift:
            port = self.imposter(rift)
            self.assertEqual(curl("--http2", f"http://127.0.0.1:{port}/")[:3],
                             ("1.1", 200, "hello h2"))
            version, code, _, _ = curl("--http2-prior-knowledge", f"http://127.0.0.1:{port}/")
            self.assertNotEqual(version, "2")

    def test_a_malformed_frame_ends_only_its_connection(self):
        with Rift() as rift:
            port = self.imposter(rift)
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                # The preface, then a frame header claiming a 16 MiB HEADERS frame on stream 0.
                s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
                          + b"\xff\xff\xff\x01\x04\x00\x00\x00\x00" + b"\x00" * 64)
                data = b""
                while True:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                self.assertIn(7, frame_types(data))  # a GOAWAY before the close
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\nnot a frame at all" * 3)
                while s.recv(4096):
                    pass
            self.assertEqual(curl("--http2-prior-knowledge", f"http://127.0.0.1:{port}/")[:3],
                             ("2", 200, "hello h2"))
            status, _, body = request(port, "GET", "/")
            self.assertEqual((status, body), (200, b"hello h2"))


if __name__ == "__main__":
    unittest.main()
