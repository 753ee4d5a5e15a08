"""A private redis-server for end-to-end tests: loopback only, nothing saved, stopped with the
test. stop() and start() again on the same port make an outage and a recovery."""
import shutil
import socket

import rift_process
from rift_process import free_port


def ping(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            answer = sock.recv(64)
            # +PONG, or -NOAUTH from a server that wants a password: either way it is up
            return answer.startswith(b"+PONG") or answer.startswith(b"-NOAUTH")
    except OSError:
        return False


class RedisServer:
    def __init__(self, password=None):
        if not shutil.which("redis-server"):
            raise AssertionError("redis-server is not installed (tools/install-deps installs it)")
        self.port = free_port()
        self.password = password
        self.server = None

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}"

    def start(self):
        argv = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no"]
        if self.password:
            argv += ["--requirepass", self.password]
        self.server = rift_process.ServerProcess(argv, name="redis-server").start()
        self.server.wait_ready(lambda: ping(self.port), timeout=10, interval=0.05)
        return self

    def stop(self):
        if self.server:
            self.server.stop()
            self.server = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
