"""The admin event stream over real sockets (docs/journal.md#event-stream): Server-Sent Events on
GET /events and GET /imposters/:id/savedRequests/stream, read by a client that decodes the
chunked body frame by frame as it arrives."""
import json
import socket
import time
import unittest

from harness import Rift, request


class EventStream:
    """One subscriber: opens the stream, then hands out its frames one at a time."""

    def __init__(self, port, target, headers=None, method="GET"):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        self.sock.sendall(f"{method} {target} HTTP/1.1\r\nHost: x\r\n{extra}\r\n".encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self._receive()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode().split("\r\n")
        self.status = int(lines[0].split()[1])
        self.headers = {k.lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:])}
        self.text = b""  # de-chunked body not yet split into frames

    def _receive(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise EOFError("the server closed the stream")
        self.buffer += chunk

    def _dechunk(self):
        while b"\r\n" in self.buffer:
            size_line, rest = self.buffer.split(b"\r\n", 1)
            size = int(size_line, 16)
            if len(rest) < size + 2:
                return
            self.text += rest[:size]
            assert rest[size:size + 2] == b"\r\n", rest[:size + 2]
            self.buffer = rest[size + 2:]

    def frame(self):
        """The next frame as {"event", "id", "data"} (data parsed), or {"comment"}."""
        while b"\n\n" not in self.text:
            self._dechunk()
            if b"\n\n" not in self.text:
                self._receive()
        raw, self.text = self.text.split(b"\n\n", 1)
        frame = {}
        for line in raw.decode().split("\n"):
            key, _, value = line.partition(": ")
            if key == "":
                frame["comment"] = value
            elif key == "data":
                frame["data"] = json.loads(value)
                frame["data_text"] = value
            else:
                frame[key] = value
        return frame

    def close(self):
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def imposter_event(action, port=None):
    data = {"action": action}
    if port is not None:
        data["port"] = port
    return data


class EventStreamTest(unittest.TestCase):
    def test_lifecycle_and_requests_in_order(self):
        with Rift() as rift, EventStream(rift.port, "/events") as stream:
            self.assertEqual(stream.status, 200)
            self.assertEqual(stream.headers["content-type"], "text/event-stream")
            self.assertEqual(stream.headers["cache-control"], "no-cache")
            self.assertEqual(stream.headers["transfer-encoding"], "chunked")
            hello = stream.frame()
            self.assertEqual(hello["event"], "hello")
            self.assertNotIn("id", hello)
            self.assertEqual(hello["data"]["types"], ["requests", "lifecycle"])
            self.assertIsNone(hello["data"]["port"])
            self.assertEqual(hello["data"]["seq"], 0)
            # Keys sorted at every level, compact.
            self.assertEqual(hello["data_text"], json.dumps(hello["data"], sort_keys=True,
                                                            separators=(",", ":")))

            port = rift.create({"protocol": "http", "recordRequests": True,
                                "stubs": [{"responses": [{"is": {"body": "hi"}}]}]})["port"]
            created = stream.frame()
            self.assertEqual((created["event"], created["id"], created["data"]),
                             ("imposter", "1", imposter_event("created", port)))

            request(port, "POST", "/orders?a=1", b"{}", {"X-Flow": "f1"})
            recorded = stream.frame()
            self.assertEqual((recorded["event"], recorded["id"]), ("request", "2"))
            data = recorded["data"]
            self.assertEqual((data["port"], data["flowId"], data["index"]), (port, str(port), 1))
            self.assertEqual((data["request"]["method"], data["request"]["path"],
                              data["request"]["query"], data["request"]["body"]),
                             ("POST", "/orders", {"a": "1"}, "{}"))
            # The request is the journal's entry, byte for byte.
            _, _, saved = rift.admin("GET", f"/imposters/{port}/savedRequests")
            self.assertEqual(data["request"], saved[0])
            self.assertEqual(recorded["data_text"],
                             json.dumps(data, sort_keys=True, separators=(",", ":")))

            rift.admin("POST", f"/imposters/{port}/stubs",
                       {"stub": {"responses": [{"is": {}}]}})
            self.assertEqual(stream.frame()["data"], imposter_event("stubsChanged", port))
            rift.admin("POST", f"/imposters/{port}/disable")
            self.assertEqual(stream.frame()["data"], imposter_event("enabledChanged", port))
            rift.admin("POST", f"/imposters/{port}/enable")
            self.assertEqual(stream.frame()["data"], imposter_event("enabledChanged", port))
            # A refused change announces nothing: the next frame is the delete's.
            status, _, _ = rift.admin("PUT", f"/imposters/{port}/stubs/9", {"responses": []})
            self.assertNotEqual(status, 200)
            rift.admin("DELETE", f"/imposters/{port}")
            deleted = stream.frame()
            self.assertEqual((deleted["id"], deleted["data"]),
                             ("6", imposter_event("deleted", port)))
            rift.admin("DELETE", "/imposters")
            self.assertEqual(stream.frame()["data"], imposter_event("allDeleted"))

    def test_filters_by_type_port_and_match(self):
        with Rift() as rift:
            first = rift.create({"protocol": "http", "recordRequests": True})["port"]
            second = rift.create({"protocol": "http", "recordRequests": True})["port"]
            with EventStream(rift.port, f"/events?types=requests&port={first}"
                             "&match=method=GET") as only_gets:
                hello = only_gets.frame()
                self.assertEqual((hello["data"]["types"], hello["data"]["port"]),
                                 (["requests"], first))
                request(second, "GET", "/other-port")
                request(first, "POST", "/a-post")
                rift.admin("DELETE", f"/imposters/{second}")  # lifecycle: not asked for
                request(first, "GET", "/wanted")
                frame = only_gets.frame()
                self.assertEqual(frame["data"]["request"]["path"], "/wanted")
                self.assertEqual(frame["data"]["index"], 2)  # the first's journal index
                # Filtered events still use up sequence numbers.
                self.assertEqual(frame["id"], "4")

            third = rift.create({"protocol": "http", "recordRequests": True})["port"]
            with EventStream(rift.port, f"/events?types=lifecycle&port={first}") as lifecycle:
                lifecycle.frame()
                request(first, "GET", "/not-a-lifecycle-event")
                rift.admin("DELETE", f"/imposters/{third}")  # another port: dropped
                rift.admin("DELETE", "/imposters")  # concerns every port: passes
                self.assertEqual(lifecycle.frame()["data"], imposter_event("allDeleted"))

    def test_the_per_imposter_alias_streams_its_requests_only(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "recordRequests": True})["port"]
            target = f"/imposters/{port}/savedRequests/stream?types=bogus&port=1&match=path=/b"
            with EventStream(rift.port, target) as stream:
                hello = stream.frame()["data"]
                self.assertEqual((hello["types"], hello["port"]), (["requests"], port))
                request(port, "GET", "/a")
                rift.admin("POST", f"/imposters/{port}/stubs",
                           {"stub": {"responses": [{"is": {}}]}})
                request(port, "GET", "/b")
                frame = stream.frame()
                self.assertEqual((frame["event"], frame["data"]["request"]["path"]),
                                 ("request", "/b"))

    def test_nobody_listening_uses_no_sequence_numbers(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "recordRequests": True})["port"]
            with EventStream(rift.port, "/events") as stream:
                stream.frame()
                request(port, "GET", "/one")
                self.assertEqual(stream.frame()["id"], "1")
            # The closed stream leaves the bus once the server sees its connection go; from
            # then on nothing numbers events, so the next subscriber starts where it stopped.
            for _ in range(200):
                _, _, metrics = rift.admin("GET", "/metrics")
                if b"rift_event_stream_subscribers 0\n" in metrics:
                    break
                time.sleep(0.05)
            self.assertIn(b"rift_event_stream_subscribers 0\n", metrics)
            for _ in range(5):
                request(port, "GET", "/unheard")
            rift.admin("POST", f"/imposters/{port}/stubs", {"stub": {"responses": [{"is": {}}]}})
            with EventStream(rift.port, "/events") as probe:
                self.assertEqual(probe.frame()["data"]["seq"], 1)
                _, _, metrics = rift.admin("GET", "/metrics")
                self.assertIn(b"rift_event_stream_subscribers 1\n", metrics)

    def test_refusals_are_compact_json(self):
        with Rift("--apikey", "secret") as rift:
            status, _, _ = rift.admin("GET", "/events")
            self.assertEqual(status, 401)
            key = {"x-api-key": "secret"}
            cases = [
                ("/events?types=foo", 400,
                 "unknown types value 'foo' (expected requests|lifecycle)"),
                ("/events?port=abc", 400, "invalid port: abc"),
                ("/events?port=70000", 400, "invalid port: 70000"),
                ("/events?port=4799", 404, "no imposter on port 4799"),
                ("/events?match=foo", 400,
                 "unsupported match clause 'foo' (expected header:<Name>=<Value>, "
                 "flow_id=<Value>, method=<Verb> or path=<Path>)"),
                ("/imposters/4799/savedRequests/stream", 404, "no imposter on port 4799"),
            ]
            for target, status, message in cases:
                got_status, headers, body = rift.admin("GET", target, headers=key)
                self.assertEqual((got_status, body), (status, {"error": message}), target)
                content_type = {k.lower(): v for k, v in headers.items()}["content-type"]
                self.assertEqual(content_type, "application/json")
            # Any method opens a stream, as in the reference.
            with EventStream(rift.port, "/events?types=", key, method="POST") as stream:
                self.assertEqual(stream.status, 200)
                self.assertEqual(stream.frame()["data"]["types"], [])


if __name__ == "__main__":
    unittest.main()
