"""Timeouts, the connection cap and keep-alive by default, over real sockets (docs/limits.md).

Short timeouts are set on the command line; each test checks that the slow client is answered
408 (or closed) while a bystander on the same imposter is served normally meanwhile.
"""
import socket
import time
import unittest

from harness import Rift, request

STUB = {"protocol": "http", "stubs": [{"responses": [{"is": {"body": "ok"}}]}]}


def connect(port):
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def read_until_closed(sock, limit=20.0):
    """Everything the server writes until it closes; fails the test if it never does."""
    data = b""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        except ConnectionResetError:
            return data + b"<RST>"
        if not chunk:
            return data
        data += chunk
    raise AssertionError(f"the server kept the connection open for {limit} s: {data[:200]!r}")


class TimeoutTest(unittest.TestCase):
    def assert_served(self, port):
        self.assertEqual(request(port, "GET", "/")[::2], (200, b"ok"))

    def test_slow_headers_get_408_and_others_are_served(self):
        with Rift("--headersTimeout", "1000") as rift:
            port = rift.create(STUB)["port"]
            slow = connect(port)
            slow.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            for _ in range(3):
                self.assert_served(port)
            answer = read_until_closed(slow)
            self.assertTrue(answer.startswith(b"HTTP/1.1 408 Request Timeout\r\n"), answer)
            self.assert_served(port)

    def test_a_header_byte_every_half_second_does_not_keep_the_connection(self):
        with Rift("--headersTimeout", "1500") as rift:
            port = rift.create(STUB)["port"]
            slow = connect(port)
            slow.sendall(b"GET / HTTP/1.1\r\n")
            started = time.monotonic()
            closed = False
            while time.monotonic() - started < 20:
                try:
                    slow.sendall(b"X-Slow: 1\r\n")
                except (BrokenPipeError, ConnectionResetError):
                    closed = True
                    break
                slow.settimeout(0.5)
                try:
                    data = slow.recv(65536)
                    if data.startswith(b"HTTP/1.1 408") or not data:
                        closed = True
                        break
                except socket.timeout:
                    pass
            self.assertTrue(closed, "a trickling client kept its connection")
            self.assert_served(port)

    def test_silent_connections_are_closed(self):
        with Rift("--headersTimeout", "1000") as rift:
            port = rift.create(STUB)["port"]
            silent = connect(port)
            self.assertEqual(read_until_closed(silent), b"")  # nothing to answer: just closed
            silent.close()
            self.assert_served(port)

    def test_slow_bodies_get_408(self):
        with Rift("--requestTimeout", "1500") as rift:
            port = rift.create(STUB)["port"]
            slow = connect(port)
            slow.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc")
            self.assert_served(port)
            answer = read_until_closed(slow)
            self.assertTrue(answer.startswith(b"HTTP/1.1 408 "), answer)

    def test_idle_kept_alive_connections_are_closed_after_the_keep_alive_timeout(self):
        with Rift("--keepAliveTimeout", "1000") as rift:
            port = rift.create(STUB)["port"]
            client = connect(port)
            for _ in range(3):  # kept alive between requests sent at once
                client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                head = client.recv(65536)
                self.assertTrue(head.startswith(b"HTTP/1.1 200 OK\r\n"), head)
                self.assertNotIn(b"Connection: close", head)
            self.assertEqual(read_until_closed(client), b"")
            self.assert_served(port)

    def test_a_slow_reply_is_not_a_slow_client(self):
        # The time the server takes (a wait behavior) never counts against the client.
        with Rift("--requestTimeout", "1000", "--headersTimeout", "1000", "--keepAliveTimeout", "1000") as rift:
            port = rift.create({"protocol": "http", "stubs": [
                {"responses": [{"is": {"body": "late"}, "behaviors": [{"wait": 3500}]}]}]})["port"]
            self.assertEqual(request(port, "GET", "/")[::2], (200, b"late"))


class ConnectionCapTest(unittest.TestCase):
    def test_connections_past_the_cap_are_closed_and_places_come_back(self):
        with Rift("--maxConnections", "3") as rift:
            port = rift.create(STUB)["port"]
            held = [connect(port) for _ in range(3)]
            for sock in held:  # each is open and served
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                self.assertTrue(sock.recv(65536).startswith(b"HTTP/1.1 200"))
            extra = connect(port)
            extra.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            self.assertIn(read_until_closed(extra), (b"", b"<RST>"))
            status, _, _ = rift.admin("GET", "/imposters")  # the admin port is not counted
            self.assertEqual(status, 200)
            held.pop().close()
            deadline = time.monotonic() + 10
            while True:  # the place is given back once the server has seen the close
                try:
                    if request(port, "GET", "/")[::2] == (200, b"ok"):
                        break
                except (ConnectionError, ValueError, IndexError):
                    pass
                self.assertLess(time.monotonic(), deadline, "the freed place never came back")
                time.sleep(0.05)


class FramingDefaultTest(unittest.TestCase):
    def test_keep_alive_by_default_and_mountebank_framing_one_flag_away(self):
        for flags, closes in (((), False), (("--mountebankFraming",), True)):
            with Rift(*flags) as rift:
                port = rift.create(STUB)["port"]
                client = connect(port)
                client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                head = client.recv(65536)
                self.assertEqual(b"\r\nConnection: close\r\n" in head, closes, (flags, head))
                if closes:
                    self.assertEqual(read_until_closed(client), b"")
                else:  # open until the client asks to close, then closed after the reply
                    client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    self.assertTrue(read_until_closed(client).startswith(b"HTTP/1.1 200 OK\r\n"))
                client.close()


if __name__ == "__main__":
    unittest.main()
