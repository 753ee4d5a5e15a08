"""The three carriers of the admin API and of imposter traffic: embedded, spawn, connect."""

from __future__ import annotations

import ctypes
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Optional, Sequence, Union
from urllib.parse import urlsplit

from . import _ffi
from .errors import RiftException, RiftLoadError, RiftStartError

Headers = Union[Mapping[str, str], Sequence[Sequence[str]], None]
Body = Union[bytes, str, None]


@dataclass
class Response:
    """An HTTP answer: status, headers as [name, value] pairs (repeats kept), body bytes."""

    status: int
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes = b""

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def json(self) -> Any:
        return json.loads(self.body)

    def header(self, name: str) -> Optional[str]:
        """The first value of a header, by case-insensitive name."""
        lname = name.lower()
        for k, v in self.headers:
            if k.lower() == lname:
                return v
        return None


def _header_pairs(headers: Headers) -> list[tuple[str, str]]:
    if not headers:
        return []
    if isinstance(headers, Mapping):
        return [(str(k), str(v)) for k, v in headers.items()]
    return [(str(k), str(v)) for k, v in headers]


def _body_bytes(body: Body) -> bytes:
    if body is None:
        return b""
    return body.encode("utf-8") if isinstance(body, str) else bytes(body)


class Transport:
    """One carrier. admin() reaches the admin API; imposter() reaches an imposter's port."""

    name = "?"

    def admin(self, method: str, target: str, body: Body = None, headers: Headers = None) -> Response:
        raise NotImplementedError

    def imposter(self, port: int, method: str, path: str, body: Body = None,
                 headers: Headers = None, keep_alive: bool = True) -> Response:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class _RWLock:
    """Calls share it; close takes it alone (rift_engine_close must not race other calls)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._readers = 0
        self._writer = False

    def acquire_read(self) -> None:
        with self._cond:
            while self._writer:
                self._cond.wait()
            self._readers += 1

    def release_read(self) -> None:
        with self._cond:
            self._readers -= 1
            if self._readers == 0:
                self._cond.notify_all()

    def acquire_write(self) -> None:
        with self._cond:
            while self._writer or self._readers:
                self._cond.wait()
            self._writer = True

    def release_write(self) -> None:
        with self._cond:
            self._writer = False
            self._cond.notify_all()


class EmbeddedTransport(Transport):
    """librift in this process: every call is rift_request; imposters via /__rift/<port><path>."""

    name = "embedded"

    def __init__(self, options: Optional[Mapping[str, Any]] = None, library: Optional[str] = None):
        self.lib = _ffi.load(library)
        self.options = dict(options or {})
        self._lock = _RWLock()
        self._engine: Optional[int] = None
        engine = ctypes.c_void_p()
        err = ctypes.c_void_p()
        status = self.lib.rift_engine_open(json.dumps(self.options).encode(), ctypes.byref(engine),
                                           ctypes.byref(err))
        if status != 0:
            raise self.lib.error(status, err)
        self.lib.take_string(err)
        self._engine = engine.value
        self.admin_url: Optional[str] = None

    @property
    def closed(self) -> bool:
        return self._engine is None

    def request(self, method: str, target: str, body: Body = None,
                headers: Headers = None) -> Response:
        lib = self.lib
        payload = _body_bytes(body)
        pairs = _header_pairs(headers)
        headers_json = json.dumps([list(p) for p in pairs]).encode() if pairs else None
        status = ctypes.c_int32()
        out_body, out_headers, err = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
        body_len = ctypes.c_size_t()
        self._lock.acquire_read()
        try:
            if self._engine is None:
                raise RiftException("the embedded engine is closed")
            rc = lib.rift_request(self._engine, method.encode(), target.encode(), headers_json,
                                  payload if payload else None, len(payload),
                                  ctypes.byref(status), ctypes.byref(out_body),
                                  ctypes.byref(body_len), ctypes.byref(out_headers),
                                  ctypes.byref(err))
        finally:
            self._lock.release_read()
        if rc != 0:
            lib.take_string(out_body)
            lib.take_string(out_headers)
            raise lib.error(rc, err)
        lib.take_string(err)
        data = lib.take_string(out_body, body_len.value) or b""
        raw_headers = lib.take_string(out_headers)
        pairs_out = [(k, v) for k, v in json.loads(raw_headers)] if raw_headers else []
        return Response(status.value, pairs_out, data)

    def admin(self, method, target, body=None, headers=None) -> Response:
        return self.request(method, target, body, headers)

    def imposter(self, port, method, path, body=None, headers=None, keep_alive=True) -> Response:
        if not path.startswith("/"):
            path = "/" + path
        return self.request(method, f"/__rift/{int(port)}{path}", body, headers)

    def serve_admin(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Binds the real admin API over HTTP (once per engine); returns its URL."""
        out, err = ctypes.c_void_p(), ctypes.c_void_p()
        self._lock.acquire_read()
        try:
            if self._engine is None:
                raise RiftException("the embedded engine is closed")
            rc = self.lib.rift_serve_admin(self._engine,
                                           json.dumps({"host": host, "port": port}).encode(),
                                           ctypes.byref(out), ctypes.byref(err))
        finally:
            self._lock.release_read()
        if rc != 0:
            self.lib.take_string(out)
            raise self.lib.error(rc, err)
        self.lib.take_string(err)
        self.admin_url = json.loads(self.lib.take_string(out))["adminUrl"]
        return self.admin_url

    def close(self) -> None:
        self._lock.acquire_write()
        try:
            engine, self._engine = self._engine, None
        finally:
            self._lock.release_write()
        if engine is not None:
            self.lib.rift_engine_close(engine)


class _HttpClient:
    """HTTP/1.1 with http.client; one kept-alive connection per thread and host:port."""

    def __init__(self, timeout: float = 30.0):
        self.timeout = timeout
        self._local = threading.local()
        self._all: list[http.client.HTTPConnection] = []
        self._all_lock = threading.Lock()

    def _conn(self, host: str, port: int) -> tuple[http.client.HTTPConnection, bool]:
        pool = getattr(self._local, "pool", None)
        if pool is None:
            pool = self._local.pool = {}
        conn = pool.get((host, port))
        if conn is not None and conn.sock is not None:
            return conn, True
        conn = http.client.HTTPConnection(host, port, timeout=self.timeout)
        pool[(host, port)] = conn
        with self._all_lock:
            self._all.append(conn)
        return conn, False

    def request(self, host: str, port: int, method: str, target: str, body: Body = None,
                headers: Headers = None, keep_alive: bool = True) -> Response:
        payload = _body_bytes(body)
        pairs = _header_pairs(headers)
        names = {k.lower() for k, _ in pairs}
        for attempt in (0, 1):
            if keep_alive:
                conn, reused = self._conn(host, port)
            else:
                conn, reused = http.client.HTTPConnection(host, port, timeout=self.timeout), False
            try:
                conn.putrequest(method, target, skip_host="host" in names,
                                skip_accept_encoding=True)
                for k, v in pairs:
                    conn.putheader(k, v)
                if payload or method.upper() in ("POST", "PUT", "PATCH"):
                    if "content-length" not in names:
                        conn.putheader("Content-Length", str(len(payload)))
                conn.endheaders(payload if payload else None)
                resp = conn.getresponse()
                data = resp.read()
                result = Response(resp.status, list(resp.getheaders()), data)
                if not keep_alive:
                    conn.close()
                return result
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                conn.close()
                # An idle kept-alive connection the server had closed: retry once, fresh.
                if attempt == 0 and reused:
                    continue
                raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        with self._all_lock:
            for conn in self._all:
                conn.close()
            self._all.clear()


class HttpTransport(Transport):
    """A Rift server over HTTP: the admin API at base_url, imposters at host:port."""

    name = "connect"

    def __init__(self, base_url: str, timeout: float = 30.0):
        parts = urlsplit(base_url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"not an http:// URL: {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self.host = parts.hostname
        self.port = parts.port or 80
        self.prefix = parts.path.rstrip("/")
        self.http = _HttpClient(timeout)
        self.admin_url = self.base_url

    def admin(self, method, target, body=None, headers=None) -> Response:
        return self.http.request(self.host, self.port, method, self.prefix + target, body, headers)

    def imposter(self, port, method, path, body=None, headers=None, keep_alive=True) -> Response:
        if not path.startswith("/"):
            path = "/" + path
        return self.http.request(self.host, int(port), method, path, body, headers, keep_alive)

    def close(self) -> None:
        self.http.close()


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def locate_binary(explicit: Optional[str] = None) -> str:
    """The rift binary: the argument, then RIFT_BIN, then PATH."""
    for candidate in (explicit, os.environ.get("RIFT_BIN")):
        if candidate:
            if not (os.path.isfile(candidate) and os.access(candidate, os.X_OK)):
                raise RiftStartError(f"{candidate} is not an executable file")
            return candidate
    found = shutil.which("rift")
    if not found:
        raise RiftStartError("rift not found: set RIFT_BIN or put rift on PATH")
    return found


class RiftProcess:
    """A `rift start` child on 127.0.0.1:<free port>; stop() sends SIGTERM and waits."""

    def __init__(self, binary: Optional[str] = None, port: Optional[int] = None,
                 allow_injection: bool = True, args: Iterable[str] = (),
                 start_timeout: float = 30.0):
        self.binary = locate_binary(binary)
        self.port = port or free_port()
        self.workdir = tempfile.mkdtemp(prefix="rift-sdk-")
        self.log_path = os.path.join(self.workdir, "rift.log")
        cmd = [self.binary, "start", "--port", str(self.port), "--host", "127.0.0.1",
               "--nologfile", "--pidfile", os.path.join(self.workdir, "rift.pid")]
        if allow_injection:
            cmd.append("--allowInjection")
        cmd.extend(args)
        self.command = cmd
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=self._log,
                                        stderr=subprocess.STDOUT, cwd=self.workdir)
        self.url = f"http://127.0.0.1:{self.port}"
        try:
            self._wait_ready(start_timeout)
        except BaseException:
            self.stop()
            raise

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RiftStartError(f"rift exited with {self.process.returncode} before "
                                     f"answering: {self.log_tail()}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
                conn.request("GET", "/")
                if conn.getresponse().status == 200:
                    conn.close()
                    return
                conn.close()
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RiftStartError(f"rift did not answer GET / on port {self.port} within "
                                     f"{timeout}s: {self.log_tail()}")
            time.sleep(0.02)  # poll interval of the readiness check, not a synchronisation

    def log_tail(self, n: int = 2000) -> str:
        try:
            with open(self.log_path, "rb") as f:
                return f.read()[-n:].decode("utf-8", "replace")
        except OSError:
            return ""

    def stop(self, timeout: float = 15.0) -> Optional[int]:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if not self._log.closed:
            self._log.close()
        shutil.rmtree(self.workdir, ignore_errors=True)
        return self.process.returncode


class SpawnTransport(HttpTransport):
    """Starts the rift binary on a free port and talks HTTP to it; close() stops it."""

    name = "spawn"

    def __init__(self, binary: Optional[str] = None, allow_injection: bool = True,
                 args: Iterable[str] = (), start_timeout: float = 30.0):
        self.process = RiftProcess(binary, allow_injection=allow_injection, args=args,
                                   start_timeout=start_timeout)
        super().__init__(self.process.url)

    def close(self) -> None:
        super().close()
        self.process.stop()


__all__ = ["Response", "Transport", "EmbeddedTransport", "HttpTransport", "SpawnTransport",
           "RiftProcess", "free_port", "locate_binary", "RiftLoadError"]
