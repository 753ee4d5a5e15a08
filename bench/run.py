#!/usr/bin/env python3
"""Serving benchmark: Rift vs Mountebank (+ an nginx static-response anchor), one engine at a time.

Implements docs/benchmark-workload.md §1, §2, §6, §8 and §9, adapted to a small
shared machine: the server is pinned to one core and the load generator (wrk, one thread) to
another with taskset; engines run strictly one after the other (Rift, Mountebank, nginx); every
scenario proves its body marker before it is measured; the server's CPU time (utime + stime of
every process in its session, all threads) is read from /proc before and after each measured run
and reported as CPU microseconds per request. Standard library only.

  python3 bench/run.py --rift build/bin/rift
  python3 bench/run.py --engines mb,nginx --duration 3 --warmup 1
  python3 bench/run.py --scenarios simple_health,api_last --connections 50

Writes bench/results/<timestamp>.md (and .json) and prints the table. See bench/README.md.
"""
import argparse
import datetime
import http.client
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "tools", "pylib"))
import fixture  # noqa: E402  (bench/fixture.py, same directory)
import rift_process  # noqa: E402  (tools/pylib/rift_process.py: server processes, ports, /proc)

CLK_TCK = os.sysconf("SC_CLK_TCK")
MB_DEFAULT = "/opt/mb/node_modules/mountebank/bin/mb"
CT_JSON = {"Content-Type": "application/json"}

# docs/benchmark-workload.md §6: the 13 comparison scenarios, frozen order.
# (id, method, base port, path+query, body, extra headers, marker; None marker = body must be empty)
SCENARIOS = [
    ("simple_health", "GET", 4549, "/health", None, {}, "OK"),
    ("api_first", "GET", 4545, "/api/v1/resource1", None, {}, '"total": 2'),
    ("api_middle", "GET", 4545, "/api/v1/resource5/5", None, {}, '"name": "resource5_5"'),
    ("api_last", "GET", 4545, "/api/v1/resource10/10", None, {}, '"name": "resource10_10"'),
    ("no_match", "GET", 4545, "/nonexistent", None, {}, None),
    ("regex_last", "GET", 4546, "/regex/pattern100/test", None, {}, "regex 100"),
    ("complex_predicate", "POST", 4547, "/complex/25/test", '{"name":"test"}', CT_JSON,
     '"complex": 25'),
    ("json_body_equals", "POST", 4550, "/json/equals/25", '{"id":25,"type":"request"}', CT_JSON,
     '"matched": "equals"'),
    ("jsonpath", "POST", 4551, "/jsonpath/25", '{"user":{"id":25,"name":"x"}}', CT_JSON,
     '"jsonpath_matched": true'),
    ("xpath", "POST", 4552, "/xpath/25", '<root><item id="25">x</item></root>',
     {"Content-Type": "application/xml"}, "<id>25</id>"),
    ("template", "GET", 4553, "/template/25?foo=bar&baz=qux", None, {}, '"template": 25'),
    ("header_last", "GET", 4554, "/headers/route", None, {"X-Route-Id": "route-100"},
     '"routed_to": 100'),
    ("query_last", "GET", 4555, "/query/search?page=100&size=10", None, {}, '"page": 100'),
]
SCENARIO_IDS = [s[0] for s in SCENARIOS]
# docs/benchmark-workload.md §7: the Rift-only scenarios, in the workload's order and the same shape
# (this script does not run them; bench/report.py and tests/e2e/test_frozen.py do).
RIFT_ONLY_SCENARIOS = [
    ("deepequals_body", "POST", 4560, "/deep/equals/25",
     '{"order":{"id":25,"items":[{"sku":"sku-25","qty":25}]},"meta":{"source":"bench"}}',
     CT_JSON, '"matched": "deepEquals"'),
    ("literal_prefix", "GET", 4557, "/literal/prefix100/deep/path", None, {}, '"kind": "prefix"'),
    ("literal_contains", "GET", 4557, "/x/needle100/y", None, {}, '"kind": "contains"'),
    ("method_mix", "DELETE", 4558, "/method/25", None, {}, '"method_matched": "DELETE"'),
    ("body_field_scale", "POST", 4559, "/orders/submit", '{"orderId":"ord-100","channel":"web"}',
     CT_JSON, '"body_field_matched": true'),
    ("recording_on", "GET", 4556, "/api/v1/resource5/5", None, {}, '"name": "resource5_5"'),
]
ALL_BASE_PORTS = [base for _, base, _, _ in fixture.TABLE] + [fixture.RECORDING[1]]


class Abort(Exception):
    pass


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Ports and processes


# Ports, sessions and the server process itself: tools/pylib/rift_process.py.


def cpu_ticks(sid):
    """utime + stime (clock ticks, all threads) summed over every live process of session sid."""
    total = 0
    for pid in rift_process.session_pids(sid):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # fields 14 (utime), 15 (stime)
        except (OSError, IndexError, ValueError):
            pass
    return total


def rss_kb(sid):
    total = 0
    for pid in rift_process.session_pids(sid):
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


class Engine:
    """One server process group: start pinned, wait ready, stop hard, prove ports are free."""

    def __init__(self, name, label, argv, admin_port, ports, workdir, ready_path="/"):
        self.name, self.label, self.argv = name, label, argv
        self.admin_port, self.ports = admin_port, sorted(set(ports))
        self.workdir, self.ready_path = workdir, ready_path
        self.server = None  # the rift_process.ServerProcess while started
        self.log_path = os.path.join(workdir, f"{name}.log")

    @property
    def proc(self):
        return self.server.proc if self.server else None

    def check_ports_free(self):
        busy = [p for p in self.ports if rift_process.port_busy(p)]
        if busy:
            owners = rift_process.listener_pids(set(busy))
            raise Abort(f"{self.label}: port(s) {busy} already in use (listeners: "
                        f"{owners or 'unknown'}); another engine or engineer is using them. "
                        f"Refusing to start.")

    def start(self, server_core):
        self.check_ports_free()
        self.server = rift_process.ServerProcess(self.argv, workdir=self.workdir,
                                                 log_name=f"{self.name}.log", name=self.label,
                                                 cpu=server_core)
        log(f"{self.label}: starting: {' '.join(self.server.command())} (log {self.log_path})")
        self.server.start()
        try:
            self.server.wait_ready(lambda: rift_process.http_status(
                self.admin_port, self.ready_path, host="localhost"), timeout=60, interval=0.5)
        except rift_process.ServerError as e:
            raise Abort(str(e)) from e
        log(f"{self.label}: ready (pid {self.server.pid})")

    def log_tail(self, n=20):
        try:
            with open(self.log_path, "rb") as f:
                return b"\n".join(f.read().splitlines()[-n:]).decode(errors="replace")
        except OSError:
            return ""

    @property
    def sid(self):
        return self.server.pid  # start_new_session: the leader's pid is the session id

    def stop(self):
        if self.server is None:
            return
        sid = self.server.pid
        self.server.stop()
        self.server = None
        # Listeners on our ports that our session left behind, then anyone else's (reported).
        strangers = {}
        for pid, ports in rift_process.listener_pids(set(self.ports)).items():
            if rift_process.session_of(pid) == sid:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            else:
                strangers[pid] = ports
        for _ in range(40):
            busy = [p for p in self.ports if rift_process.port_busy(p)]
            if not busy:
                log(f"{self.label}: stopped, ports free")
                return
            time.sleep(0.25)
        raise Abort(f"{self.label}: ports {busy} still accept connections after stop "
                    f"(listeners not started by this harness: {strangers or 'none found'})")


def new_workdir(kind, stamp):
    """A fresh bench/.work/<kind>-<stamp>-*/ for one run's logs, configs and scripts."""
    os.makedirs(os.path.join(HERE, ".work"), exist_ok=True)
    return tempfile.mkdtemp(prefix=f"{kind}-{stamp}-", dir=os.path.join(HERE, ".work"))


# ---------------------------------------------------------------------------------------------
# HTTP helpers


def http_call(port, method, path, body=None, headers=None, timeout=15):
    conn = http.client.HTTPConnection("localhost", port, timeout=timeout)
    try:
        conn.request(method, path, body=body.encode() if isinstance(body, str) else body,
                     headers=headers or {})
        resp = conn.getresponse()
        return resp.status, resp.read().decode("utf-8", errors="replace")
    finally:
        conn.close()


def load_fixture(engine, offset, args):
    http_call(engine.admin_port, "DELETE", "/imposters")
    rows = fixture.imposters(offset, args.stub_count, args.body_field_stubs)
    for name, base, body in rows:
        status, text = http_call(engine.admin_port, "POST", "/imposters", body,
                                 {"Content-Type": "application/json"}, timeout=180)
        if status != 201:
            raise Abort(f"{engine.label}: POST /imposters {name} (port {base + offset}) answered "
                        f"{status}, want 201: {text[:500]}")
    log(f"{engine.label}: fixture loaded ({len(rows)} imposters)")
    time.sleep(1)


def prove_body(engine_label, scenario, port):
    sid, method, _, path, body, headers, marker = scenario
    try:
        status, text = http_call(port, method, path, body, headers, timeout=15)
    except (OSError, http.client.HTTPException) as e:
        raise Abort(f"{engine_label}/{sid}: body proof request failed: {e}")
    if marker is None:
        ok = text == ""
        want = "an empty body"
    else:
        ok = marker in text
        want = f"marker {marker!r}"
    if not ok:
        raise Abort(f"{engine_label}/{sid}: body proof failed: status {status}, want {want}, "
                    f"got {text[:300]!r}")
    return status


# ---------------------------------------------------------------------------------------------
# wrk

LUA_TEMPLATE = r"""
wrk.method = %(method)s
%(body)s
%(headers)s
local threads = {}
function setup(thread) table.insert(threads, thread) end
%(hook)s
function done(summary, latency, requests)
  local non2xx, seen = 0, 0
  for _, t in ipairs(threads) do
    non2xx = non2xx + (t:get("non2xx") or 0)
    seen = seen + (t:get("seen") or 0)
  end
  local e = summary.errors
  io.write(string.format(
    "RIFT_BENCH {\"requests\": %%d, \"duration_us\": %%d, \"p50_us\": %%d, \"p90_us\": %%d, " ..
    "\"p99_us\": %%d, \"p999_us\": %%d, \"mean_us\": %%.1f, \"max_us\": %%d, \"hooked\": %%s, " ..
    "\"responses_seen\": %%d, \"non2xx\": %%d, \"err_connect\": %%d, \"err_read\": %%d, " ..
    "\"err_write\": %%d, \"err_status\": %%d, \"err_timeout\": %%d}\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency:percentile(99.9), latency.mean, latency.max,
    %(hooked)s, seen, non2xx, e.connect, e.read, e.write, e.status, e.timeout))
end
"""

HOOK = r"""
function init(args) non2xx = 0; seen = 0 end
function response(status, headers, body)
  seen = seen + 1
  if status < 200 or status > 299 then non2xx = non2xx + 1 end
end
"""


def lua_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def wrk_script(path, method, body, headers, hook):
    text = LUA_TEMPLATE % {
        "method": lua_str(method),
        "body": f"wrk.body = {lua_str(body)}" if body is not None else "wrk.body = nil",
        "headers": "\n".join(f"wrk.headers[{lua_str(k)}] = {lua_str(v)}"
                             for k, v in headers.items()),
        "hook": HOOK if hook else "",
        "hooked": "true" if hook else "false",
    }
    with open(path, "w") as f:
        f.write(text)


UNIT_US = {"us": 1.0, "ms": 1000.0, "s": 1e6, "m": 6e7}


def parse_wrk_text(out):
    """Fallback parse of wrk's `--latency` text: percentiles (us), requests, Requests/sec."""
    res = {}
    for pct, val, unit in re.findall(r"^\s+(50|75|90|99)%\s+([\d.]+)(us|ms|s|m)\s*$", out, re.M):
        res[f"p{pct}_us"] = float(val) * UNIT_US[unit]
    m = re.search(r"(\d+) requests in", out)
    if m:
        res["requests"] = int(m.group(1))
    m = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if m:
        res["rps_text"] = float(m.group(1))
    m = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    res["non2xx_3xx_text"] = int(m.group(1)) if m else 0
    return res


def run_wrk(args, url, script, duration, engine, measure):
    argv = []
    if args.client_core is not None:
        argv += ["taskset", "-c", str(args.client_core)]
    argv += [args.wrk, "-t", "1", "-c", str(args.connections), "-d", f"{duration}s", "--latency",
             "--timeout", f"{args.wrk_timeout}s", "-s", script, url]
    cpu0 = cpu_ticks(engine.sid)
    wall0 = time.monotonic()
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=duration + 30)
    except subprocess.TimeoutExpired:
        raise Abort(f"wrk timed out: {' '.join(argv)}")
    wall = time.monotonic() - wall0
    cpu1 = cpu_ticks(engine.sid)
    if proc.returncode != 0:
        raise Abort(f"wrk exited {proc.returncode}: {proc.stderr.strip() or proc.stdout.strip()}")
    if not measure:
        return None
    res = parse_wrk_text(proc.stdout)
    m = re.search(r"^RIFT_BENCH (\{.*\})$", proc.stdout, re.M)
    if m:
        res.update(json.loads(m.group(1)))
    if not res.get("requests"):
        raise Abort(f"wrk completed no requests against {url}:\n{proc.stdout}\n{proc.stderr}")
    dur_s = res.get("duration_us", wall * 1e6) / 1e6
    res["rps"] = res["requests"] / dur_s
    res["cpu_s"] = (cpu1 - cpu0) / CLK_TCK
    res["cpu_us_per_req"] = res["cpu_s"] * 1e6 / res["requests"]
    res["cpu_util"] = res["cpu_s"] / wall
    res["wall_s"] = wall
    res["wrk_stdout"] = proc.stdout
    return res


def check_statuses(label, res):
    bad = res.get("non2xx", 0) if res.get("hooked") else 0
    bad = max(bad, res.get("non2xx_3xx_text", 0), res.get("err_status", 0))
    if bad:
        raise Abort(f"{label}: {bad} non-2xx responses out of {res['requests']}")


def measure_point(args, engine, label, url, method, body, headers):
    hooked = os.path.join(args.workdir, f"{engine.name}-{label}-hook.lua")
    plain = os.path.join(args.workdir, f"{engine.name}-{label}.lua")
    wrk_script(hooked, method, body, headers, hook=True)
    wrk_script(plain, method, body, headers, hook=False)
    if args.warmup > 0:
        warm = run_wrk(args, url, hooked if args.status_hook == "warmup" else plain, args.warmup,
                       engine, measure=True)
        check_statuses(f"{engine.label}/{label} (warmup)", warm)
    load = open("/proc/loadavg").read().split()[0]
    res = run_wrk(args, url, hooked if args.status_hook == "measure" else plain, args.duration,
                  engine, measure=True)
    check_statuses(f"{engine.label}/{label}", res)
    res["loadavg"] = float(load)
    res["rss_mb"] = rss_kb(engine.sid) / 1024
    errs = sum(res.get(k, 0) for k in ("err_connect", "err_read", "err_write", "err_timeout"))
    res["socket_errors"] = errs
    log(f"{engine.label}/{label}: {res['rps']:.1f} rps, p50 {fmt_ms(res.get('p50_us'))} ms, "
        f"p99 {fmt_ms(res.get('p99_us'))} ms, cpu {res['cpu_us_per_req']:.1f} us/req "
        f"({res['cpu_util'] * 100:.0f}% of a core), socket errors {errs}, load {load}")
    return res


# ---------------------------------------------------------------------------------------------
# Engines


def run_mountebank_like(args, name, label, argv, admin, offset, extra_ports, scenarios):
    ports = [admin] + [b + offset for b in ALL_BASE_PORTS] + extra_ports
    engine = Engine(name, label, argv, admin, ports, args.workdir)
    results = {}
    try:
        engine.start(args.server_core)
        load_fixture(engine, offset, args)
        for sc in scenarios:
            port = sc[2] + offset
            status = prove_body(label, sc, port)
            log(f"{label}/{sc[0]}: body proof ok (status {status})")
            url = f"http://127.0.0.1:{port}{sc[3]}"
            results[sc[0]] = measure_point(args, engine, sc[0], url, sc[1], sc[4], sc[5])
    finally:
        engine.stop()
    return results


NGINX_CONF = """worker_processes 1;
master_process off;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  client_body_temp_path {dir}/client_body;
  proxy_temp_path {dir}/proxy;
  fastcgi_temp_path {dir}/fastcgi;
  uwsgi_temp_path {dir}/uwsgi;
  scgi_temp_path {dir}/scgi;
  keepalive_timeout {keepalive};
  keepalive_requests 100000000;
  server {{
    listen 127.0.0.1:{port};
    location / {{
      default_type text/plain;
      return 200 "OK";
    }}
  }}
}}
"""


NGINX_MODES = {"keepalive": "75s", "close": "0"}


def run_nginx(args, after=None):
    """One nginx process per mode: `keepalive` (the anchor) and/or `close` (keepalive_timeout 0,
    i.e. one connection per request, as Mountebank-compatible engines answer). `after(mode,
    port, result)` runs once a mode is measured, while nginx still serves."""
    out = {}
    for mode in args.nginx_mode_list:
        d = os.path.join(args.workdir, f"nginx-{mode}")
        os.makedirs(d, exist_ok=True)
        conf = os.path.join(d, "nginx.conf")
        with open(conf, "w") as f:
            f.write(NGINX_CONF.format(dir=d, port=args.nginx_port, keepalive=NGINX_MODES[mode]))
        argv = [args.nginx, "-p", d, "-c", conf, "-e", os.path.join(d, "error.log")]
        engine = Engine(f"nginx-{mode}", f"nginx ({mode})", argv, args.nginx_port,
                        [args.nginx_port], args.workdir)
        try:
            engine.start(args.server_core)
            status, text = http_call(args.nginx_port, "GET", "/health")
            if status != 200 or text != "OK":
                raise Abort(f"nginx: body proof failed: {status} {text!r}")
            log(f"nginx ({mode}): body proof ok")
            url = f"http://127.0.0.1:{args.nginx_port}/health"
            out[mode] = measure_point(args, engine, f"static_ok_{mode}", url, "GET", None, {})
            if after:
                after(mode, args.nginx_port, out[mode])
        finally:
            engine.stop()
    return out


# ---------------------------------------------------------------------------------------------
# Report


def fmt_ms(us):
    return "" if us is None else f"{us / 1000:.3f}"


def fmt_num(x, nd=1):
    return "" if x is None else f"{x:,.{nd}f}"


def ratio(a, b, nd=2):
    if a is None or b is None or b == 0:
        return ""
    return f"{a / b:,.{nd}f}"


def render(args, scenarios, res, started, host):
    rift, mb, ngx = res.get("rift", {}), res.get("mb", {}), res.get("nginx", {})
    g = lambda d, k: d.get(k) if d else None  # noqa: E731
    modes = [m for m in args.nginx_mode_list if m in ngx]
    lines = [
        f"# Rift serving benchmark, {started}",
        "",
        f"- host: {host}",
        f"- engines (in run order): {', '.join(args.engine_list)}; server pinned to core "
        f"{args.server_core}, wrk (1 thread) pinned to core {args.client_core}",
        f"- wrk: {args.connections} connections, {args.duration} s measured after "
        f"{args.warmup} s warmup; p50/p99 from wrk's latency histogram; non-2xx counted by "
        f"a Lua response() hook in: {args.status_hook} (plus wrk's status >= 400 count always)",
        f"- Rift: `{' '.join(args.rift_argv) if args.rift_argv else '-'}` "
        f"(rift-ka adds `--keepAlive`)",
        f"- Mountebank: `{' '.join(args.mb_argv)}`",
        f"- nginx anchor: 2-byte `OK`, 1 worker, port {args.nginx_port}, modes: "
        f"{', '.join(args.nginx_mode_list) if 'nginx' in args.engine_list else '-'} "
        "(keepalive = persistent connections; close = keepalive_timeout 0, a new connection "
        "per request like Mountebank's `Connection: close`)",
        "- CPU µs/req = server CPU (utime+stime, all threads, every process of its session, "
        "from /proc) during the measured run ÷ requests completed. Ratios are Rift÷MB: RPS "
        "higher = Rift faster; CPU/req lower = Rift cheaper. Rift/nginx = Rift CPU/req ÷ the "
        "anchor's CPU/req.",
        "",
    ]
    head = ("| Scenario | Rift RPS | Rift p50 ms | Rift p99 ms | Rift CPU µs/req "
            "| MB RPS | MB p50 ms | MB p99 ms | MB CPU µs/req | Rift/MB RPS | Rift/MB CPU/req |")
    head += "".join(f" Rift/nginx-{m} CPU/req |" for m in modes)
    lines += [head, "|---" + "|--:" * (10 + len(modes)) + "|"]
    for sc in scenarios:
        r, m = rift.get(sc[0]), mb.get(sc[0])
        row = (f"| {sc[0]} | {fmt_num(g(r, 'rps'))} | {fmt_ms(g(r, 'p50_us'))} | "
               f"{fmt_ms(g(r, 'p99_us'))} | {fmt_num(g(r, 'cpu_us_per_req'))} | "
               f"{fmt_num(g(m, 'rps'))} | {fmt_ms(g(m, 'p50_us'))} | {fmt_ms(g(m, 'p99_us'))} | "
               f"{fmt_num(g(m, 'cpu_us_per_req'))} | {ratio(g(r, 'rps'), g(m, 'rps'))} | "
               f"{ratio(g(r, 'cpu_us_per_req'), g(m, 'cpu_us_per_req'), 3)} |")
        row += "".join(f" {ratio(g(r, 'cpu_us_per_req'), ngx[mo]['cpu_us_per_req'])} |"
                       for mo in modes)
        lines.append(row)
    ka = res.get("rift-ka", {})
    if ka:
        lines += ["", "Rift with `--keepAlive` (persistent connections; Mountebank still closes "
                  "every connection, as it must without a `Connection` header in the stub):", "",
                  "| Scenario | RPS | p50 ms | p99 ms | CPU µs/req | ÷ MB RPS | ÷ MB CPU/req |"
                  + "".join(f" ÷ nginx-{m} CPU/req |" for m in modes),
                  "|---" + "|--:" * (6 + len(modes)) + "|"]
        for sc in scenarios:
            k, m = ka.get(sc[0]), mb.get(sc[0])
            row = (f"| {sc[0]} | {fmt_num(g(k, 'rps'))} | {fmt_ms(g(k, 'p50_us'))} | "
                   f"{fmt_ms(g(k, 'p99_us'))} | {fmt_num(g(k, 'cpu_us_per_req'))} | "
                   f"{ratio(g(k, 'rps'), g(m, 'rps'))} | "
                   f"{ratio(g(k, 'cpu_us_per_req'), g(m, 'cpu_us_per_req'), 3)} |")
            row += "".join(f" {ratio(g(k, 'cpu_us_per_req'), ngx[mo]['cpu_us_per_req'])} |"
                           for mo in modes)
            lines.append(row)
    if modes:
        lines += ["", "nginx anchor (same pinning, same wrk settings, `GET /health` -> `OK`):", "",
                  "| Anchor | RPS | p50 ms | p99 ms | CPU µs/req |", "|---|--:|--:|--:|--:|"]
        for mo in modes:
            a = ngx[mo]
            lines.append(f"| nginx static OK ({mo}) | {fmt_num(a['rps'])} | "
                         f"{fmt_ms(a.get('p50_us'))} | {fmt_ms(a.get('p99_us'))} | "
                         f"{fmt_num(a['cpu_us_per_req'])} |")
    lines += ["", "Details: server CPU utilisation during the run (100% = the pinned core is "
              "saturated; below that the client or connection churn is the limit), socket "
              "errors as counted by wrk, 1-min load average before the run, server RSS after it.",
              "", f"Repetitions: {args.reps}; values are medians across them, spread = "
              "(max - min) / mean x 100.", "",
              "| Engine | Scenario | requests | CPU util | socket errors | load | RSS MB "
              "| RPS spread % | CPU/req spread % |",
              "|---|---|--:|--:|--:|--:|--:|--:|--:|"]
    for eng in args.engine_list:
        for sid, r in res.get(eng, {}).items():
            name = f"static_ok ({sid})" if eng == "nginx" else sid
            lines.append(f"| {eng} | {name} | {r['requests']:,.0f} | {r['cpu_util'] * 100:.0f}% | "
                         f"{r['socket_errors']:,.0f} | {r['loadavg']:.2f} | {r['rss_mb']:.1f} | "
                         + (f"{r['rps_spread']:.1f} | {r['cpu_spread']:.1f} |" if args.reps > 1
                            else " | |"))
    return "\n".join(lines) + "\n"


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


MEDIAN_KEYS = ("rps", "p50_us", "p90_us", "p99_us", "p999_us", "cpu_us_per_req", "cpu_util",
               "requests", "socket_errors", "loadavg", "rss_mb",
               # bench/report.py --open-loop: latency at a fixed arrival rate
               "open_rate", "open_p50_us", "open_p99_us", "open_p999_us")


def add_load_arguments(ap, duration=5):
    """The load options every side-by-side script shares: wrk, 64 connections, pinning, medians
    of --reps, where results go (report.py, floor.py, stub_scale.py)."""
    ap.add_argument("--wrk", default=shutil.which("wrk") or "wrk")
    ap.add_argument("-c", "--connections", type=int, default=64)
    ap.add_argument("-d", "--duration", type=int, default=duration)
    ap.add_argument("-w", "--warmup", type=int, default=1)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--server-core", default="0")
    ap.add_argument("--client-core", default="1")
    ap.add_argument("--out-dir", default=os.path.join(HERE, "results"))


def aggregate(reps):
    """Per (engine, point): the median of each metric across repetitions (even count: mean of
    the middle two), plus RPS and CPU/req spread = (max - min) / mean x 100."""
    out = {}
    for eng in reps[0]:
        out[eng] = {}
        for point in reps[0][eng]:
            runs = [rep[eng][point] for rep in reps]
            agg = {k: median([r[k] for r in runs]) for k in MEDIAN_KEYS
                   if all(r.get(k) is not None for r in runs)}
            for key, name in (("rps", "rps_spread"), ("cpu_us_per_req", "cpu_spread")):
                vals = [r[key] for r in runs]
                mean = sum(vals) / len(vals)
                agg[name] = (max(vals) - min(vals)) / mean * 100 if mean else 0.0
            agg["reps"] = len(runs)
            out[eng][point] = agg
    return out


def ratio_table(res, points, base="simple_health"):
    """The table of a side-by-side script (script_state.py, extensions.py): per point RPS, the
    server's CPU per request, both as ratios of `base`, and p99."""
    lines = ["| point | RPS | CPU µs/req | RPS ÷ " + base + " | CPU ÷ " + base + " | p99 ms |",
             "|---|--:|--:|--:|--:|--:|"]
    for point in points:
        r = res[point]
        lines.append(f"| {point} | {r['rps']:,.0f} | {r['cpu_us_per_req']:.2f} | "
                     f"{r['rps'] / res[base]['rps']:.3f} | "
                     f"{r['cpu_us_per_req'] / res[base]['cpu_us_per_req']:.3f} | "
                     f"{r.get('p99_us', 0) / 1000:.2f} |")
    return lines


def side_by_side_main(doc, prefix, points, one_rep, render):
    """The whole main() of a side-by-side script (extensions.py, front_door.py): its options
    (--rift and the load options), --reps repetitions of `one_rep(args)` (a dict point -> wrk
    result) in one temporary directory, the medians per point, `render(args, res, started)`
    written by write_side_by_side. Returns the exit status (2 when a repetition aborted)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rift", default=os.path.join(REPO, "build/bin/rift"))
    add_load_arguments(ap)
    args = ap.parse_args()
    args.wrk_timeout, args.status_hook = 30, "warmup"
    args.rift = os.path.abspath(args.rift)
    started = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    reps = []
    with tempfile.TemporaryDirectory(prefix=f"rift-{prefix}-") as workdir:
        args.workdir = workdir
        try:
            for rep in range(args.reps):
                log(f"repetition {rep + 1}/{args.reps}")
                reps.append(one_rep(args))
        except Abort as error:
            log(f"ABORT: {error}")
            return 2
    keys = ("rps", "cpu_us_per_req", "p99_us")
    res = {p: {k: median([rep[p].get(k, 0) for rep in reps]) for k in keys} for p in points}
    write_side_by_side(args, prefix, started, render(args, res, started), reps)
    return 0


def write_side_by_side(args, prefix, started, text, reps):
    """<out-dir>/<prefix>-<started>.md (the text, also printed) and .json (every repetition)."""
    os.makedirs(args.out_dir, exist_ok=True)
    stem = os.path.join(args.out_dir, prefix + "-" + started.replace(" ", "-").replace(":", ""))
    with open(stem + ".md", "w") as f:
        f.write(text)
    with open(stem + ".json", "w") as f:
        json.dump({"started": started, "argv": sys.argv,
                   "reps": [{p: {k: v for k, v in r.items() if k != "wrk_stdout"}
                             for p, r in rep.items()} for rep in reps]}, f, indent=1)
    print(text)
    log(f"wrote {stem}.md")


def host_line():
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{platform.node()}, {os.cpu_count()} CPUs ({model}), Linux {platform.release()}"


ENGINES = ("rift", "rift-ka", "mb", "nginx")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--engines", default=",".join(ENGINES),
                    help="comma list from rift,rift-ka,mb,nginx; always run in that order "
                         "(rift-ka = Rift with --keepAlive)")
    ap.add_argument("--scenarios", default=",".join(SCENARIO_IDS),
                    help="comma list of section-6 scenario ids (default: all 13, in order)")
    ap.add_argument("--rift", default=os.path.join(REPO, "build/bin/rift"), help="Rift binary")
    ap.add_argument("--rift-threads", type=int, default=1, help="Rift --threads (default 1)")
    ap.add_argument("--rift-metrics-port", type=int, default=9090,
                    help="extra Rift port that must be free (the workload: 9090; 0 = none)")
    ap.add_argument("--mb", default=MB_DEFAULT, help="Mountebank bin/mb script")
    ap.add_argument("--node", default=shutil.which("node") or "node")
    ap.add_argument("--nginx", default=shutil.which("nginx") or "/usr/sbin/nginx")
    ap.add_argument("--nginx-port", type=int, default=4699)
    ap.add_argument("--nginx-modes", default="keepalive,close",
                    help="anchor runs: keepalive (persistent connections) and/or close "
                    "(keepalive_timeout 0, a connection per request like MB)")
    ap.add_argument("--wrk", default=shutil.which("wrk") or "wrk")
    ap.add_argument("-c", "--connections", type=int, default=50)
    ap.add_argument("-d", "--duration", type=int, default=10, help="measured seconds")
    ap.add_argument("-w", "--warmup", type=int, default=2, help="warmup seconds (0 = none)")
    ap.add_argument("--wrk-timeout", type=int, default=30,
                    help="wrk per-request timeout in s (MB regex_last is slow)")
    ap.add_argument("--server-core", default="0", help="taskset core list for the server "
                    "('none' = no pinning)")
    ap.add_argument("--client-core", default="1", help="taskset core list for wrk")
    ap.add_argument("--status-hook", choices=("warmup", "measure", "off"), default="warmup",
                    help="where the Lua response() hook counts non-2xx statuses (it halves "
                    "wrk's throughput, so by default only the warmup run carries it; every run "
                    "also checks wrk's built-in status >= 400 count)")
    ap.add_argument("--stub-count", type=int, default=fixture.DEFAULT_STUB_COUNT)
    ap.add_argument("--body-field-stubs", type=int, default=fixture.DEFAULT_BODY_FIELD_STUBS)
    ap.add_argument("--reps", type=int, default=1,
                    help="repetitions (engines interleaved per rep); the table shows medians")
    ap.add_argument("--out-dir", default=os.path.join(HERE, "results"))
    args = ap.parse_args()

    args.nginx_mode_list = [m for m in NGINX_MODES if m in args.nginx_modes.split(",")]
    if not args.nginx_mode_list:
        ap.error("--nginx-modes: keepalive and/or close")
    args.engine_list = [e for e in ENGINES if e in args.engines.split(",")]
    unknown = set(args.engines.split(",")) - set(ENGINES)
    if unknown or not args.engine_list:
        ap.error(f"unknown engines {sorted(unknown)}")
    wanted = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    bad = [s for s in wanted if s not in SCENARIO_IDS]
    if bad:
        ap.error(f"unknown scenarios {bad}; known: {', '.join(SCENARIO_IDS)}")
    scenarios = [s for s in SCENARIOS if s[0] in wanted]
    # docs/benchmark-workload.md §6 note: retarget scenario 8
    if args.stub_count != fixture.DEFAULT_STUB_COUNT:
        t = max(1, args.stub_count // 2)
        scenarios = [(s[0], s[1], s[2], f"/json/equals/{t}", f'{{"id":{t},"type":"request"}}',
                      s[5], s[6]) if s[0] == "json_body_equals" else s for s in scenarios]
    for attr in ("server_core", "client_core"):
        if getattr(args, attr) in ("none", ""):
            setattr(args, attr, None)
    for tool in ("wrk", "taskset"):
        if not shutil.which(tool if tool == "taskset" else args.wrk):
            ap.error(f"{tool} not found")

    args.rift_argv = None
    if "rift" in args.engine_list or "rift-ka" in args.engine_list:
        if not (os.path.isfile(args.rift) and os.access(args.rift, os.X_OK)):
            ap.error(f"Rift binary {args.rift} not found/executable (use --rift or --engines mb)")
        args.rift_argv = [os.path.abspath(args.rift), "start", "--port", "2525",
                          "--allowInjection", "--loglevel", "warn",
                          "--threads", str(args.rift_threads)]
    # rift-ka: the same binary with --keepAlive (responses without a Connection header keep the
    # connection open; Mountebank, and Rift by default, close it).
    args.rift_ka_argv = (args.rift_argv + ["--keepAlive"]) if args.rift_argv else None
    args.mb_argv = [args.node, args.mb, "start", "--port", "2625", "--allowInjection",
                    "--loglevel", "warn"]
    if "mb" in args.engine_list and not os.path.isfile(args.mb):
        ap.error(f"Mountebank not found at {args.mb}")

    started = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    args.workdir = new_workdir("run", stamp)
    log(f"work dir {args.workdir}; engines {args.engine_list}; {len(scenarios)} scenarios")
    rift_process.unwind_on_signals()  # SIGTERM/SIGHUP: `finally` stops the engine

    reps = []  # one {engine: {point: result}} per repetition
    try:
        for rep in range(args.reps):
            if args.reps > 1:
                log(f"=== repetition {rep + 1}/{args.reps} ===")
            results = {}
            if "rift" in args.engine_list:
                extra = [args.rift_metrics_port] if args.rift_metrics_port else []
                results["rift"] = run_mountebank_like(args, "rift", "Rift", args.rift_argv, 2525,
                                                      0, extra, scenarios)
            if "rift-ka" in args.engine_list:
                extra = [args.rift_metrics_port] if args.rift_metrics_port else []
                results["rift-ka"] = run_mountebank_like(args, "rift-ka", "Rift --keepAlive",
                                                         args.rift_ka_argv, 2525, 0, extra,
                                                         scenarios)
            if "mb" in args.engine_list:
                results["mb"] = run_mountebank_like(args, "mb", "Mountebank", args.mb_argv, 2625,
                                                    100, [], scenarios)
            if "nginx" in args.engine_list:
                results["nginx"] = run_nginx(args)
            reps.append(results)
    except Abort as e:
        log(f"ABORT: {e}")
        return 2
    except KeyboardInterrupt as e:
        log(f"interrupted ({e}); engines stopped")
        return 130
    results = aggregate(reps)

    report = render(args, scenarios, results, started, host_line())
    os.makedirs(args.out_dir, exist_ok=True)
    md = os.path.join(args.out_dir, f"{stamp}.md")
    with open(md, "w") as f:
        f.write(report)
    raw = [{eng: {sid: {k: v for k, v in r.items() if k != "wrk_stdout"}
                  for sid, r in per.items()} for eng, per in rep.items()} for rep in reps]
    with open(os.path.join(args.out_dir, f"{stamp}.json"), "w") as f:
        json.dump({"started": started, "argv": sys.argv, "reps": raw}, f, indent=1)
    print(report)
    log(f"wrote {md}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
