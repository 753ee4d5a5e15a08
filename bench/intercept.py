#!/usr/bin/env python3
"""A request through the intercept proxy (TLS inside the tunnel) against the same request to an
https imposter directly, over real sockets in one run (issue 19 item 6).

One `rift start --keepAlive --threads 1 --intercept-port 4596` pinned to one core with an https
imposter on 4595 and an intercept rule for `flags.vendor.example`, both answering `GET /flags`
"ok". The client (pinned to the other core) is the same for both points: --connections worker
processes, each one keep-alive TLS connection sending GET /flags in a loop, so the only
difference is the proxy:

  https_direct  https://127.0.0.1:4595/flags: the imposter's own TLS listener
  intercept     https://flags.vendor.example/flags through CONNECT 127.0.0.1:4596: the leaf
                minted for the host, the rule matched in the rules' decision tree

wrk and h2load cannot use a proxy, hence Python's http.client; its rate is the client's limit,
so the number that matters is the server's CPU per request (from /proc) and its ratio.

  python3 bench/intercept.py --rift build/bin/rift --reps 3

Writes bench/results/intercept-<timestamp>.md and .json. Standard library only.
"""
import http.client
import json
import multiprocessing
import os
import ssl
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run as harness  # noqa: E402  (bench/run.py: engines, /proc)

IMPOSTER_PORT = 4595
PROXY_PORT = 4596
HOST = "flags.vendor.example"
POINTS = ("https_direct", "intercept")


def config(path):
    flags = {"equals": {"method": "GET", "path": "/flags"}}
    imposter = {"protocol": "https", "port": IMPOSTER_PORT,
                "stubs": [{"predicates": [flags], "responses": [{"is": {"body": "ok"}}]}]}
    rules = [{"host": HOST, "predicates": [flags], "action": {"serve": {"body": "ok"}}}]
    with open(path, "w") as f:
        json.dump({"imposters": [imposter], "intercept": {"port": PROXY_PORT, "rules": rules}}, f)


def connect(point, ca_file):
    if point == "intercept":
        context = ssl.create_default_context(cafile=ca_file)
        conn = http.client.HTTPSConnection("127.0.0.1", PROXY_PORT, context=context, timeout=10)
        conn.set_tunnel(HOST, 443)
    else:
        context = ssl._create_unverified_context()  # the imposter's built-in self-signed pair
        conn = http.client.HTTPSConnection("127.0.0.1", IMPOSTER_PORT, context=context,
                                           timeout=10)
    return conn


def client(point, ca_file, until, start, counts, index):
    conn = connect(point, ca_file)
    done = 0
    while time.monotonic() < start:
        time.sleep(0.001)
    while time.monotonic() < until:
        conn.request("GET", "/flags")
        response = conn.getresponse()
        if response.read() != b"ok" or response.status != 200:
            raise SystemExit(f"{point}: unexpected answer {response.status}")
        done += 1
    counts[index] = done


def drive(args, engine, point, ca_file, duration):
    counts = multiprocessing.Array("q", args.connections)
    start = time.monotonic() + 1.0  # every worker connected and handshaken before the clock
    until = start + duration
    workers = [multiprocessing.Process(target=client,
                                       args=(point, ca_file, until, start, counts, i))
               for i in range(args.connections)]
    for worker in workers:
        worker.start()
        if args.client_core is not None:
            os.sched_setaffinity(worker.pid, {int(args.client_core)})
    while time.monotonic() < start:
        time.sleep(0.001)
    cpu0 = harness.cpu_ticks(engine.sid)
    for worker in workers:
        worker.join(duration + 30)
    cpu1 = harness.cpu_ticks(engine.sid)
    if any(worker.exitcode != 0 for worker in workers):
        raise harness.Abort(f"{point}: a client failed")
    requests = sum(counts)
    cpu_s = (cpu1 - cpu0) / harness.CLK_TCK
    return {"rps": requests / duration, "requests": requests,
            "cpu_us_per_req": cpu_s * 1e6 / requests, "p99_us": 0}


def measure(args):
    path = os.path.join(args.workdir, "intercept.json")
    config(path)
    argv = [args.rift, "start", "--port", "2525", "--keepAlive", "--loglevel", "warn",
            "--threads", "1", "--configfile", path]
    engine = harness.Engine("intercept", "intercept", argv, 2525,
                            [2525, IMPOSTER_PORT, PROXY_PORT], args.workdir)
    try:
        engine.start(args.server_core)
        ca_file = os.path.join(args.workdir, "ca.pem")
        with urllib.request.urlopen("http://127.0.0.1:2525/intercept/ca.pem") as response, \
                open(ca_file, "wb") as out:
            out.write(response.read())
        out = {}
        for point in POINTS:
            if args.warmup:
                drive(args, engine, point, ca_file, args.warmup)
            out[point] = drive(args, engine, point, ca_file, args.duration)
            harness.log(f"intercept/{point}: {out[point]['rps']:.0f} rps, "
                        f"cpu {out[point]['cpu_us_per_req']:.2f} us/req")
        return out
    finally:
        engine.stop()


def render(args, res, started):
    lines = [f"# Through the intercept proxy against an https imposter, {started}", "",
             f"- host: {harness.host_line()}",
             f"- `rift start --keepAlive --threads 1` pinned to core {args.server_core}; "
             f"{args.connections} keep-alive Python clients on core {args.client_core} (their rate "
             f"is the client's limit: compare CPU per request); {args.duration} s after "
             f"{args.warmup} s warm-up; medians of {args.reps}", ""]
    lines += harness.ratio_table(res, POINTS, base="https_direct")
    return "\n".join(lines) + "\n"


def main():
    return harness.side_by_side_main(__doc__, "intercept", POINTS, measure, render)


if __name__ == "__main__":
    sys.exit(main())
