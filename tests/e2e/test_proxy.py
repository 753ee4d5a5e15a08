"""Proxy responses against real origins: pooled origin connections, stale ones replaced,
recordings under concurrency, origins that frame bodies by closing (docs/proxy.md).
The differential corpus (tests/diff/cases/proxy_*) compares the recordings with Mountebank's."""
import concurrent.futures
import os
import tempfile
import socket
import threading
import unittest

from harness import Rift, parse_response


def complete(data):
    """Whether `data` holds one whole response (relayed origin answers may keep the connection)."""
    head, found, rest = data.partition(b"\r\n\r\n")
    if not found:
        return False
    headers = head.lower()
    if b"content-length:" in headers:
        length = int(headers.split(b"content-length:")[1].split(b"\r\n")[0])
        return len(rest) >= length
    return b"transfer-encoding: chunked" in headers and rest.endswith(b"0\r\n\r\n")


def keep_alive_get(port, path):
    """A request without `Connection: close`, so the proxy may keep its origin connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        client.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n".encode())
        data = b""
        while not complete(data):
            chunk = client.recv(65536)
            if not chunk:
                break
            data += chunk
    status, headers, body, _ = parse_response(data)
    return status, body


class ScriptedServer:
    """A raw TCP server on a free port that answers each connection's first read with answer()."""

    def __init__(self):
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:
                return
            with connection:
                connection.sendall(self.answer(connection.recv(65536)))

    def close(self):
        self.server.close()


class CloseDelimitedOrigin(ScriptedServer):
    """An HTTP/1.0-style origin: no Content-Length, the body ends when the connection does."""

    def answer(self, request):
        return b"HTTP/1.0 203 Partial\r\nX-Origin: raw\r\n\r\nuntil close"


class ForwardProxy(ScriptedServer):
    """Stands in for the http_proxy/https_proxy a proxy goes through: keeps each request's
    first line and answers it itself."""

    def __init__(self):
        self.lines = []
        super().__init__()

    def answer(self, request):
        head = request.split(b"\r\n")[0].decode()
        self.lines.append(head)
        if head.startswith("CONNECT"):
            return b"HTTP/1.1 200 Connection established\r\n\r\n"
        return b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\nConnection: close\r\n\r\nvia proxy"


class ProxyTest(unittest.TestCase):
    def proxy_to(self, rift, target, mode="proxyTransparent", generators=None):
        proxy = {"to": target, "mode": mode}
        if generators is not None:
            proxy["predicateGenerators"] = generators
        return rift.create({"protocol": "http", "stubs": [{"responses": [{"proxy": proxy}]}]})["port"]

    def origin(self, rift, port=None, body="origin"):
        # Keep-alive, or the origin closes every connection as Mountebank's default does.
        imposter = {"protocol": "http", "recordRequests": True, "stubs": [{"responses": [
            {"is": {"headers": {"Connection": "keep-alive"}, "body": body}}]}]}
        if port:
            imposter["port"] = port
        return rift.create(imposter)["port"]

    def test_origin_connections_are_reused(self):
        with Rift("--threads", "1") as rift:  # one worker loop, so one pool
            origin = self.origin(rift)
            proxy = self.proxy_to(rift, f"http://localhost:{origin}")
            for _ in range(3):
                self.assertEqual(keep_alive_get(proxy, "/x"), (200, b"origin"))
            requests = rift.admin("GET", f"/imposters/{origin}")[2]["requests"]
            self.assertEqual(len(requests), 3)
            self.assertEqual(len({r["requestFrom"] for r in requests}), 1, requests)

    def test_a_pooled_connection_the_origin_closed_is_replaced(self):
        with Rift("--threads", "1") as rift:
            origin = self.origin(rift, body="before")
            proxy = self.proxy_to(rift, f"http://localhost:{origin}")
            self.assertEqual(keep_alive_get(proxy, "/x"), (200, b"before"))
            rift.admin("DELETE", f"/imposters/{origin}")  # closes the pooled connection
            self.origin(rift, port=origin, body="after")
            self.assertEqual(keep_alive_get(proxy, "/x"), (200, b"after"))

    def test_concurrent_requests_are_all_recorded(self):
        with Rift() as rift:
            origin = self.origin(rift)
            proxy = self.proxy_to(rift, f"http://localhost:{origin}", "proxyAlways",
                                  [{"matches": {"path": True}}])
            paths = [f"/p{i % 4}" for i in range(24)]
            with concurrent.futures.ThreadPoolExecutor(8) as pool:
                answers = list(pool.map(lambda path: keep_alive_get(proxy, path), paths))
            self.assertEqual(answers, [(200, b"origin")] * len(paths))
            stubs = rift.admin("GET", f"/imposters/{proxy}")[2]["stubs"]
            self.assertIn("proxy", stubs[0]["responses"][0])
            recorded = {s["predicates"][0]["deepEquals"]["path"]: len(s["responses"]) for s in stubs[1:]}
            self.assertEqual(recorded, {"/p0": 6, "/p1": 6, "/p2": 6, "/p3": 6})

    def test_a_close_delimited_origin_body_is_captured(self):
        origin = CloseDelimitedOrigin()
        try:
            with Rift() as rift:
                proxy = self.proxy_to(rift, f"http://127.0.0.1:{origin.port}", "proxyOnce")
                self.assertEqual(keep_alive_get(proxy, "/x"), (203, b"until close"))
                recorded = rift.admin("GET", f"/imposters/{proxy}")[2]["stubs"][0]["responses"][0]["is"]
                self.assertEqual(recorded["statusCode"], 203)
                self.assertEqual(recorded["headers"], {"X-Origin": "raw"})
                self.assertEqual(recorded["body"], "until close")
                origin.close()
                self.assertEqual(keep_alive_get(proxy, "/x"), (203, b"until close"))  # replayed
        finally:
            origin.close()

    def test_recordings_are_saved_to_the_datadir(self):
        with tempfile.TemporaryDirectory() as datadir:
            with Rift("--datadir", datadir) as rift:
                origin = self.origin(rift)
                proxy = self.proxy_to(rift, f"http://localhost:{origin}", "proxyOnce",
                                      [{"matches": {"path": True}}])
                self.assertEqual(keep_alive_get(proxy, "/saved"), (200, b"origin"))
            with Rift("--datadir", datadir) as rift:
                stubs = rift.admin("GET", f"/imposters/{proxy}")[2]["stubs"]
                self.assertEqual(stubs[0]["predicates"], [{"deepEquals": {"path": "/saved"}}])
                self.assertEqual(stubs[0]["responses"][0]["is"]["body"], "origin")
                self.assertIn("proxy", stubs[1]["responses"][0])

    def test_http_proxy_and_https_proxy_environment_variables_are_honoured(self):
        forward = ForwardProxy()
        saved = {name: os.environ.get(name) for name in ("http_proxy", "https_proxy")}
        os.environ["http_proxy"] = os.environ["https_proxy"] = f"http://127.0.0.1:{forward.port}"
        try:
            with Rift() as rift:
                plain = self.proxy_to(rift, "http://origin.invalid:8080")
                self.assertEqual(keep_alive_get(plain, "/x?q=1"), (200, b"via proxy"))
                secure = self.proxy_to(rift, "https://origin.invalid")
                status, _ = keep_alive_get(secure, "/y")
                self.assertEqual(status, 500)  # the stand-in tunnels nothing: no TLS handshake
            self.assertEqual(forward.lines, ["GET http://origin.invalid:8080/x?q=1 HTTP/1.1",
                                             "CONNECT origin.invalid:443 HTTP/1.1"])
        finally:
            forward.close()
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


if __name__ == "__main__":
    unittest.main()
