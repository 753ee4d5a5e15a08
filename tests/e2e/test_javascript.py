"""End-to-end tests of injected JavaScript (docs/javascript.md): inject responses and predicates,
decorate, wait functions, the time limit and the --allowInjection gate, over real sockets."""
import json
import os
import tempfile
import threading
import time
import unittest

from harness import Rift, request

COUNTER = ("config => { config.state.calls = (config.state.calls || 0) + 1;"
           " return config.state.calls > 1; }")



class InjectionTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rift = Rift("--allowInjection", "--injectionTimeout", "500").__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.rift.__exit__(None, None, None)

    def create(self, stubs, **extra):
        return self.rift.create({"protocol": "http", "stubs": stubs, **extra})["port"]

    def test_sync_response(self):
        port = self.create([{"responses": [
            {"inject": "function (request) { return { body: request.method + ' INJECTED' }; }"}]}])
        status, headers, body = request(port, "GET", "/")
        self.assertEqual((status, body), (200, b"GET INJECTED"))

    def test_callback_response_and_defaults(self):
        port = self.create([{"responses": [{"inject": (
            "(config, injectState, logger, callback) => {"
            " setTimeout(() => callback({ headers: { 'X-Late': config.request.path } }), 10); }")}]}],
            defaultResponse={"statusCode": 418, "body": "default body"})
        status, headers, body = request(port, "GET", "/later")
        self.assertEqual((status, body), (418, b"default body"))
        self.assertEqual(dict((k.lower(), v) for k, v in headers.items())["x-late"], "/later")

    def test_throwing_response_is_500_invalid_injection(self):
        port = self.create([{"responses": [{"inject": "() => { throw new Error('boom'); }"}]}])
        status, _, body = request(port, "GET", "/")
        self.assertEqual(status, 500)
        error = json.loads(body)["errors"][0]
        self.assertEqual((error["code"], error["message"], error["data"]),
                         ("invalid injection", "invalid response injection", "boom"))

    def test_runaway_loop_is_500_and_the_server_goes_on(self):
        port = self.create([
            {"predicates": [{"equals": {"path": "/loop"}}],
             "responses": [{"inject": "() => { while (true) {} }"}]},
            {"responses": [{"inject": "() => ({ body: 'alive' })"}]}])
        status, _, body = request(port, "GET", "/loop")
        self.assertEqual(status, 500)
        self.assertEqual(json.loads(body)["errors"][0]["message"], "invalid response injection")
        self.assertEqual(request(port, "GET", "/next")[::2], (200, b"alive"))

    def test_predicates_share_state_with_responses_and_keep_stub_order(self):
        port = self.create([
            {"predicates": [{"inject": COUNTER}], "responses": [
                {"inject": "config => ({ body: 'calls ' + config.state.calls })"}]},
            {"responses": [{"is": {"body": "first"}}]}])
        self.assertEqual(request(port, "GET", "/")[::2], (200, b"first"))
        self.assertEqual(request(port, "GET", "/")[::2], (200, b"calls 2"))
        self.assertEqual(request(port, "GET", "/")[::2], (200, b"calls 3"))

    def test_nested_inject_predicates(self):
        port = self.create([
            {"predicates": [{"and": [{"equals": {"method": "POST"}},
                                     {"not": {"inject": "config => config.request.body === 'no'"}}]}],
             "responses": [{"is": {"body": "and-not"}}]},
            {"predicates": [{"or": [{"inject": "request => request.path === '/test'"},
                                    {"equals": {"path": "/other"}}]}],
             "responses": [{"is": {"body": "or"}}]}])
        self.assertEqual(request(port, "POST", "/", b"yes")[::2], (200, b"and-not"))
        self.assertEqual(request(port, "POST", "/test", b"no")[::2], (200, b"or"))
        self.assertEqual(request(port, "GET", "/test?key=value")[::2], (200, b"or"))
        self.assertEqual(request(port, "GET", "/none")[::2], (200, b""))

    def test_throwing_predicate_is_500(self):
        port = self.create([{"predicates": [{"inject": "() => nothing.here"}],
                             "responses": [{"is": {"body": "never"}}]}])
        status, _, body = request(port, "GET", "/")
        self.assertEqual(status, 500)
        self.assertEqual(json.loads(body)["errors"][0]["message"], "invalid predicate injection")

    def test_decorate_after_is_and_inject(self):
        port = self.create([
            {"predicates": [{"equals": {"path": "/is"}}], "responses": [
                {"is": {"body": "plain", "headers": {}},
                 "behaviors": [{"decorate": "(config, response) => { response.headers['X-Path'] = config.request.path; }"}]}]},
            {"predicates": [{"equals": {"path": "/inject"}}], "responses": [
                {"inject": "() => ({ body: 'one' })",
                 "behaviors": [{"decorate": "config => ({ body: config.response.body + ' two', statusCode: 201 })"}]}]},
            {"responses": [{"is": {"body": "x"},
                            "behaviors": [{"decorate": "(config, response) => { response.headers.X = 1; }"}]}]}])
        status, headers, body = request(port, "GET", "/is")
        self.assertEqual((status, body), (200, b"plain"))
        self.assertEqual(dict((k.lower(), v) for k, v in headers.items())["x-path"], "/is")
        self.assertEqual(request(port, "GET", "/inject")[::2], (201, b"one two"))
        # Behaviors see the response before defaults are merged: no headers object yet
        # (docs/mountebank-semantics.md §5.1).
        status, _, body = request(port, "GET", "/other")
        self.assertEqual(status, 500)
        self.assertEqual(json.loads(body)["errors"][0]["message"], "invalid decorator injection")

    def test_wait_function_delays_at_least_what_it_returns(self):
        port = self.create([{"responses": [{"is": {"body": "waited"},
                                            "behaviors": [{"wait": "() => 300"}]}]}])
        started = time.monotonic()
        self.assertEqual(request(port, "GET", "/")[::2], (200, b"waited"))
        self.assertGreaterEqual(time.monotonic() - started, 0.3)

    def test_concurrent_requests_all_answered(self):
        port = self.create([{"predicates": [{"inject": "config => config.request.path.startsWith('/n')"}],
                             "responses": [{"inject": "config => ({ body: config.request.path })"}]}])
        results = {}

        def hit(i):
            results[i] = request(port, "GET", f"/n{i}")[::2]

        threads = [threading.Thread(target=hit, args=(i,)) for i in range(16)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(results, {i: (200, f"/n{i}".encode()) for i in range(16)})


class GateTest(unittest.TestCase):
    """Without --allowInjection every way in is refused (docs/mountebank-semantics.md §8.1), nested
    predicates included."""

    def test_refused_on_every_path(self):
        nested = {"protocol": "http", "stubs": [
            {"predicates": [{"or": [{"not": {"inject": "() => true"}}]}], "responses": [{"is": {}}]}]}
        with Rift() as rift:
            status, _, body = rift.admin("POST", "/imposters", nested)
            self.assertEqual(status, 400)
            self.assertEqual(body["errors"][0]["code"], "invalid injection")
            port = rift.create({"protocol": "http", "stubs": []})["port"]
            status, _, body = rift.admin("PUT", f"/imposters/{port}/stubs",
                                         {"stubs": [{"responses": [{"inject": "() => ({})"}]}]})
            self.assertEqual(status, 400)
            status, _, body = rift.admin("POST", f"/imposters/{port}/stubs",
                                         {"stub": {"responses": [{"is": {}, "behaviors": [{"decorate": "x => x"}]}]}})
            self.assertEqual(status, 400)

    def test_config_file_needs_the_flag(self):
        path = os.path.join(tempfile.mkdtemp(prefix="rift-e2e-"), "inject.json")
        with open(path, "w") as f:
            json.dump({"imposters": [{"protocol": "http", "stubs": [
                {"responses": [{"inject": "() => ({ body: 'from file' })"}]}]}]}, f)
        rift = Rift("--configfile", path)
        rift.expect_exit = True
        with self.assertRaises(RuntimeError) as failure:
            rift.__enter__()
        self.assertIn("invalid injection", str(failure.exception))
        rift.__exit__(None, None, None)


if __name__ == "__main__":
    unittest.main()
