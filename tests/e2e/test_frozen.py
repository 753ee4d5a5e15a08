"""Frozen mocks end to end: `riftc compile` builds real executables, which serve over real sockets.

The compiler comes from RIFT_RIFTC (set by ctest); default build/bin/riftc. A frozen mock built by
an ASan riftc is linked with the sanitizers too, and like `rift` in harness.py a sanitizer report
in its output fails the test. Standard library only.

The benchmark workload (examples/benchmark.json, fixed ports 4545-4560) is compiled from a copy
whose ports are shifted into a free range in 24000-32000, above the diff corpus' ports and below
the ephemeral ones, so parallel runs of the suite, the corpus runners and the other end-to-end
tests (which take ephemeral ports) never collide with it. It is also served by `rift --configfile`
(another shifted copy), and every request must get the same answer from both.
"""
import datetime
import hashlib
import importlib.util
import json
import os
import random
import re
import shutil
import socket
import subprocess
import tempfile
import unittest

from harness import Rift, free_port, port_free, report_marker, request

RIFTC = os.environ.get("RIFT_RIFTC", "build/bin/riftc")
# The server of the same build, to compare answers with: RIFT_BIN, else riftc's sibling.
RIFT_SERVER = os.environ.get("RIFT_BIN") or os.path.join(os.path.dirname(RIFTC), "rift")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCHMARK = os.path.join(REPO, "examples", "benchmark.json")


def load_bench_scenarios():
    """§6 and §7 of docs/benchmark-workload.md as bench/run.py defines them (the one source
    of truth)."""
    spec = importlib.util.spec_from_file_location("bench_run", os.path.join(REPO, "bench", "run.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SCENARIOS, module.RIFT_ONLY_SCENARIOS


CT_JSON = {"Content-Type": "application/json"}
# docs/benchmark-workload.md §6: (id, method, base port, path+query, body, headers, marker;
# None = empty body); §7 (the Rift-only scenarios) in the same shape. With these every imposter of
# the workload, Recording included, gets at least one request.
SECTION_6, SECTION_7 = load_bench_scenarios()
# More requests per imposter: first/last stubs, misses the tree must not take for hits.
EXTRA = [
    ("simple_ping", "GET", 4549, "/ping", None, {}, "pong"),
    ("simple_miss", "GET", 4549, "/healthz", None, {}, None),
    ("api_put", "PUT", 4545, "/api/v1/resource3/7", None, {}, '"updated": true'),
    ("api_wrong_method", "POST", 4545, "/api/v1/resource3/7", None, {}, None),
    ("regex_first", "GET", 4546, "/regex/pattern1/abc", None, {}, "regex 1"),
    ("regex_miss", "GET", 4546, "/regex/pattern1/", None, {}, None),
    ("complex_by_header", "POST", 4547, "/complex/50/x", "", {"X-Request-Type": "json"},
     '"complex": 50'),
    ("complex_get_misses", "GET", 4547, "/complex/50/x", None, CT_JSON, None),
    ("json_body_other", "POST", 4550, "/json/equals/25", '{"id":26,"type":"request"}', CT_JSON, None),
    ("jsonpath_first", "POST", 4551, "/jsonpath/1", '{"user":{"id":1}}', CT_JSON,
     '"user_id": 1'),
    ("xpath_other_id", "POST", 4552, "/xpath/25", '<root><item id="26">x</item></root>',
     {"Content-Type": "application/xml"}, None),
    ("header_first", "GET", 4554, "/headers/route", None, {"x-route-id": "ROUTE-1"},
     '"routed_to": 1'),
    ("query_first", "GET", 4555, "/query/search?size=10&page=1", None, {}, '"page": 1'),
    ("query_miss", "GET", 4555, "/query/search?page=1", None, {}, None),
    ("deepequals_extra_field", "POST", 4560, "/deep/equals/25",
     '{"order":{"id":25,"items":[{"sku":"sku-25","qty":25}]},"meta":{"source":"bench"},"x":1}',
     CT_JSON, None),
    ("literal_prefix_first", "GET", 4557, "/literal/prefix1/a", None, {}, '"literal": 1,'),
    ("method_mix_get_misses", "GET", 4558, "/method/25", None, {}, None),
    ("method_mix_options", "OPTIONS", 4558, "/method/50", None, {}, '"method_matched": "OPTIONS"'),
    ("body_field_first", "POST", 4559, "/orders/submit", '{"channel":"web","orderId":"ord-1"}',
     CT_JSON, '"order": 1}'),
    ("body_field_miss", "POST", 4559, "/orders/submit", '{"orderId":"ord-1","channel":"app"}',
     CT_JSON, None),
]


def riftc(*args, cwd=None, timeout=600):
    result = subprocess.run([os.path.abspath(RIFTC), *args], capture_output=True, text=True,
                            timeout=timeout, cwd=cwd)
    assert_no_sanitizer_report(result.stdout + result.stderr)
    return result


def run_binary(binary, *args, timeout=120):
    result = subprocess.run([binary, *args], capture_output=True, text=True, timeout=timeout)
    assert_no_sanitizer_report(result.stdout + result.stderr)
    return result


def assert_no_sanitizer_report(output):
    marker = report_marker(output)
    if marker:
        raise AssertionError(f"sanitizer report '{marker}':\n{output[-4000:]}")


def free_offset(ports):
    """An offset that moves every port in `ports` into a free range between the diff corpus
    (base ports 21000-23999) and the ephemeral ports (32768+: free_port() and client sockets)."""
    low, high = min(ports), max(ports)
    rng = random.Random()
    for _ in range(200):
        base = rng.randrange(24000, 32000 - (high - low))
        if all(port_free(base + p - low) for p in ports):
            return base - low
    raise RuntimeError("no free port range for the frozen mock")


def shifted_config(path, offset, out_path):
    with open(path) as f:
        config = json.load(f)
    for imposter in config["imposters"]:
        imposter["port"] += offset
    with open(out_path, "w") as f:
        json.dump(config, f, indent=2)
    return config["imposters"]


def send(port, method, path, body, headers):
    payload = (body or "").encode()
    return request(port, method, path, payload, headers)


class BenchmarkMockTest(unittest.TestCase):
    """examples/benchmark.json, compiled once (with --emit-cpp) and served by one frozen mock."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="rift-frozen-")
        try:
            cls.start()
        except BaseException:
            cls.tearDownClass()  # unittest does not, when setUpClass fails
            raise

    @classmethod
    def start(cls):
        with open(BENCHMARK) as f:
            base_ports = [i["port"] for i in json.load(f)["imposters"]]
        cls.offset = free_offset(base_ports)
        cls.config = os.path.join(cls.dir, "benchmark.json")
        cls.imposters = shifted_config(BENCHMARK, cls.offset, cls.config)
        cls.binary = os.path.join(cls.dir, "mock")
        cls.emit = os.path.join(cls.dir, "src")
        cls.compiled = riftc("compile", cls.config, "-o", cls.binary, "--emit-cpp", cls.emit)
        if cls.compiled.returncode != 0:
            raise AssertionError(f"riftc compile failed ({cls.compiled.returncode}):\n"
                                 f"{cls.compiled.stderr[-4000:]}")
        cls.metrics_port = free_port()
        cls.mock = Rift("--metrics-port", str(cls.metrics_port), binary=cls.binary)
        cls.mock.__enter__()
        # `rift start --configfile --engine interp` on another shifted copy: the interpreter's
        # answers (the oracle), never a JIT that swapped in meanwhile.
        cls.rift_offset = free_offset(base_ports)  # the mock holds its ports by now
        cls.rift_config = os.path.join(cls.dir, "benchmark-rift.json")
        shifted_config(BENCHMARK, cls.rift_offset, cls.rift_config)
        cls.rift = Rift("--configfile", cls.rift_config, "--engine", "interp", binary=RIFT_SERVER)
        cls.rift.__enter__()

    @classmethod
    def tearDownClass(cls):
        # Stops both servers whatever happens; a sanitizer report or unclean exit fails the class.
        failures = []
        for server in (getattr(cls, "rift", None), getattr(cls, "mock", None)):
            if server and server.process:
                try:
                    server.__exit__(None, None, None)
                except AssertionError as failure:
                    failures.append(failure)
        shutil.rmtree(cls.dir, ignore_errors=True)
        if failures:
            raise failures[0]

    def port(self, base):
        return base + self.offset

    def check_scenario(self, scenario):
        name, method, base, path, body, headers, marker = scenario
        status, hdrs, payload = send(self.port(base), method, path, body, headers)
        text = payload.decode("utf-8", "replace")
        if marker is None:
            self.assertEqual((status, text), (200, ""), name)  # Mountebank's no-match default
        else:
            self.assertTrue(200 <= status < 300, (name, status, text))
            self.assertIn(marker, text, name)
        return status, hdrs, text

    def test_compile_reports_what_it_built(self):
        self.assertIn("built " + self.binary, self.compiled.stderr)
        stubs = sum(len(i["stubs"]) for i in self.imposters)
        self.assertIn(f"(15 imposters, {stubs} stubs)", self.compiled.stderr)
        self.assertTrue(os.access(self.binary, os.X_OK))
        self.assertNotIn("warning:", self.compiled.stderr)  # generated code compiles cleanly

    def test_section_6_scenarios(self):
        self.assertEqual(len(SECTION_6), 13)
        for scenario in SECTION_6:
            with self.subTest(scenario[0]):
                self.check_scenario(scenario)

    def test_section_7_and_more_requests(self):
        for scenario in SECTION_7 + EXTRA:
            with self.subTest(scenario[0]):
                self.check_scenario(scenario)

    def test_same_answers_as_rift(self):
        # Every request gets the same status, headers and body as from `rift --configfile`.
        for name, method, base, path, body, headers, _ in SECTION_6 + SECTION_7 + EXTRA:
            with self.subTest(name):
                frozen = send(self.port(base), method, path, body, headers)
                served = send(base + self.rift_offset, method, path, body, headers)
                self.assertEqual(frozen[0], served[0])
                self.assertEqual(frozen[2], served[2])
                self.assertEqual({k: v for k, v in frozen[1].items() if k != "date"},
                                 {k: v for k, v in served[1].items() if k != "date"})
        self.assertEqual(self.rift.admin("GET", f"/imposters/{4545 + self.rift_offset}/plan")[2]
                         ["tier"], "interpreter")

    def test_every_imposter_is_exercised(self):
        covered = {s[2] for s in SECTION_6 + SECTION_7 + EXTRA}
        self.assertEqual({self.port(p) for p in covered}, {i["port"] for i in self.imposters})
        self.assertEqual(len(covered), 15)

    def test_template_and_status_codes(self):
        # `${request.*}` tokens are always on in `is` bodies and headers (docs/templates.md), as
        # the workload says Rift does; `${request.query}` names no parameter: empty.
        _, hdrs, text = self.check_scenario(SECTION_6[10])  # template
        self.assertEqual(hdrs.get("x-request-path"), "/template/25")
        self.assertIn('"path": "/template/25", "query": ""', text)
        status, _, payload = send(self.port(4545), "DELETE", "/api/v1/resource10/10", None, {})
        self.assertEqual((status, payload), (204, b""))
        status, hdrs, _ = send(self.port(4552), "POST", "/xpath/3",
                               '<root><item id="3"/></root>', {"Content-Type": "application/xml"})
        self.assertEqual((status, hdrs.get("content-type")), (200, "application/xml"))

    def test_plan_says_aot(self):
        for imposter in self.imposters:
            with self.subTest(imposter["name"]):
                status, _, plan = self.mock.admin("GET", f"/imposters/{imposter['port']}/plan")
                self.assertEqual(status, 200)
                self.assertEqual(list(plan)[0], "tier")
                self.assertEqual(plan["tier"], "aot")
                self.assertEqual(plan["stubs"], len(imposter["stubs"]))

    def test_metrics_port_counts_aot_matches(self):
        def aot_matches():
            status, _, text = send(self.metrics_port, "GET", "/metrics", None, {})
            self.assertEqual(status, 200)
            found = re.search(rb'^rift_matches_total\{tier="aot"\} (\d+)$', text, re.M)
            self.assertNotIn(b'tier="interpreter"', text)
            return int(found.group(1)) if found else 0

        before = aot_matches()
        base = self.imposters[0]["port"] - self.offset
        for _ in range(3):
            send(self.port(base), "GET", "/nowhere", None, {})
        self.assertEqual(aot_matches(), before + 3)

    def test_admin_reads(self):
        status, _, listing = self.mock.admin("GET", "/imposters")
        self.assertEqual(status, 200)
        self.assertEqual(sorted(i["port"] for i in listing["imposters"]),
                         sorted(i["port"] for i in self.imposters))
        status, _, api = self.mock.admin("GET", f"/imposters/{self.port(4545)}")
        self.assertEqual(status, 200)
        self.assertEqual(api["name"], "API")
        self.assertEqual(len(api["stubs"]), 310)
        self.assertEqual(api["stubs"][137]["predicates"],
                         [{"equals": {"method": "GET", "path": "/api/v1/resource5/5"}}])
        status, _, replayable = self.mock.admin("GET", "/imposters?replayable=true")
        self.assertEqual(status, 200)
        # Listed by port, as Mountebank does; replayable gives back the stubs as configured.
        by_port = sorted(self.imposters, key=lambda i: i["port"])
        self.assertEqual([i["port"] for i in replayable["imposters"]], [i["port"] for i in by_port])
        for served, configured in zip(replayable["imposters"], by_port):
            self.assertEqual(len(served["stubs"]), len(configured["stubs"]))
            self.assertEqual([s["predicates"] for s in served["stubs"]],
                             [s["predicates"] for s in configured["stubs"]])
        for path in ("/", "/config", "/logs", "/metrics"):
            self.assertEqual(self.mock.admin("GET", path)[0], 200, path)
        self.assertEqual(self.mock.admin("GET", "/imposters/1")[0], 404)

    def test_imposters_start_one_at_a_time_in_config_order(self):
        # Each embedded document is parsed and started in turn (the first answers before the
        # last is parsed), logged as Mountebank logs a configfile's imposters.
        with open(os.path.join(self.mock.dir, "out.log")) as f:  # --nologfile: stdout only
            opened = [line.strip() for line in f if line.endswith("] Open for business...\n")]
        self.assertEqual(opened, [f"info: [{i['protocol']}:{i['port']}] Open for business..."
                                  for i in self.imposters])

    def test_recorded_requests_show_up(self):
        port = self.port(4556)
        probe = "probe-%d" % random.randrange(1 << 30)
        status, _, payload = send(port, "GET", f"/api/v1/resource5/5?id={probe}", None,
                                  {"X-Probe": probe})
        self.assertIn(b'"name": "resource5_5"', payload)
        status, _, recording = self.mock.admin("GET", f"/imposters/{port}")
        self.assertEqual(status, 200)
        self.assertTrue(recording["recordRequests"])
        self.assertGreaterEqual(recording["numberOfRequests"], 1)
        mine = [r for r in recording["requests"] if r.get("query", {}).get("id") == probe]
        self.assertEqual(len(mine), 1, recording["requests"])
        self.assertEqual(mine[0]["path"], "/api/v1/resource5/5")
        self.assertEqual(mine[0]["headers"].get("X-Probe"), probe)
        # Imposters without recordRequests do not keep them.
        send(self.port(4545), "GET", "/api/v1/resource1", None, {})
        self.assertEqual(self.mock.admin("GET", f"/imposters/{self.port(4545)}")[2]["requests"], [])

    def test_admin_writes_are_refused(self):
        api, recording = self.port(4545), self.port(4556)
        send(recording, "GET", "/api/v1/resource1?kept=1", None, {})
        before = {i["port"]: self.mock.admin("GET", f"/imposters/{i['port']}")[2]
                  for i in self.imposters}
        stub = {"responses": [{"is": {"body": "new"}}]}
        imposter = {"protocol": "http", "port": free_port(), "stubs": [stub]}
        writes = [
            ("POST", "/imposters", imposter),
            ("PUT", "/imposters", {"imposters": [imposter]}),
            ("DELETE", "/imposters", None),
            ("DELETE", f"/imposters/{api}", None),
            ("POST", f"/imposters/{api}/stubs", {"index": 0, "stub": stub}),
            ("PUT", f"/imposters/{api}/stubs", {"stubs": [stub]}),
            ("PUT", f"/imposters/{api}/stubs/0", stub),
            ("DELETE", f"/imposters/{api}/stubs/0", None),
            ("DELETE", f"/imposters/{recording}/savedRequests", None),
            ("DELETE", f"/imposters/{recording}/savedProxyResponses", None),
            ("PATCH", f"/imposters/{api}", {"recordRequests": True}),
        ]
        for method, path, body in writes:
            with self.subTest(f"{method} {path}"):
                status, hdrs, error = self.mock.admin(method, path, body)
                self.assertEqual(status, 405, error)
                self.assertTrue(hdrs.get("content-type", "").startswith("application/json"))
                self.assertEqual(len(error["errors"]), 1)
                self.assertEqual(error["errors"][0]["code"], "read only")
                self.assertIn(f"({method} {path})", error["errors"][0]["message"])
        # Nothing changed: same imposters, same stubs, the recorded requests are still there.
        after = {i["port"]: self.mock.admin("GET", f"/imposters/{i['port']}")[2]
                 for i in self.imposters}
        for port in before:
            with self.subTest(port=port):
                self.assertEqual(after[port]["stubs"], before[port]["stubs"])
                self.assertEqual(after[port]["requests"], before[port]["requests"])
        self.assertEqual(len(self.mock.admin("GET", "/imposters")[2]["imposters"]), 15)
        with self.assertRaises(ConnectionRefusedError):  # the refused POST created nothing
            socket.create_connection(("127.0.0.1", imposter["port"]), timeout=2).close()
        self.check_scenario(SECTION_6[3])  # api_last
        self.assertEqual(self.mock.admin("GET", f"/imposters/{api}/plan")[2]["tier"], "aot")

    def test_explain(self):
        api = self.port(4545)
        status, _, report = self.mock.admin("POST", f"/imposters/{api}/explain",
                                            {"method": "GET", "path": "/api/v1/resource5/5"})
        self.assertEqual(status, 200, report)
        self.assertEqual(report["tier"], "aot")
        self.assertEqual(report["matched"], 137)
        self.assertEqual(report["nearMisses"], [])
        status, _, report = self.mock.admin("POST", f"/imposters/{self.port(4555)}/explain",
                                            {"method": "GET", "path": "/query/search",
                                             "query": {"page": "100", "size": "11"}})
        self.assertEqual(status, 200, report)
        self.assertIsNone(report["matched"])
        self.assertIn("query", json.dumps(report["nearMisses"][0]["failedClause"]))
        status, _, error = self.mock.admin("POST", f"/imposters/{api}/explain", {"path": 5})
        self.assertEqual(status, 400)
        self.assertEqual(error["errors"][0]["code"], "bad data")

    def test_about(self):
        result = run_binary(self.binary, "--about")
        self.assertEqual(result.returncode, 0, result.stderr)
        out = result.stdout
        version = riftc("--version").stdout.split()[-1]
        self.assertIn(f"frozen mock built by riftc {version}\n", out)
        self.assertIn(f"config: {self.config}\n", out)
        digest = re.search(r"^config digest: sha256:([0-9a-f]{64})$", out, re.M)
        self.assertTrue(digest, out)
        # The digest is of the embedded imposters as riftc loaded them (compact JSON).
        embedded = json.dumps(self.imposters, separators=(",", ":"), ensure_ascii=False)
        self.assertEqual(digest.group(1), hashlib.sha256(embedded.encode()).hexdigest())
        built = re.search(r"^built: (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)$", out, re.M)
        self.assertTrue(built, out)
        when = datetime.datetime.strptime(built.group(1), "%Y-%m-%dT%H:%M:%SZ")
        age = datetime.datetime.utcnow() - when
        self.assertLess(abs(age.total_seconds()), 24 * 3600, built.group(1))
        for imposter in self.imposters:
            line = f"  {imposter['port']} {imposter['name']} ({len(imposter['stubs'])} stubs, aot)"
            self.assertIn(line + "\n", out)

    def test_version_and_help(self):
        version = riftc("--version").stdout.split()[-1]
        result = run_binary(self.binary, "--version")
        self.assertEqual((result.returncode, result.stdout.strip()), (0, version))
        result = run_binary(self.binary, "--help")
        self.assertEqual(result.returncode, 0)
        self.assertIn("A frozen mock of " + self.config, result.stdout)

    def test_configfile_and_other_commands_are_refused(self):
        result = run_binary(self.binary, "--configfile", self.config, "--port", str(free_port()))
        self.assertEqual(result.returncode, 1)
        self.assertIn("--configfile is refused", result.stderr)
        result = run_binary(self.binary, "stop", "--port", str(free_port()))
        self.assertEqual(result.returncode, 1)
        self.assertIn("only starts", result.stderr)
        result = run_binary(self.binary, "--frobnicate")
        self.assertEqual(result.returncode, 1)
        self.assertIn("--about", result.stderr)

    def test_emitted_sources(self):
        files = sorted(os.listdir(self.emit))
        for imposter in self.imposters:
            self.assertIn(f"imposter_{imposter['port']}.cpp", files)
        self.assertIn("frozen_main.cpp", files)
        re_units = [f for f in files if f.endswith(".re")]
        self.assertTrue(re_units, files)  # the literal-path imposters use re2c DFAs
        for unit in re_units:
            self.assertIn(unit[:-3] + ".cpp", files)
            with open(os.path.join(self.emit, unit)) as f:
                self.assertIn("/*!re2c", f.read())
        with open(os.path.join(self.emit, f"imposter_{self.port(4545)}.cpp")) as f:
            api = f.read()
        self.assertIn("// stub 0", api)
        self.assertIn("// stub 309", api)
        self.assertIn("Do not edit", api.split("\n", 3)[0] + api)
        with open(os.path.join(self.emit, "frozen_main.cpp")) as f:
            main = f.read()
        self.assertIn("rift::frozen_main(argc, argv, build)", main)
        for imposter in self.imposters:
            self.assertIn('\\"port\\":%d' % imposter["port"], main)  # compact JSON

    def test_match_bench_agrees_with_the_interpreter(self):
        scenarios = [s for s in SECTION_6 + SECTION_7 + EXTRA]
        for base in sorted({s[2] for s in scenarios}):
            requests = []
            for _, method, port, target, body, headers, _ in scenarios:
                if port != base:
                    continue
                path, _, query = target.partition("?")
                entry = {"method": method, "path": path, "headers": headers, "body": body or ""}
                if query:
                    entry["query"] = dict(kv.split("=", 1) for kv in query.split("&"))
                requests.append(entry)
            spec = os.path.join(self.dir, f"requests-{base}.json")
            with open(spec, "w") as f:
                json.dump({"port": self.port(base), "requests": requests}, f)
            with self.subTest(port=base):
                result = run_binary(self.binary, "--match-bench", spec, "--iterations", "20")
                self.assertEqual(result.returncode, 0, result.stderr)
                report = json.loads(result.stdout)
                self.assertIs(report["answers_agree"], True, report)
                self.assertEqual(report["requests"], len(requests))
                hits = sum(1 for s in scenarios if s[2] == base and s[6] is not None)
                self.assertEqual(report["matched"], hits, report)
        result = run_binary(self.binary, "--match-bench", os.path.join(self.dir, "nothing.json"))
        self.assertEqual(result.returncode, 2)


class CompileErrorsTest(unittest.TestCase):
    """riftc compile refuses bad input before compiling anything, and builds nothing."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rift-frozen-")
        self.out = os.path.join(self.dir, "mock")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def write(self, name, content):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(content if isinstance(content, str) else json.dumps(content))
        return path

    def compile_fails(self, config, *messages, code=1, extra=()):
        result = riftc("compile", config, "-o", self.out, *extra)
        self.assertEqual(result.returncode, code, result.stderr)
        for message in messages:
            self.assertIn(message, result.stderr)
        self.assertEqual(result.stdout, "")
        self.assertFalse(os.path.exists(self.out))
        return result

    def imposter(self, port, predicates=()):
        return {"protocol": "http", "port": port,
                "stubs": [{"predicates": list(predicates), "responses": [{"is": {"body": "x"}}]}]}

    def test_missing_file(self):
        self.compile_fails(os.path.join(self.dir, "missing.json"),
                           "missing.json: cannot read the config file")

    def test_invalid_json(self):
        path = self.write("broken.json", '{"imposters": [\n  {"port": 4545,,}\n]}\n')
        self.compile_fails(path, "broken.json:2:", "invalid JSON")

    def test_imposter_without_port(self):
        config = {"imposters": [self.imposter(free_port()), {"protocol": "http", "stubs": []}]}
        self.compile_fails(self.write("noport.json", config), "imposter 1 has no port")

    def test_duplicate_port(self):
        port = free_port()
        config = {"imposters": [self.imposter(port), self.imposter(port)]}
        self.compile_fails(self.write("dup.json", config), f"port {port} is used twice")

    def test_invalid_regex(self):
        config = {"imposters": [self.imposter(free_port(), [{"matches": {"path": "(unclosed"}}])]}
        self.compile_fails(self.write("regex.json", config),
                           "imposter 0: bad data: Invalid regular expression: /(unclosed/")

    def test_mountebank_validation(self):
        config = {"imposters": [{"protocol": "http", "port": free_port(), "stubs": [{}]}]}
        self.compile_fails(self.write("invalid.json", config), "bad data",
                           "'responses' must be a non-empty array")

    def test_usage_errors_exit_2(self):
        config = self.write("ok.json", {"imposters": [self.imposter(free_port())]})
        self.compile_fails(config, "unknown or incomplete option '--frobnicate'", code=2,
                           extra=("--frobnicate",))
        self.compile_fails(config, "--jobs takes a number", code=2, extra=("--jobs", "x"))
        result = riftc("compile", config)
        self.assertEqual(result.returncode, 2)
        self.assertIn("usage: riftc compile", result.stderr)


class SmallMockTest(unittest.TestCase):
    """A small config: sources only with --emit-cpp, then a YAML twin built and served."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rift-frozen-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_emit_cpp_alone_writes_sources_only(self):
        port = free_port()
        config = os.path.join(self.dir, "small.json")
        with open(config, "w") as f:
            json.dump({"imposters": [{"protocol": "http", "port": port, "stubs": [
                {"predicates": [{"equals": {"path": "/a"}}], "responses": [{"is": {"body": "a"}}]},
                {"responses": [{"is": {"body": "any"}}]}]}]}, f)
        out = os.path.join(self.dir, "src")
        result = riftc("compile", config, "--emit-cpp", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("wrote " + out, result.stderr)
        files = sorted(os.listdir(out))
        self.assertIn(f"imposter_{port}.cpp", files)
        self.assertIn("frozen_main.cpp", files)
        self.assertFalse([f for f in files if f.endswith(".o")], files)
        with open(os.path.join(out, f"imposter_{port}.cpp")) as f:
            source = f.read()
        self.assertIn("// stub 0", source)
        self.assertIn("// stub 1", source)

    def test_yaml_config_is_served(self):
        port = free_port()
        config = os.path.join(self.dir, "small.yaml")
        with open(config, "w") as f:
            f.write(f"""imposters:
  - protocol: http
    port: {port}
    name: yaml
    defaultResponse:
      statusCode: 404
      body: none
    stubs:
      - predicates:
          - equals: {{method: GET, path: /a}}
        responses:
          - is: {{statusCode: 201, body: first}}
          - is: {{statusCode: 200, body: second}}
""")
        binary = os.path.join(self.dir, "mock")
        result = riftc("compile", config, "-o", binary)
        self.assertEqual(result.returncode, 0, result.stderr)
        with Rift(binary=binary) as mock:
            self.assertEqual(request(port, "GET", "/a")[::2], (201, b"first"))
            self.assertEqual(request(port, "GET", "/a")[::2], (200, b"second"))
            self.assertEqual(request(port, "GET", "/a")[::2], (201, b"first"))
            self.assertEqual(request(port, "GET", "/b")[::2], (404, b"none"))
            self.assertEqual(mock.admin("GET", f"/imposters/{port}/plan")[2]["tier"], "aot")

    def test_start_up_checks(self):
        port = free_port()
        config = os.path.join(self.dir, "inject.json")
        with open(config, "w") as f:
            json.dump({"imposters": [{"protocol": "http", "port": port, "stubs": [
                {"predicates": [{"equals": {"path": "/plain"}}],
                 "responses": [{"is": {"body": "plain"}}]},
                {"predicates": [{"inject": "function (config) { return true; }"}],
                 "responses": [{"is": {"body": "injected"}}]}]}]}, f)
        binary = os.path.join(self.dir, "mock")
        result = riftc("compile", config, "-o", binary)  # riftc accepts injection, as rift would
        self.assertEqual(result.returncode, 0, result.stderr)
        # Injection needs --allowInjection at start-up, like `rift --configfile`.
        result = run_binary(binary, "--port", str(free_port()), "--nologfile",
                            "--pidfile", os.path.join(self.dir, "pid"))
        self.assertEqual(result.returncode, 1)
        self.assertIn("invalid injection", result.stdout + result.stderr)
        # An imposter port that is taken stops start-up.
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
            taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            taken.bind(("0.0.0.0", port))
            taken.listen()
            result = run_binary(binary, "--allowInjection", "--port", str(free_port()),
                                "--nologfile", "--pidfile", os.path.join(self.dir, "pid"))
            self.assertEqual(result.returncode, 1)
            self.assertIn(f"Port {port} is already in use", result.stdout + result.stderr)
        with Rift("--allowInjection", binary=binary) as mock:
            self.assertEqual(request(port, "GET", "/plain")[::2], (200, b"plain"))
            # The compiled tree calls into the JavaScript engine at the inject leaf.
            self.assertEqual(request(port, "GET", "/other")[::2], (200, b"injected"))
            self.assertEqual(mock.admin("GET", f"/imposters/{port}/plan")[2]["tier"], "aot")
            pidfile = os.path.join(mock.dir, "rift.pid")
            self.assertTrue(os.path.exists(pidfile))
        self.assertEqual(mock.process.returncode, 0)  # SIGTERM: a clean exit
        self.assertFalse(os.path.exists(pidfile))


if __name__ == "__main__":
    unittest.main()
