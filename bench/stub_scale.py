#!/usr/bin/env python3
"""Serving cost against stub count (issue 6: "from 2 to 100,000 exact-path stubs, throughput
drops less than 5%"), against space count (issue 17: "flat from 10 to 10,000 spaces", within
1.1x of simple_health), or against scenario-gated stubs (issue 17: a scenario-gated stub within
1.1x of simple_health), over real sockets in one run.

For each engine (interp, jit) and each stub count N, a fresh `rift start --engine E --keepAlive
--threads 1` gets one imposter of N stubs, stub i answering `GET /stub/i` with its own body, and
wrk (one thread, 64 connections, pinned to the other core) asks for the LAST stub's path: the
one a scan would reach last. With --spaces, N is a number of spaces (docs/spaces.md): space i
holds one stub for `GET /health`, a global one follows, and wrk asks as the LAST space
(X-Flow-Id: space-<N-1>); N = 0 is simple_health, the global stub alone. With --scenarios, N is a
number of stubs for `GET /health` gated on one scenario's states state-0 .. state-<N-1>
(docs/scenarios.md), the flow is put in the LAST state through the admin API, and every request
reads it from the in-memory flow store; N = 0 is simple_health again. Reported per point:
RPS, the server's CPU per request (from /proc), and both as ratios of the smallest N's, medians
of --reps.

  python3 bench/stub_scale.py --rift build/bin/rift --counts 2,1000,100000 --reps 3
  python3 bench/stub_scale.py --rift build/bin/rift --spaces --counts 0,10,1000,10000
  python3 bench/stub_scale.py --rift build/bin/rift --scenarios --counts 0,1,1000

Writes bench/results/stub-scale-<timestamp>.md and .json. Standard library only.
"""
import argparse
import datetime
import json
import os
import re
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import run as harness  # noqa: E402  (bench/run.py: engines, wrk, /proc)
from run import Abort, log  # noqa: E402

IMPOSTER_PORT = 4590


def imposter(count):
    stubs = [{"predicates": [{"equals": {"method": "GET", "path": f"/stub/{i}"}}],
              "responses": [{"is": {"statusCode": 200, "body": f"stub {i}"}}]}
             for i in range(count)]
    return json.dumps({"protocol": "http", "port": IMPOSTER_PORT, "stubs": stubs})


def spaced_imposter(count):
    health = {"equals": {"method": "GET", "path": "/health"}}
    stubs = [{"space": f"space-{i}", "predicates": [health],
              "responses": [{"is": {"statusCode": 200, "body": f"space {i}"}}]}
             for i in range(count)]
    stubs.append({"predicates": [health], "responses": [{"is": {"statusCode": 200, "body": "global"}}]})
    return json.dumps({"protocol": "http", "port": IMPOSTER_PORT,
                       "_rift": {"flowState": {"flowIdSource": "header:X-Flow-Id"}}, "stubs": stubs})


def gated_imposter(count):
    health = {"equals": {"method": "GET", "path": "/health"}}
    stubs = [{"scenarioName": "bench", "requiredScenarioState": f"state-{i}", "predicates": [health],
              "responses": [{"is": {"statusCode": 200, "body": f"state {i}"}}]}
             for i in range(count)]
    stubs.append({"predicates": [health], "responses": [{"is": {"statusCode": 200, "body": "global"}}]})
    return json.dumps({"protocol": "http", "port": IMPOSTER_PORT, "stubs": stubs})


def workload(args, count):
    """(imposter JSON, path, headers, expected body) of one point."""
    if args.scenarios:
        return gated_imposter(count), "/health", {}, f"state {count - 1}" if count else "global"
    if not args.spaces:
        return imposter(count), f"/stub/{count - 1}", {}, f"stub {count - 1}"
    if count == 0:
        return spaced_imposter(0), "/health", {}, "global"
    return (spaced_imposter(count), "/health", {"X-Flow-Id": f"space-{count - 1}"},
            f"space {count - 1}")


def wait_for_first_swap(engine, timeout_s=600):
    """The JIT compiles in the background; /metrics counts its swaps (the plan view would
    analyse 100,000 stubs on every poll)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        status, text = harness.http_call(engine.admin_port, "GET", "/metrics")
        swaps = re.search(r"^rift_jit_swaps_total (\d+)", text, re.M) if status == 200 else None
        if swaps and int(swaps.group(1)) >= 1:
            log(f"{engine.label}: compiled code live")
            return
        time.sleep(0.2)
    raise Abort(f"{engine.label}: no JIT swap after {timeout_s} s")


def measure(args, engine_name, count):
    argv = [args.rift, "start", "--engine", engine_name, "--port", "2525", "--keepAlive",
            "--loglevel", "warn", "--threads", "1"]
    engine = harness.Engine(f"{engine_name}-{count}", f"{engine_name} ({count:,} {args.unit})", argv,
                            2525, [2525, IMPOSTER_PORT], args.workdir)
    try:
        engine.start(args.server_core)
        body, path, headers, expected = workload(args, count)
        status, text = harness.http_call(2525, "POST", "/imposters", body, harness.CT_JSON,
                                         timeout=600)
        if status != 201:
            raise Abort(f"POST of {count} {args.unit}: {status} {text[:300]}")
        if args.scenarios and count:
            status, text = harness.http_call(
                2525, "PUT", f"/imposters/{IMPOSTER_PORT}/scenarios/bench/state",
                json.dumps({"state": f"state-{count - 1}"}), harness.CT_JSON)
            if status != 200:
                raise Abort(f"setting the scenario's state: {status} {text[:300]}")
        if engine_name == "jit":
            wait_for_first_swap(engine)
        scenario = ("stub_scale", "GET", IMPOSTER_PORT, path, None, headers, expected)
        harness.prove_body(engine.label, scenario, IMPOSTER_PORT)
        return harness.measure_point(args, engine, f"{args.unit}_{count}",
                                     f"http://127.0.0.1:{IMPOSTER_PORT}{path}", "GET", None,
                                     headers)
    finally:
        engine.stop()


def render(args, res, started):
    lines = [f"# Serving cost against {args.unit[:-1]} count, {started}", "",
             f"- host: {harness.host_line()}",
             f"- `rift start --engine E --keepAlive --threads 1` pinned to core {args.server_core}, "
             f"wrk (1 thread, {args.connections} connections) to core {args.client_core}; "
             f"{args.duration} s after {args.warmup} s warm-up; medians of {args.reps}; each point "
             + ("asks as the last space (0: simple_health, one global stub)" if args.spaces
                else "asks in the last stub's scenario state (0: simple_health, one global stub)"
                if args.scenarios else "asks for the last stub's path"), "",
             f"| engine | {args.unit} | RPS | CPU µs/req | RPS ÷ smallest | CPU ÷ smallest | p99 ms |",
             "|---|--:|--:|--:|--:|--:|--:|"]
    for engine_name in args.engine_list:
        base = res[engine_name][args.count_list[0]]
        for count in args.count_list:
            r = res[engine_name][count]
            lines.append(f"| {engine_name} | {count:,} | {r['rps']:,.0f} | "
                         f"{r['cpu_us_per_req']:.2f} | {r['rps'] / base['rps']:.3f} | "
                         f"{r['cpu_us_per_req'] / base['cpu_us_per_req']:.3f} | "
                         f"{r.get('p99_us', 0) / 1000:.2f} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rift", default=os.path.join(REPO, "build/bin/rift"))
    ap.add_argument("--engines", default="interp,jit")
    ap.add_argument("--counts", default=None,
                    help="default 2,1000,100000 (stubs) or 0,10,1000,10000 (--spaces)")
    ap.add_argument("--spaces", action="store_true", help="N is a number of spaces, not stubs")
    ap.add_argument("--scenarios", action="store_true",
                    help="N is a number of stubs gated on one scenario's states")
    harness.add_load_arguments(ap)
    args = ap.parse_args()
    args.unit = "spaces" if args.spaces else "gated stubs" if args.scenarios else "stubs"
    args.counts = args.counts or ("0,10,1000,10000" if args.spaces else
                                  "0,1,1000" if args.scenarios else "2,1000,100000")
    args.wrk_timeout, args.status_hook = 30, "warmup"
    args.rift = os.path.abspath(args.rift)
    args.engine_list = [e for e in args.engines.split(",") if e]
    args.count_list = sorted(int(c) for c in args.counts.split(","))
    started = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    reps = []
    with tempfile.TemporaryDirectory(prefix="rift-stub-scale-") as workdir:
        args.workdir = workdir
        try:
            for rep in range(args.reps):
                log(f"repetition {rep + 1}/{args.reps}")
                reps.append({e: {c: measure(args, e, c) for c in args.count_list}
                             for e in args.engine_list})
        except Abort as error:
            log(f"ABORT: {error}")
            return 2
    res = {e: {c: {k: harness.median([rep[e][c][k] for rep in reps])
                   for k in ("rps", "cpu_us_per_req", "p99_us")}
               for c in args.count_list} for e in args.engine_list}
    text = render(args, res, started)
    os.makedirs(args.out_dir, exist_ok=True)
    stem = os.path.join(args.out_dir, f"{args.unit[:-1].replace(' ', '-')}-scale-" +
                        started.replace(" ", "-").replace(":", ""))
    with open(stem + ".md", "w") as f:
        f.write(text)
    with open(stem + ".json", "w") as f:
        json.dump({"started": started, "argv": sys.argv,
                   "reps": [{e: {str(c): {k: v for k, v in r.items() if k != "wrk_stdout"}
                                 for c, r in per.items()} for e, per in rep.items()}
                            for rep in reps]}, f, indent=1)
    print(text)
    log(f"wrote {stem}.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
