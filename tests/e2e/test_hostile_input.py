"""Hostile input over real sockets: deep nesting, JSONPath blow-up, invalid UTF-8, header injection.

Each test keeps a bystander imposter and checks after every hostile request that the server is
up, answers the bystander, and kept what was stored (docs/limits.md).
"""
import json
import os
import subprocess
import unittest

from harness import RIFT, Rift, free_port, raw, request

LIMIT = 512  # compiler/nesting.h kMaxDepth


def deep_objects(depth, leaf="true"):
    return '{"a":' * depth + leaf + "}" * depth


def deep_arrays(depth):
    return "[" * depth + "true" + "]" * depth


class HostileInputTest(unittest.TestCase):
    def setUp(self):
        self.rift = Rift("--allowInjection").__enter__()
        self.bystander = self.rift.create({"protocol": "http",
                                           "stubs": [{"responses": [{"is": {"body": "still here"}}]}]})["port"]

    def tearDown(self):
        self.rift.__exit__(None, None, None)

    def assert_alive(self):
        status, _, body = request(self.bystander, "GET", "/")
        self.assertEqual((status, body), (200, b"still here"))
        status, _, imposter = self.rift.admin("GET", f"/imposters/{self.bystander}")
        self.assertEqual(status, 200)
        self.assertEqual(imposter["stubs"][0]["responses"][0]["is"]["body"], "still here")

    def test_deep_json_bodies_are_not_json_to_predicates(self):
        port = self.rift.create({"protocol": "http", "recordRequests": True, "stubs": [
            {"predicates": [{"jsonpath": {"selector": "$.a"}, "exists": {"body": True}}],
             "responses": [{"is": {"body": "jsonpath"}}]},
            {"predicates": [{"deepEquals": {"body": {"a": True}}}], "responses": [{"is": {"body": "deep"}}]},
            {"predicates": [{"equals": {"body": {"a": True}}}], "responses": [{"is": {"body": "equals"}}]},
            {"responses": [{"is": {"body": "not json"}}]}]})["port"]
        self.assertEqual(request(port, "POST", "/", deep_objects(LIMIT).encode())[2], b"jsonpath")
        bodies = [deep_objects(LIMIT + 1), deep_objects(200000), deep_arrays(200000), "[" * 1000000,
                  "[123456789012345678901234567890," + deep_arrays(100000) + "]"]
        for body in bodies:
            status, _, answer = request(port, "POST", "/", body.encode())
            self.assertEqual((status, answer), (200, b"not json"), body[:40])
            self.assert_alive()
        self.assertEqual(request(port, "POST", "/", b'{"a":true}')[2], b"jsonpath")
        _, _, imposter = self.rift.admin("GET", f"/imposters/{port}")
        recorded = [r["body"] for r in imposter["requests"]]
        self.assertEqual(recorded[1:1 + len(bodies)], bodies)  # the journal keeps them as text

    def test_deep_admin_bodies_get_400_naming_the_limit(self):
        for depth in (LIMIT, 100000):  # one JSON level per `not`, beside the envelope's
            predicate = '{"not":' * depth + '{"equals":{"path":"/"}}' + "}" * depth
            body = '{"protocol":"http","stubs":[{"predicates":[' + predicate + '],"responses":[{"is":{}}]}]}'
            status, _, answer = self.rift.admin("POST", "/imposters", body)
            self.assertEqual(status, 400, depth)
            self.assertEqual(answer["errors"][0]["code"], "invalid JSON")
            self.assertIn(f"nesting deeper than {LIMIT} levels", answer["errors"][0]["message"])
            self.assertLessEqual(len(json.dumps(answer)), 2 * len(body) + 1000)  # linear echo
            self.assert_alive()
        status, _, _ = self.rift.admin("PUT", f"/imposters/{self.bystander}/stubs", "[" * 1000000)
        self.assertEqual(status, 400)
        self.assert_alive()

    def test_nested_predicates_below_the_limit_work(self):
        depth = LIMIT - 11  # one JSON level per `not`; the envelope and `equals` add 6
        predicate = '{"not":' * depth + '{"equals":{"path":"/no"}}' + "}" * depth
        body = '{"protocol":"http","stubs":[{"predicates":[' + predicate + '],"responses":[{"is":{"body":"n"}}]}]}'
        status, _, imposter = self.rift.admin("POST", "/imposters", body)
        self.assertEqual(status, 201)
        self.assertEqual(request(imposter["port"], "GET", "/yes")[2], b"n")  # an odd number of nots
        self.assert_alive()

    def test_invalid_utf8_in_admin_bodies_is_replaced_never_a_500(self):
        status, _, imposter = self.rift.admin("POST", "/imposters",
                                              b'{"protocol":"http","name":"bad \xff\xfe name"}')
        self.assertEqual(status, 201)
        self.assertEqual(imposter["name"], "bad \ufffd\ufffd name")
        status, _, answer = self.rift.admin("POST", "/imposters", b'{"protocol":"http"\xc3}')
        self.assertEqual(status, 400)
        self.assertEqual(answer["errors"][0]["code"], "invalid JSON")
        self.assertEqual(answer["errors"][0]["source"], '{"protocol":"http"\ufffd}')
        status, _, _ = self.rift.admin("PUT", "/imposters", b"\x80\x81\x82")
        self.assertEqual(status, 400)
        self.assert_alive()

    def test_jsonpath_selections_past_the_work_limit(self):
        # `$..a..a..a` over 200 levels selects 1.3 million subtrees: more than 4 GB unbounded.
        selector = "$..a..a..a"
        port = self.rift.create({"protocol": "http", "stubs": [
            {"predicates": [{"equals": {"path": "/copy"}}],
             "responses": [{"is": {"body": "got ${x}"}, "behaviors": [
                 {"copy": {"from": "body", "into": "${x}", "using": {"method": "jsonpath", "selector": selector}}}]}]},
            {"predicates": [{"jsonpath": {"selector": selector}, "exists": {"body": True}}],
             "responses": [{"is": {"body": "selected"}}]},
            {"responses": [{"is": {"body": "nothing selected"}}]}]})["port"]
        deep, shallow = deep_objects(200, "1"), deep_objects(5, "1")
        self.assertEqual(request(port, "POST", "/", shallow.encode())[2], b"selected")
        # Up to the limit's few tens of milliseconds, or seconds under ASan's Debug build.
        self.assertEqual(request(port, "POST", "/", deep.encode(), timeout=60)[2], b"nothing selected")
        self.assert_alive()
        status, _, answer = request(port, "POST", "/copy", deep.encode(), timeout=60)
        self.assertEqual(status, 500)
        self.assertEqual(json.loads(answer)["errors"][0], {
            "code": "bad data", "source": selector,
            "message": "jsonpath selection is too large: it passes the limit of 2097152 units of work"})
        self.assertEqual(request(port, "POST", "/copy", shallow.encode())[2][:4], b"got ")
        self.assert_alive()

    def test_scripts_that_answer_deep_values_get_an_error(self):
        fn = "function () { let v = true; for (let i = 0; i < 100000; i++) v = [v]; return { body: v }; }"
        port = self.rift.create({"protocol": "http", "stubs": [{"responses": [{"inject": fn}]}]})["port"]
        status, _, _ = request(port, "GET", "/")
        self.assertEqual(status, 500)
        self.assert_alive()

    def test_header_names_and_values_with_cr_lf_or_nul_are_refused_at_creation(self):
        bad = [{"X-A": "a\r\nInjected: yes"}, {"X-A": "a\nb"}, {"X-A": "a\u0000b"}, {"X\r\nB": "v"},
               {"X-A": ["ok", "a\rb"]}]
        for headers in bad:
            stub = {"responses": [{"is": {"statusCode": 200, "headers": headers}}]}
            status, _, answer = self.rift.admin("POST", "/imposters", {"protocol": "http", "stubs": [stub]})
            self.assertEqual(status, 400, headers)
            error = answer["errors"][0]
            self.assertEqual(error["code"], "bad data")
            self.assertIn("invalid character in header", error["message"])
            self.assertIn(json.dumps(next(iter(headers))), error["message"])  # names the header
            self.assertIn("responses", json.dumps(error.get("source")))  # names the stub
            status, _, _ = self.rift.admin("PUT", f"/imposters/{self.bystander}/stubs/0", stub)
            self.assertEqual(status, 400)
            self.assert_alive()
        status, _, _ = self.rift.admin("POST", "/imposters", {
            "protocol": "http", "defaultResponse": {"headers": {"X": "a\r\nb"}}})
        self.assertEqual(status, 400)
        status, _, _ = self.rift.admin("POST", "/imposters", {"protocol": "http", "stubs": [
            {"responses": [{"proxy": {"to": "http://127.0.0.1:1", "injectHeaders": {"X": "a\nb"}}}]}]})
        self.assertEqual(status, 400)

    def test_computed_headers_with_cr_or_lf_get_a_500_and_no_raw_bytes(self):
        fn = "function () { return { headers: { 'X-A': 'a\\r\\nInjected: yes' }, body: 'x' }; }"
        decorate = "function (request, response) { response.headers['X-B'] = 'b\\nInjected: yes'; }"
        port = self.rift.create({"protocol": "http", "stubs": [
            {"predicates": [{"equals": {"path": "/inject"}}], "responses": [{"inject": fn}]},
            {"responses": [{"is": {"body": "d", "headers": {}}, "behaviors": [{"decorate": decorate}]}]}]})["port"]
        for path in ("/inject", "/decorate"):
            data = raw(port, f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
            self.assertTrue(data.startswith(b"HTTP/1.1 500 "), data[:100])
            self.assertNotIn(b"\r\nInjected:", data)
            self.assertIn(b"invalid character in header", data)
        self.assert_alive()


class HostileConfigFileTest(unittest.TestCase):
    def run_config(self, name, text):
        with Rift() as rift:
            path = os.path.join(rift.dir, name)
            with open(path, "w") as out:
                out.write(text)
            result = subprocess.run([os.path.abspath(RIFT), "start", "--port", str(free_port()), "--configfile", path,
                                     "--nologfile"], capture_output=True, text=True, timeout=60)
            return result

    def test_deep_yaml_and_json_config_files_are_clear_errors(self):
        for name, text in [("deep.yaml", "imposters: " + "[" * 1000000), ("deep.json", "[" * 1000000),
                           ("blocks.yaml", "".join(" " * i + "a:\n" for i in range(2000)))]:
            result = self.run_config(name, text)
            self.assertNotEqual(result.returncode, 0, name)
            self.assertLess(result.returncode, 128, name)  # an error exit, not a signal
            self.assertIn(f"nesting deeper than {LIMIT} levels", result.stderr + result.stdout, name)


if __name__ == "__main__":
    unittest.main()
