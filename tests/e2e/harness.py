"""Starts the real `rift` binary and talks to it over real sockets (standard library only)."""
import json
import os
import signal
import socket
import subprocess
import tempfile
import time

RIFT = os.environ.get("RIFT_BIN", "build/bin/rift")


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Rift:
    """`rift start` (or any binary taking its options: a frozen mock from `riftc compile`)."""

    def __init__(self, *args, cwd=None, binary=None):
        self.binary = binary or RIFT
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="rift-e2e-")
        self.args = list(args)
        self.cwd = cwd or self.dir
        self.process = None
        self.expect_exit = False  # set when a test stops the server itself (rift stop)

    def __enter__(self):
        cmd = [os.path.abspath(self.binary), "start", "--port", str(self.port), "--nologfile",
               "--pidfile", os.path.join(self.dir, "rift.pid"), "--threads", "2", *self.args]
        self.log = open(os.path.join(self.dir, "out.log"), "wb")
        self.process = subprocess.Popen(cmd, cwd=self.cwd, stdout=self.log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        deadline = time.time() + 20
        while time.time() < deadline:
            if self.process.poll() is not None:
                with open(self.log.name) as log:
                    raise RuntimeError("rift exited: " + log.read())
            try:
                status, _, _ = self.admin("GET", "/")
                if status == 200:
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("rift did not start")

    def __exit__(self, *exc):
        code = self.process.poll() if self.process else 0
        if self.process and code is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                code = self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
                code = "killed after SIGTERM timeout"
        self.log.close()
        with open(self.log.name, errors="replace") as log:
            output = log.read()
        # A sanitizer report, a crash or an unclean exit fails the test that started the server.
        for marker in ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"):
            if marker in output:
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


def raw(port, data, timeout=5.0, read_until_close=True):
    """Sends raw bytes and returns everything the server writes until it closes (or times out)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
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


def request(port, method, path, body=b"", headers=None):
    lines = [f"{method} {path} HTTP/1.1", f"Host: localhost:{port}", "Connection: close"]
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    if body:
        lines.append(f"Content-Length: {len(body)}")
    data = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
    status, hdrs, payload, _ = parse_response(raw(port, data))
    return status, hdrs, payload
