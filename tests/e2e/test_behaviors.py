"""Behaviors end to end: copy, lookup and shellTransform through the real server, and the
promise that a running shellTransform blocks neither its worker nor shutdown."""
import json
import os
import shutil
import tempfile
import threading
import unittest

from harness import Rift, request


class BehaviorsTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rift-behaviors-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_copy_and_lookup_before_defaults_are_merged(self):
        csv = os.path.join(self.dir, "people.csv")
        with open(csv, "w") as f:
            f.write('id,name\n7,"Smith, Ann"\n')
        with Rift() as rift:
            port = rift.create({"protocol": "http", "defaultResponse": {"headers": {"X-Default": "${id}"}},
                                "stubs": [{"responses": [{
                                    "is": {"statusCode": "${code}", "body": {"name": "${row}[name]", "id": "${id}"}},
                                    "behaviors": [
                                        {"copy": {"from": {"query": "code"}, "into": "${code}",
                                                  "using": {"method": "regex", "selector": "\\d+"}}},
                                        {"copy": {"from": "path", "into": "${id}",
                                                  "using": {"method": "regex", "selector": "\\d+"}}},
                                        {"lookup": {"key": {"from": "path", "using": {"method": "regex", "selector": "\\d+"}},
                                                    "fromDataSource": {"csv": {"path": csv, "keyColumn": "id"}},
                                                    "into": "${row}"}}]}]}]})["port"]
            status, headers, body = request(port, "GET", "/users/7?code=202")
            self.assertEqual(status, 202)
            self.assertEqual(json.loads(body), {"name": "Smith, Ann", "id": "7"})
            # The default's headers are merged after the behaviors ran: no token replaced there.
            self.assertEqual(headers["x-default"], "${id}")
            # Every request runs the behaviors afresh.
            status, _, body = request(port, "GET", "/users/8?code=201")
            self.assertEqual(status, 201)
            self.assertEqual(json.loads(body), {"name": "${row}[name]", "id": "8"})

    def test_copy_and_decorate_read_a_route_patterns_path_params(self):
        with Rift("--allowInjection") as rift:
            port = rift.create({"protocol": "http", "stubs": [
                {"routePattern": "/users/:id/orders/:order",
                 "predicates": [{"startsWith": {"path": "/users/"}}],
                 "responses": [{"is": {"body": "user ${ID}"}, "behaviors": [
                     {"copy": {"from": {"pathParams": "id"}, "into": "${ID}",
                               "using": {"method": "regex", "selector": ".+"}}},
                     {"decorate": "(config) => { config.response.headers = "
                                  "{'X-Order': config.request.pathParams.order}; }"}]}]},
                # Without a routePattern, the request is Mountebank's: no pathParams.
                {"responses": [{"is": {"body": "none"}, "behaviors": [
                    {"decorate": "(config) => { config.response.body = "
                                 "String(config.request.pathParams); }"}]}]}]})["port"]
            status, headers, body = request(port, "GET", "/users/42/orders/7")
            self.assertEqual((status, body, headers.get("x-order")), (200, b"user 42", "7"), headers)
            self.assertEqual(request(port, "GET", "/other")[2], b"undefined")

    def test_a_slow_shell_transform_does_not_block_other_requests(self):
        release = os.path.join(self.dir, "release")
        slow = ("while [ ! -e '%s' ]; do sleep 0.05; done; echo '{\"body\": \"slow\"}' #" % release)
        # One worker thread: were the command run on it, the second request could not be answered.
        with Rift("--allowInjection", "--threads", "1") as rift:
            port = rift.create({"protocol": "http", "stubs": [
                {"predicates": [{"equals": {"path": "/slow"}}],
                 "responses": [{"is": {"body": "x"}, "behaviors": [{"shellTransform": slow}]}]},
                {"responses": [{"is": {"body": "fast"}}]}]})["port"]
            answers = {}
            waiter = threading.Thread(target=lambda: answers.update(slow=request(port, "GET", "/slow")))
            waiter.start()
            try:
                status, _, body = request(port, "GET", "/fast")
                self.assertEqual((status, body), (200, b"fast"))
                self.assertTrue(waiter.is_alive(), "the shell command finished before it was released")
            finally:
                open(release, "w").close()
                waiter.join(30)
            self.assertEqual(answers["slow"][0], 200)
            self.assertEqual(answers["slow"][2], b"slow")

    def test_shutdown_kills_a_shell_transform_that_never_ends(self):
        marker = os.path.join(self.dir, "started")
        rift = Rift("--allowInjection")
        with rift:
            port = rift.create({"protocol": "http", "stubs": [{"responses": [{
                "is": {"body": "x"},
                "behaviors": [{"shellTransform": "touch '%s'; sleep 600 #" % marker}]}]}]})["port"]
            def ask():
                try:
                    request(port, "GET", "/")
                except (OSError, IndexError):
                    pass  # the server stops before it can answer
            threading.Thread(target=ask, daemon=True).start()
            for _ in range(400):
                if os.path.exists(marker):
                    break
                threading.Event().wait(0.05)
            self.assertTrue(os.path.exists(marker))
        # __exit__ sent SIGTERM and saw a clean exit; the command's process group is gone too.
        self.assertEqual(rift.process.returncode, 0)

    def test_shell_transform_failures_answer_500_json(self):
        with Rift("--allowInjection") as rift:
            port = rift.create({"protocol": "http", "stubs": [
                {"predicates": [{"equals": {"path": "/exit"}}],
                 "responses": [{"is": {}, "behaviors": [{"shellTransform": "echo bad >&2; exit 4"}]}]},
                {"predicates": [{"equals": {"path": "/json"}}],
                 "responses": [{"is": {}, "behaviors": [{"shellTransform": "echo '{' #"}]}]}]})["port"]
            status, headers, body = request(port, "GET", "/exit")
            self.assertEqual(status, 500)
            self.assertEqual(headers["content-type"], "application/json")
            error = json.loads(body)["errors"][0]
            self.assertTrue(error["message"].startswith("Command failed: echo bad >&2; exit 4 '"), error)
            self.assertTrue(error["message"].endswith("\nbad\n"), error)
            status, _, body = request(port, "GET", "/json")
            self.assertEqual(status, 500)
            self.assertEqual(json.loads(body)["errors"][0]["message"],
                             "Shell command returned invalid JSON: '{\n'")

    def test_shell_transform_still_needs_allow_injection(self):
        with Rift() as rift:
            status, _, body = rift.admin("POST", "/imposters", {"protocol": "http", "stubs": [
                {"responses": [{"is": {}, "behaviors": [{"shellTransform": "echo {}"}]}]}]})
            self.assertEqual(status, 400)
            self.assertEqual(body["errors"][0]["message"],
                             "Shell execution is not allowed unless mb is run with the --allowInjection flag")


if __name__ == "__main__":
    unittest.main()
