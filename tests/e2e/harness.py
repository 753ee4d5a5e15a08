"""Starts the real `rift` binary and talks to it over real sockets (standard library only)."""
import json
import os
import socket
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools",
                                "pylib"))
import rift_process  # noqa: E402  (tools/pylib/rift_process.py: server processes, ports)
from rift_process import free_port, port_free, report_marker  # noqa: E402,F401  (for the tests)

RIFT = os.environ.get("RIFT_BIN", "build/bin/rift")


class Rift:
    """`rift start` (or any binary taking its options: a frozen mock from `riftc compile`)."""

    def __init__(self, *args, cwd=None, binary=None):
        self.binary = binary or RIFT
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="rift-e2e-")
        self.args = list(args)
        self.cwd = cwd or self.dir
        self.server = None  # the rift_process.ServerProcess, once entered
        self.expect_exit = False  # set when a test stops the server itself (rift stop)

    @property
    def process(self):
        """The server's subprocess.Popen."""
        return self.server.proc if self.server else None

    @property
    def log(self):
        """The server's log file (its output), open while it runs."""
        return self.server.log if self.server else None

    def __enter__(self):
        cmd = [os.path.abspath(self.binary), "start", "--port", str(self.port), "--nologfile",
               "--pidfile", os.path.join(self.dir, "rift.pid"), "--threads", "2", *self.args]
        self.server = rift_process.ServerProcess(cmd, workdir=self.dir, cwd=self.cwd,
                                                 log_name="out.log", name="rift",
                                                 grace=10).start()
        # 401: up, behind --apikey.
        self.server.wait_ready(lambda: rift_process.http_status(self.port, timeout=5) in (200, 401),
                               timeout=20, interval=0.05)
        return self

    def __exit__(self, *exc):
        if not self.server:
            return
        code = self.server.stop()
        if self.server.killed:
            code = "killed after SIGTERM timeout"
        output = self.server.output()
        # A sanitizer report, a crash or an unclean exit fails the test that started the server.
        marker = report_marker(output)
        if marker:
            raise AssertionError(f"rift reported '{marker}':\n{output[-4000:]}")
        if code not in (0, None) and exc[0] is None and not self.expect_exit:
            raise AssertionError(f"rift exited with {code}:\n{output[-4000:]}")

    def admin(self, method, path, body=None, headers=None):
        payload = b"" if body is None else (body if isinstance(body, (bytes, str)) else json.dumps(body))
        if isinstance(payload, str):
            payload = payload.encode()
        status, hdrs, data = request(self.port, method, path, payload, headers or {})
        try:
            return status, hdrs, json.loads(data) if data else None
        except ValueError:
            return status, hdrs, data

    def create(self, imposter):
        status, _, body = self.admin("POST", "/imposters", imposter)
        assert status == 201, (status, body)
        return body


def raw(port, data, timeout=5.0, read_until_close=True, half_close=False):
    """Sends raw bytes and returns everything the server writes until it closes (or times out).
    half_close: then shut the sending side, as a client that sends nothing more (a kept-alive
    connection then ends once the server has answered what it got)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        if half_close:
            s.shutdown(socket.SHUT_WR)
        chunks = []
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                if not read_until_close:
                    break
        except socket.timeout:
            pass
        except ConnectionResetError:
            chunks.append(b"<RST>")
        return b"".join(chunks)


def parse_response(data):
    """Splits one HTTP response (Content-Length or chunked framed); returns (status, headers, body, rest)."""
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), value.strip())
    if "content-length" in headers:
        n = int(headers["content-length"])
        return status, headers, rest[:n], rest[n:]
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        while True:
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line, 16)
            if size == 0:
                rest = rest[2:]
                break
            body += rest[:size]
            rest = rest[size + 2:]
        return status, headers, body, rest
    return status, headers, rest, b""


def request(port, method, path, body=b"", headers=None, timeout=5.0):
    lines = [f"{method} {path} HTTP/1.1", "Connection: close"]
    if not any(name.lower() == "host" for name in (headers or {})):
        lines.insert(1, f"Host: localhost:{port}")
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    if body:
        lines.append(f"Content-Length: {len(body)}")
    data = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
    status, hdrs, payload, _ = parse_response(raw(port, data, timeout=timeout))
    return status, hdrs, payload
