"""The journal's `since` cursor over real sockets (docs/journal.md): indices that survive a
clear, x-rift-next-index past filtered-out requests, x-rift-truncated once the cap drops a
request a reader has not seen, and bad cursors refused."""
import socket
import unittest

from harness import Rift, request


def saved(rift, port, query=""):
    status, headers, body = rift.admin("GET", f"/imposters/{port}/savedRequests{query}")
    return status, {k.lower(): v for k, v in headers.items()}, body


class JournalCursorTest(unittest.TestCase):
    def test_a_poller_reads_each_request_once(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "recordRequests": True})["port"]
            status, headers, body = saved(rift, port)
            self.assertEqual((status, headers["x-rift-next-index"], body), (200, "0", []))
            for path in ("/a", "/b", "/c"):
                request(port, "GET", path)
            status, headers, body = saved(rift, port, "?since=1")
            self.assertEqual([r["path"] for r in body], ["/b", "/c"])
            self.assertEqual(headers["x-rift-next-index"], "3")
            self.assertNotIn("x-rift-truncated", headers)
            # The cursor moves past what the filter leaves out.
            request(port, "POST", "/d")
            status, headers, body = saved(rift, port, "?since=3&match=method=GET")
            self.assertEqual((body, headers["x-rift-next-index"]), ([], "4"))
            # The same read by its other name.
            status, _, body = rift.admin("GET", f"/imposters/{port}/requests?since=3")
            self.assertEqual([r["path"] for r in body], ["/d"])

    def test_indices_survive_a_clear(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "recordRequests": True})["port"]
            request(port, "GET", "/a")
            request(port, "GET", "/b")
            rift.admin("DELETE", f"/imposters/{port}/savedRequests")
            request(port, "GET", "/c")
            status, headers, body = saved(rift, port, "?since=2")
            self.assertEqual(([r["path"] for r in body], headers["x-rift-next-index"]),
                             (["/c"], "3"))

    def test_the_cap_tells_a_late_reader_it_missed_requests(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "recordRequests": True})["port"]
            # 10,010 requests over a few kept-alive connections: the cap (10,000) drops 10.
            total = 10_010
            raw = b"GET /n HTTP/1.1\r\nHost: x\r\n\r\n"
            with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
                sock.sendall(raw * total)
                received = b""
                while received.count(b"HTTP/1.1 200") < total:
                    chunk = sock.recv(1 << 16)
                    if not chunk:
                        break
                    received += chunk
            self.assertEqual(received.count(b"HTTP/1.1 200"), total)
            status, headers, body = saved(rift, port, "?since=5")
            self.assertEqual(headers.get("x-rift-truncated"), "true")
            self.assertEqual(len(body), 10_000)
            self.assertEqual(headers["x-rift-next-index"], str(total))
            status, headers, body = saved(rift, port, f"?since={total - 3}")
            self.assertNotIn("x-rift-truncated", headers)
            self.assertEqual(len(body), 3)
            status, headers, _ = saved(rift, port)  # no cursor: never truncated
            self.assertNotIn("x-rift-truncated", headers)

    def test_bad_cursors_are_400(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "recordRequests": True})["port"]
            for value in ("-1", "x", "", "1.5", "99999999999999999999999"):
                status, _, body = saved(rift, port, f"?since={value}")
                self.assertEqual(status, 400, value)
                self.assertEqual(body["errors"][0]["message"],
                                 f"invalid since cursor '{value}' (expected a non-negative integer)")
            # Each value must be good; the last counts.
            self.assertEqual(saved(rift, port, "?since=0&since=x")[0], 400)
            self.assertEqual(saved(rift, port, "?since=x&since=0")[0], 400)
            request(port, "GET", "/a")
            request(port, "GET", "/b")
            self.assertEqual(len(saved(rift, port, "?since=5&since=1")[2]), 1)
            self.assertEqual(len(saved(rift, port, "?since=%2B1")[2]), 1)  # +1
            self.assertEqual(len(saved(rift, port, "?since=01")[2]), 1)


class VerifyTest(unittest.TestCase):
    def test_counts_lists_and_explains_the_closest_miss(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "recordRequests": True,
                                "_rift": {"flowState": {"flowIdSource": "header:X-Flow"}}})["port"]
            request(port, "GET", "/users/1", headers={"X-Flow": "a"})
            request(port, "POST", "/users", b'{"name": "x"}', {"X-Flow": "a"})
            request(port, "GET", "/items", headers={"X-Flow": "b"})

            def verify(body):
                return rift.admin("POST", f"/imposters/{port}/verify", body)

            self.assertEqual(verify({})[2], {"matched": 3, "total": 3})
            status, _, body = verify({"predicates": [{"startsWith": {"path": "/users"}}],
                                      "includeRequests": True})
            self.assertEqual((status, body["matched"], body["total"]), (200, 2, 3))
            self.assertEqual([r["path"] for r in body["requests"]], ["/users/1", "/users"])
            self.assertEqual(verify({"flowId": "b"})[2], {"matched": 1, "total": 1})

            predicates = [{"equals": {"method": "GET", "path": "/users/2"}},
                          {"startsWith": {"path": "/users"}}]
            status, _, body = verify({"predicates": predicates, "includeClosest": True})
            self.assertEqual((body["matched"], body["total"]), (0, 3))
            # /users/1 passes one of the two, as does /users; the most recent wins a tie.
            self.assertEqual(body["closest"]["request"]["path"], "/users")
            failed = body["closest"]["failedPredicates"]
            self.assertEqual(len(failed), 1)
            self.assertEqual(failed[0]["predicate"], predicates[0])
            self.assertEqual(failed[0]["actual"], {"method": "POST", "path": "/users"})
            self.assertIn("reason", failed[0])

    def test_bad_input(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "recordRequests": True})["port"]
            for body, message in (
                    ({"predicates": {}}, "'predicates' must be an array"),
                    ({"includeRequests": "yes"}, "'includeRequests' must be a boolean"),
                    ({"predicates": [{"bogus": {}}]}, None)):
                status, _, answer = rift.admin("POST", f"/imposters/{port}/verify", body)
                self.assertEqual(status, 400, body)
                if message:
                    self.assertEqual(answer["errors"][0]["message"], message)
            status, _, answer = rift.admin("POST", f"/imposters/{port}/verify",
                                           {"predicates": [{"inject": "() => true"}]})
            self.assertEqual((status, answer["errors"][0]["code"]), (400, "invalid injection"))


if __name__ == "__main__":
    unittest.main()
