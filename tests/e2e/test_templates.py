"""Response templates over real sockets (docs/templates.md): every tier renders the same pieces,
seeded uuid/randomInt repeat run after run, state comes from the flow store, behaviors run on the
rendered response, a header cannot be split by what a request carries, a bad template is refused
at creation, and --debug turns a failing piece into a 500."""
import json
import unittest
import urllib.parse

from every_tier import EveryTier
from harness import Rift, request


def lower(headers):
    return {k.lower(): v for k, v in headers.items()}


def templated(is_, **extra):
    return {"is": is_, "_rift": {"templated": True}, **extra}


def imposter(port):
    out = {"protocol": "http", "stubs": [
        {"predicates": [{"startsWith": {"path": "/users/"}}], "routePattern": "/users/:id",
         "responses": [templated({"headers": {"X-Method": "{{request.method}}",
                                              "X-Id": "${request.pathParams.id}"},
                                  "body": {"id": "${request.pathParams.id}",
                                           "q": "{{request.query.q}}",
                                           "name": "{{request.json '$.user.name' | json}}",
                                           "last": "{{request.path | last_segment}}",
                                           "n": "{{randomInt 4 4}}"}})]},
        {"responses": [{"is": {"body": "plain ${request.method} {{request.method}}"}}]}]}
    if port is not None:
        out["port"] = port
    return out


class TemplateEveryTierTest(EveryTier, unittest.TestCase):
    def imposter(self, port):
        return imposter(port)

    def check(self, port):
        status, headers, body = request(port, "POST", "/users/42?q=hi",
                                        json.dumps({"user": {"name": 'A "b"'}}).encode())
        self.assertEqual(status, 200)
        self.assertEqual(json.loads(body), {"id": "42", "q": "hi", "name": 'A "b"', "last": "42",
                                            "n": "4"})
        self.assertEqual((lower(headers)["x-method"], lower(headers)["x-id"]), ("POST", "42"))
        # Not templated: only ${request.*} is on.
        self.assertEqual(request(port, "GET", "/other")[2], b"plain GET {{request.method}}")


class TemplateTest(unittest.TestCase):
    def test_a_default_response_expands_only_its_body_dates(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "stubs": [], "defaultResponse": {
                "statusCode": 404, "headers": {"X-Now": "{{NOW}}"},
                "body": "at {{NOW}} for ${request.path} {{request.method}}"}})["port"]
            status, headers, body = request(port, "GET", "/missing")
            self.assertEqual((status, lower(headers)["x-now"]), (404, "{{NOW}}"))
            self.assertRegex(body.decode(), r"^at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+\+00:00 "
                                            r"for \$\{request\.path\} \{\{request\.method\}\}$")

    def test_a_seed_repeats_uuid_and_random_int(self):
        stub = {"responses": [templated({"body": "{{uuid}} {{randomInt 1 1000000}}"})]}
        answers = []
        for seed in ("5", "5", "6"):
            with Rift("--seed", seed) as rift:
                port = rift.create({"protocol": "http", "stubs": [stub]})["port"]
                answers.append([request(port, "GET", "/")[2] for _ in range(5)])
        self.assertEqual(answers[0], answers[1])
        self.assertNotEqual(answers[0], answers[2])
        self.assertEqual(len(set(answers[0])), 5)

    def test_state_comes_from_the_flow_store(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "_rift": {"flowState": {}}, "stubs": [
                {"responses": [templated({"body": "visits={{state.visits}} user={{state.user}}"})]}]})["port"]
            self.assertEqual(request(port, "GET", "/")[2], b"visits= user=")
            for key, value in (("visits", 3), ("user", {"b": 1, "a": "x"})):
                status, _, _ = rift.admin("PUT", f"/admin/imposters/{port}/flow-state/{port}/{key}",
                                          {"value": value})
                self.assertEqual(status, 200)
            self.assertEqual(request(port, "GET", "/")[2], b'visits=3 user={"a":"x","b":1}')

    def test_behaviors_run_on_the_rendered_response(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "stubs": [{"responses": [templated(
                {"body": "m={{request.method}} c=${cp}"},
                behaviors=[{"copy": {"from": "path", "into": "${cp}",
                                     "using": {"method": "regex", "selector": "\\w+$"}}}])]}]})["port"]
            self.assertEqual(request(port, "PUT", "/a/word")[2], b"m=PUT c=word")

    def test_a_request_cannot_split_a_header(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "stubs": [{"responses": [
                {"is": {"headers": {"X-Q": "[${request.query.q}]"}, "body": "ok"}}]}]})["port"]
            q = urllib.parse.quote("a\r\nX-Evil: 1\tb")
            status, headers, body = request(port, "GET", f"/?q={q}")
            self.assertEqual((status, body), (200, b"ok"))
            self.assertEqual(lower(headers)["x-q"], "[aX-Evil: 1b]")
            self.assertNotIn("x-evil", lower(headers))

    def test_bad_templates_are_refused_at_creation(self):
        with Rift() as rift:
            for response, field in (
                    (templated({"body": "{{bogus}}"}), "'is.body': unknown template function"),
                    (templated({"headers": {"X": "{{now format='%Q'}}"}}), "'is.headers.X'"),
                    (templated({"body": "{{randomInt 9 1}}"}), "randomInt"),
                    ({"is": {"body": "x"}, "_rift": {"templated": "yes"}}, "_rift.templated")):
                status, _, body = rift.admin("POST", "/imposters",
                                             {"protocol": "http", "stubs": [{"responses": [response]}]})
                self.assertEqual(status, 400, response)
                self.assertIn(field, body["errors"][0]["message"])

    def test_debug_turns_a_failing_piece_into_a_500(self):
        stub = {"responses": [templated({"body": "[{{request.header 'X-Missing'}}]"})]}
        with Rift() as rift:
            port = rift.create({"protocol": "http", "stubs": [stub]})["port"]
            status, headers, body = request(port, "GET", "/")
            self.assertEqual((status, body), (200, b"[]"))
            self.assertNotIn("x-rift-template-error", lower(headers))
        with Rift("--debug") as rift:
            port = rift.create({"protocol": "http", "stubs": [stub]})["port"]
            status, headers, body = request(port, "GET", "/")
            self.assertEqual(status, 500)
            self.assertEqual(lower(headers)["x-rift-template-error"], "true")
            message = json.loads(body)["errors"][0]["message"]
            self.assertIn("no such header: 'X-Missing'", message)


if __name__ == "__main__":
    unittest.main()
