#!/usr/bin/env python3
"""Soak: Rift at saturation for a long time while the admin API edits it and clients vanish.

    python3 bench/soak.py --rift build/bin/rift                 # one hour (the issue-16 run)
    python3 bench/soak.py --rift build/bin/rift -d 120 -w 30    # a two-minute rehearsal

What runs at once, for --duration seconds:
  * wrk (pinned to --client-core, --threads threads, --connections keep-alive connections) on
    three stubs of one imposter: an exact path, the last of --stubs exact paths and a jsonpath
    predicate over a JSON body. Each wrk thread asks for one of them, so its Lua `response`
    hook knows the one right answer and counts every other status or body as wrong.
  * a verifier thread: random requests over all the stubs, one right answer each, plus the
    stub the editor rewrites (whose answer must be a version the editor had started writing
    and not older than the last it saw confirmed before the request);
  * an editor thread: every --edit-interval seconds, PUT /imposters/:port/stubs/:index
    rewrites the versioned stub (a new plan published under load);
  * a vanisher thread: connections that close at once, stop half-way through the headers,
    send a whole request and leave without reading, reset (SO_LINGER 0) mid-body, or go idle;
  * a sampler: the server's RSS every --sample seconds, and whether it is still alive.

Pass/fail: wrk ran to its end, 0 wrong answers (wrk + verifier), 0 wrk socket errors, the
server alive at the end and answering the admin API, RSS after the warm-up within +-5 % of its
first post-warm-up reading (--rss-band).
Prints a summary and writes it as JSON to --out. Standard library + wrk (tools/install-bench-deps).
"""

import argparse
import http.client
import json
import os
import random
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools",
                                "pylib"))
import rift_process  # noqa: E402
from run import rss_kb  # noqa: E402  (bench/run.py: RSS of a server's whole session)

VERSION_PATH = "/version"


def stub_body(i):
    return f"item-{i}"


def imposter(port, stubs):
    """The soak imposter: `stubs` exact paths, a jsonpath stub, and the versioned stub last but
    one (the editor rewrites it by index), then a catch-all 404."""
    doc = {"protocol": "http", "port": port, "recordRequests": False, "stubs": []}
    for i in range(stubs):
        doc["stubs"].append({"predicates": [{"equals": {"method": "GET", "path": f"/item/{i}"}}],
                             "responses": [{"is": {"statusCode": 200, "body": stub_body(i)}}]})
    doc["stubs"].append({
        "predicates": [{"equals": {"body": "gold"}, "jsonpath": {"selector": "$.tier"}},
                       {"equals": {"method": "POST", "path": "/order"}}],
        "responses": [{"is": {"statusCode": 201, "body": "gold-order"}}]})
    doc["stubs"].append(version_stub(0))
    doc["stubs"].append({"responses": [{"is": {"statusCode": 404, "body": "none"}}]})
    return doc


def version_stub(version):
    return {"predicates": [{"equals": {"path": VERSION_PATH}}],
            "responses": [{"is": {"statusCode": 200, "body": f"v{version}"}}]}


def admin_call(port, method, path, body=None, timeout=30):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        payload = json.dumps(body) if body is not None else None
        conn.request(method, path, payload, {"Content-Type": "application/json"} if payload else {})
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


# ---------------------------------------------------------------------------------------------
# wrk

WRK_LUA = r"""
local threads = {}
local targets = %(targets)s
local next_target = 1

function setup(thread)
  local t = targets[next_target]
  next_target = next_target %% #targets + 1
  thread:set("method", t[1]); thread:set("path", t[2]); thread:set("body", t[3])
  thread:set("status", t[4]); thread:set("expect", t[5])
  table.insert(threads, thread)
end

function init(args)
  wrong = 0; answered = 0
  wrk.method = method; wrk.path = path
  if body ~= "" then
    wrk.body = body
    wrk.headers["Content-Type"] = "application/json"
  end
  req = wrk.format()
end

function request() return req end

function response(got_status, headers, got_body)
  answered = answered + 1
  if got_status ~= status or got_body ~= expect then
    wrong = wrong + 1
    if wrong <= 5 then io.stderr:write(string.format("WRONG %%s %%d %%q\n", path, got_status, got_body)) end
  end
end

function done(summary, latency, requests)
  local w, a = 0, 0
  for _, t in ipairs(threads) do w = w + t:get("wrong"); a = a + t:get("answered") end
  io.write(string.format("SOAK wrong=%%d answered=%%d requests=%%d errors_connect=%%d "
    .. "errors_read=%%d errors_write=%%d errors_status=%%d errors_timeout=%%d\n",
    w, a, summary.requests, summary.errors.connect, summary.errors.read, summary.errors.write,
    summary.errors.status, summary.errors.timeout))
end
"""


def lua_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def wrk_targets(stubs):
    last = stubs - 1
    targets = [("GET", "/item/0", "", 200, stub_body(0)),
               ("GET", f"/item/{last}", "", 200, stub_body(last)),
               ("POST", "/order", json.dumps({"tier": "gold", "n": 1}), 201, "gold-order")]
    rows = ", ".join("{" + ", ".join(lua_str(str(x)) if isinstance(x, str) else str(x)
                                     for x in t) + "}" for t in targets)
    return "{" + rows + "}"


# ---------------------------------------------------------------------------------------------
# The threads beside wrk


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}
        self.wrong = []

    def add(self, key, n=1):
        with self.lock:
            self.counts[key] = self.counts.get(key, 0) + n

    def bad(self, what):
        with self.lock:
            self.counts["wrong"] = self.counts.get("wrong", 0) + 1
            if len(self.wrong) < 20:
                self.wrong.append(what)


class Versions:
    """The editor's progress: `started` before each PUT is sent, `confirmed` after its 200."""
    def __init__(self):
        self.lock = threading.Lock()
        self.started = 0
        self.confirmed = 0


def editor(admin_port, port, index, interval, versions, tally, stop):
    version = 0
    due = time.monotonic()
    while True:
        due += interval  # a fixed cadence: a slow edit does not push the next one back
        if stop.wait(max(0.0, due - time.monotonic())):
            break
        version += 1
        with versions.lock:
            versions.started = version
        try:
            status, body = admin_call(admin_port, "PUT", f"/imposters/{port}/stubs/{index}",
                                      version_stub(version))
        except OSError as e:
            tally.bad(f"edit {version}: {e}")
            continue
        if status != 200:
            tally.bad(f"edit {version}: {status} {body[:200]!r}")
            continue
        with versions.lock:
            versions.confirmed = version
        tally.add("edits")


def verifier(port, stubs, versions, tally, stop, seed):
    rng = random.Random(seed)
    conn = None
    while not stop.is_set():
        if conn is None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        pick = rng.random()
        try:
            if pick < 0.25:
                with versions.lock:
                    low = versions.confirmed
                conn.request("GET", VERSION_PATH)
                resp = conn.getresponse()
                body = resp.read().decode("utf-8", "replace")
                with versions.lock:
                    high = versions.started
                ok = resp.status == 200 and body.startswith("v") and body[1:].isdigit() \
                    and low <= int(body[1:]) <= high
                what = f"{VERSION_PATH}: {resp.status} {body!r} outside [v{low}, v{high}]"
            elif pick < 0.35:
                conn.request("POST", "/order", json.dumps({"tier": rng.choice(["gold", "tin"])}),
                             {"Content-Type": "application/json"})
                resp = conn.getresponse()
                body = resp.read().decode("utf-8", "replace")
                ok = (resp.status, body) in ((201, "gold-order"), (404, "none"))
                what = f"/order: {resp.status} {body!r}"
            else:
                i = rng.randrange(stubs + 5)  # a few paths no stub has
                conn.request("GET", f"/item/{i}")
                resp = conn.getresponse()
                body = resp.read().decode("utf-8", "replace")
                want = (200, stub_body(i)) if i < stubs else (404, "none")
                ok = (resp.status, body) == want
                what = f"/item/{i}: {resp.status} {body!r}, want {want}"
            if resp.will_close:
                conn.close()
                conn = None
        except (OSError, http.client.HTTPException) as e:
            tally.bad(f"verifier: {type(e).__name__}: {e}")
            conn.close()
            conn = None
            continue
        tally.add("verified")
        if not ok:
            tally.bad(what)


def vanisher(port, tally, stop, seed):
    """Clients that leave at the worst moment. None of them may cost the server anything that
    stays: their connections close on the server's side and the answers to everyone else stay
    right."""
    rng = random.Random(seed)
    request = (f"GET /item/1 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n").encode()
    post = (f"POST /order HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json"
            f"\r\nContent-Length: 100000\r\n\r\n{{\"tier\": \"gold\", \"pad\": \"").encode()
    idle = []
    while not stop.wait(0.002):
        kind = rng.randrange(6)
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError as e:
            tally.bad(f"vanisher connect: {e}")
            continue
        try:
            if kind == 0:
                pass  # connect, then close at once
            elif kind == 1:
                s.sendall(request[:rng.randrange(1, len(request) - 1)])  # half the headers
            elif kind == 2:
                s.sendall(request)  # a whole request, answer never read
            elif kind == 3:
                s.sendall(post + b"x" * rng.randrange(0, 5000))  # part of a body, then a reset
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            elif kind == 4:
                s.sendall(request * rng.randrange(2, 20))  # pipelined, then gone
            else:
                idle.append(s)  # idle until the server's keep-alive timeout (or ours) ends it
                s = None
                if len(idle) > 50:
                    idle.pop(0).close()
        except OSError:
            pass  # the server may already have closed it: that is allowed
        finally:
            if s is not None:
                s.close()
        tally.add(f"vanished_{kind}")
    for s in idle:
        s.close()


def sampler(server, interval, samples, stop):
    while not stop.wait(interval):
        samples.append((time.monotonic(), rss_kb(server.pid), server.alive()))


# ---------------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rift", required=True, help="the rift binary")
    ap.add_argument("-d", "--duration", type=float, default=3600, help="seconds under load")
    ap.add_argument("-w", "--warmup", type=float, default=300,
                    help="seconds before RSS is held to the band")
    ap.add_argument("--stubs", type=int, default=1000)
    ap.add_argument("--admin-port", type=int, default=27525)
    ap.add_argument("--port", type=int, default=27545)
    ap.add_argument("--connections", type=int, default=64)
    ap.add_argument("--threads", type=int, default=3, help="wrk threads (one target each)")
    ap.add_argument("--server-core", type=int, default=0)
    ap.add_argument("--client-core", type=int, default=1)
    ap.add_argument("--edit-interval", type=float, default=0.1)
    ap.add_argument("--sample", type=float, default=5.0, help="seconds between RSS samples")
    ap.add_argument("--rss-band", type=float, default=0.05)
    ap.add_argument("--server-arg", action="append", default=[],
                    help="extra argument for `rift start` (repeatable)")
    ap.add_argument("--wrk", default=shutil.which("wrk") or "wrk")
    ap.add_argument("--out", default="bench/results/soak.json")
    args = ap.parse_args()
    rift_process.unwind_on_signals()

    workdir = tempfile.mkdtemp(prefix="rift-soak-")
    server = rift_process.ServerProcess(
        [os.path.abspath(args.rift), "start", "--port", str(args.admin_port), "--nologfile",
         *args.server_arg], workdir=workdir, cpu=args.server_core, name="rift")
    tally = Tally()
    versions = Versions()
    stop = threading.Event()
    samples = []
    threads = []
    summary = {}
    try:
        server.start()
        server.wait_ready(lambda: rift_process.http_status(args.admin_port) == 200, timeout=30,
                          interval=0.1)
        status, body = admin_call(args.admin_port, "POST", "/imposters",
                                  imposter(args.port, args.stubs))
        if status != 201:
            raise SystemExit(f"creating the imposter: {status} {body[:300]!r}")
        version_index = args.stubs + 1

        lua = os.path.join(workdir, "soak.lua")
        with open(lua, "w") as f:
            f.write(WRK_LUA % {"targets": wrk_targets(args.stubs)})
        wrk_argv = ["taskset", "-c", str(args.client_core), args.wrk, "-t", str(args.threads),
                    "-c", str(args.connections), "-d", f"{int(args.duration)}s", "--timeout",
                    "10s", "-s", lua, f"http://127.0.0.1:{args.port}"]
        started = time.monotonic()
        wrk = subprocess.Popen(wrk_argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
        for target, extra in ((editor, (args.admin_port, args.port, version_index,
                                        args.edit_interval, versions, tally, stop)),
                              (verifier, (args.port, args.stubs, versions, tally, stop, 1)),
                              (vanisher, (args.port, tally, stop, 2)),
                              (sampler, (server, args.sample, samples, stop))):
            t = threading.Thread(target=target, args=extra, daemon=True)
            t.start()
            threads.append(t)
        wrk_out, wrk_err = wrk.communicate(timeout=args.duration + 120)
        stop.set()
        for t in threads:
            t.join(timeout=60)
        elapsed = time.monotonic() - started

        alive = server.alive()
        admin_ok = False
        if alive:
            try:
                admin_ok = rift_process.http_status(args.admin_port, timeout=10) == 200
            except OSError:
                pass
        wrk_line = next((line for line in wrk_out.splitlines() if line.startswith("SOAK ")), "")
        wrk_stats = dict(kv.split("=") for kv in wrk_line.split()[1:])
        wrk_stats = {k: int(v) for k, v in wrk_stats.items()}
        # No summary line means wrk itself failed: that is a failed soak, not zero wrong answers.
        wrk_ok = wrk.returncode == 0 and bool(wrk_stats) and wrk_stats["answered"] > 0
        socket_errors = sum(v for k, v in wrk_stats.items() if k.startswith("errors_"))

        after = [s for s in samples if s[0] - started >= args.warmup]
        rss = [s[1] for s in after]
        base = rss[0] if rss else 0
        low, high = (min(rss), max(rss)) if rss else (0, 0)
        rss_ok = bool(rss) and base > 0 and low >= base * (1 - args.rss_band) \
            and high <= base * (1 + args.rss_band)
        wrong = wrk_stats.get("wrong", 0) + tally.counts.get("wrong", 0)
        crashed = not alive or not admin_ok or any(not s[2] for s in samples)
        summary = {
            "duration_s": round(elapsed, 1), "warmup_s": args.warmup, "stubs": args.stubs,
            "connections": args.connections, "wrk": wrk_stats,
            "requests_per_s": round(wrk_stats.get("answered", 0) / elapsed) if elapsed else 0,
            "side_threads": dict(sorted(tally.counts.items())), "wrong_examples": tally.wrong,
            "wrk_stderr": wrk_err[-2000:],
            "rss_kb": {"first_after_warmup": base, "min": low, "max": high,
                       "first_sample": samples[0][1] if samples else 0,
                       "band": args.rss_band, "samples_after_warmup": len(rss)},
            "wrong": wrong, "socket_errors": socket_errors, "wrk_ok": wrk_ok,
            "crashed": crashed, "rss_ok": rss_ok,
            "passed": wrk_ok and wrong == 0 and socket_errors == 0 and not crashed and rss_ok,
        }
    finally:
        stop.set()
        server.stop()
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(summary, f, indent=2)
    print(json.dumps(summary, indent=2))
    shutil.rmtree(workdir, ignore_errors=True)
    sys.exit(0 if summary.get("passed") else 1)


if __name__ == "__main__":
    main()
