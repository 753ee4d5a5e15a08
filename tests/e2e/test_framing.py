"""Framing and request targets over real sockets, beyond what the differential corpus compares
with Mountebank (tests/diff/cases/wire_*.json): where Rift is stricter on purpose, or serves what
Mountebank cannot (docs/limits.md).
"""
import socket
import ssl
import time
import unittest

from harness import Rift, raw, request

STUB = {"protocol": "http", "stubs": [{"responses": [{"is": {"body": "ok"}}]}]}


class ChunkSizeTest(unittest.TestCase):
    def test_a_chunk_declared_past_the_body_limit_gets_413_before_its_data(self):
        # Mountebank waits for the announced bytes; Rift refuses the size as soon as it is read.
        with Rift("--maxBodyBytes", "4096") as rift:
            port = rift.create(STUB)["port"]
            for size in (b"1001", b"ffffffffffffff"):
                started = time.monotonic()
                answer = raw(port, b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                                   b"\r\n" + size + b"\r\n", timeout=10)
                self.assertTrue(answer.startswith(b"HTTP/1.1 413 Payload Too Large\r\n"), answer)
                self.assertLess(time.monotonic() - started, 5, "the 413 waited for the data")
            # Chunks that together pass the limit are refused at the first one that does.
            answer = raw(port, b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                               b"800\r\n" + b"a" * 2048 + b"\r\n801\r\n", timeout=10)
            self.assertTrue(answer.startswith(b"HTTP/1.1 413 "), answer)
            # Within the limit, chunked bodies are served.
            answer = raw(port, b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                               b"Connection: close\r\n\r\n800\r\n" + b"a" * 2048 + b"\r\n0\r\n\r\n")
            self.assertTrue(answer.startswith(b"HTTP/1.1 200 OK\r\n"), answer)
            self.assertEqual(request(port, "GET", "/")[::2], (200, b"ok"))

    def test_a_chunk_size_beyond_64_bits_is_400(self):
        with Rift() as rift:
            port = rift.create(STUB)["port"]
            answer = raw(port, b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                               b"1ffffffffffffffff\r\n", timeout=10)
            self.assertTrue(answer.startswith(b"HTTP/1.1 400 Bad Request\r\n"), answer)


class ConnectTest(unittest.TestCase):
    def test_connect_tunnels_to_the_imposter_and_keeps_serving(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "recordRequests": True, "stubs": [
                {"responses": [{"is": {"body": "ok"}}]}]})["port"]
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                sock.sendall(f"CONNECT localhost:{port} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                self.assertEqual(sock.recv(65536), b"HTTP/1.1 200 Connection established\r\n\r\n")
                for _ in range(2):  # kept alive inside the tunnel
                    sock.sendall(b"GET /inside HTTP/1.1\r\nHost: x\r\n\r\n")
                    self.assertTrue(sock.recv(65536).startswith(b"HTTP/1.1 200 OK\r\n"))
            _, _, imposter = rift.admin("GET", f"/imposters/{port}")
            self.assertEqual([r["path"] for r in imposter["requests"]], ["/inside", "/inside"])

    def test_connect_on_https_imposters_and_the_admin_api_closes(self):
        with Rift() as rift:
            port = rift.create({"protocol": "https", "stubs": STUB["stubs"]})["port"]
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
            with context.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=10)) as s:
                s.sendall(b"CONNECT localhost:443 HTTP/1.1\r\nHost: x\r\n\r\n")
                received = b""
                try:
                    while chunk := s.recv(65536):
                        received += chunk
                except (ConnectionResetError, ssl.SSLError):
                    pass
                self.assertEqual(received, b"")
            self.assertEqual(raw(rift.port, b"CONNECT localhost:1 HTTP/1.1\r\nHost: x\r\n\r\n"), b"")
            self.assertEqual(rift.admin("GET", "/imposters")[0], 200)


if __name__ == "__main__":
    unittest.main()
