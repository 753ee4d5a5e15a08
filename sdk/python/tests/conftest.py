"""Shared fixtures: a `rift` server started with a plain subprocess (for the connect transport)
and one client per transport."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from rift import Rift
from rift.transport import locate_binary

SDK_DIR = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PlainServer:
    """`rift start` run by the test itself (not by the SDK), for the connect transport."""

    def __init__(self) -> None:
        self.port = _free_port()
        self.dir = tempfile.mkdtemp(prefix="rift-connect-")
        self.log = open(os.path.join(self.dir, "rift.log"), "wb")
        self.proc = subprocess.Popen(
            [locate_binary(), "start", "--port", str(self.port), "--host", "127.0.0.1",
             "--allowInjection", "--nologfile", "--pidfile", os.path.join(self.dir, "rift.pid")],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=self.dir)
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 30
        while True:
            assert self.proc.poll() is None, f"rift exited with {self.proc.returncode}"
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
                conn.request("GET", "/")
                ready = conn.getresponse().status == 200
                conn.close()
                if ready:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "rift did not answer GET / within 30s"
            time.sleep(0.02)  # readiness poll interval

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(15)
        self.log.close()


@pytest.fixture(scope="session")
def plain_server():
    server = PlainServer()
    try:
        yield server
    finally:
        server.stop()


def open_transport(name: str, request: pytest.FixtureRequest) -> Rift:
    if name == "embedded":
        return Rift.embedded()
    if name == "spawn":
        return Rift.spawn()
    return Rift.connect(request.getfixturevalue("plain_server").url)


@pytest.fixture(scope="session", params=["embedded", "spawn", "connect"])
def any_rift(request):
    """The same tests on every transport."""
    client = open_transport(request.param, request)
    try:
        yield client
    finally:
        client.close()
