#!/usr/bin/env python3
"""simple_health over HTTP/2 against HTTP/1.1, over real sockets in one run (issue 19 item 6).

One `rift start --keepAlive --threads 1` pinned to one core, the load generator pinned to the
other, one imposter on 4594 answering `GET /health` "ok". h2load drives every point, so the
protocols are compared with one client:

  h1        h2load --h1, one request at a time per connection (what wrk measures)
  h2c       HTTP/2 with prior knowledge, one stream at a time per connection
  h2c_m16   HTTP/2, 16 concurrent streams per connection (what h2 is for)

Reported per point: RPS, the server's CPU per request (from /proc) and the ratios to h1;
medians of --reps. h2load reports no p99 (the column is 0).

  python3 bench/h2.py --rift build/bin/rift --reps 3

Writes bench/results/h2-<timestamp>.md and .json. Standard library only (and h2load,
nghttp2-client).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run as harness  # noqa: E402  (bench/run.py: engines, /proc)

IMPOSTER_PORT = 4594
POINTS = {"h1": ["--h1", "-m", "1"], "h2c": ["-m", "1"], "h2c_m16": ["-m", "16"]}


def config(path):
    health = {"equals": {"method": "GET", "path": "/health"}}
    imposter = {"protocol": "http", "port": IMPOSTER_PORT,
                "stubs": [{"predicates": [health], "responses": [{"is": {"body": "ok"}}]}]}
    with open(path, "w") as f:
        json.dump({"imposters": [imposter]}, f)


def run_h2load(args, engine, mode, duration, warmup):
    argv = ["taskset", "-c", str(args.client_core)] if args.client_core is not None else []
    argv += [shutil.which("h2load") or "h2load", "-c", str(args.connections), "-t", "1",
             "-D", str(duration), "--warm-up-time", str(warmup), *mode,
             f"http://127.0.0.1:{IMPOSTER_PORT}/health"]
    # The warm-up is inside h2load's run: its CPU is counted over the whole run, and scaled to
    # the measured part by wall time.
    cpu0 = harness.cpu_ticks(engine.sid)
    wall0 = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=duration + warmup + 60)
    wall = time.monotonic() - wall0
    cpu1 = harness.cpu_ticks(engine.sid)
    if proc.returncode != 0:
        raise harness.Abort(f"h2load exited {proc.returncode}: {proc.stderr or proc.stdout}")
    done = re.search(r"requests: \d+ total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed",
                     proc.stdout)
    rps = re.search(r"finished in ([\d.]+)s, ([\d.]+) req/s", proc.stdout)
    if not done or not rps or int(done.group(3)) != 0 or int(done.group(2)) == 0:
        raise harness.Abort(f"h2load: failures or no requests:\n{proc.stdout}")
    cpu_s = (cpu1 - cpu0) / harness.CLK_TCK * (float(rps.group(1)) / wall)
    requests = int(done.group(2))
    return {"rps": float(rps.group(2)), "requests": requests, "cpu_us_per_req": cpu_s * 1e6 / requests,
            "p99_us": 0}


def measure(args):
    path = os.path.join(args.workdir, "h2.json")
    config(path)
    argv = [args.rift, "start", "--port", "2525", "--keepAlive", "--loglevel", "warn",
            "--threads", "1", "--configfile", path]
    engine = harness.Engine("h2", "h2", argv, 2525, [2525, IMPOSTER_PORT], args.workdir)
    try:
        engine.start(args.server_core)
        harness.prove_body("h1", ("h2", "GET", IMPOSTER_PORT, "/health", None, {}, "ok"),
                           IMPOSTER_PORT)
        out = {}
        for point, mode in POINTS.items():
            out[point] = run_h2load(args, engine, mode, args.duration, args.warmup)
            harness.log(f"h2/{point}: {out[point]['rps']:.0f} rps, "
                        f"cpu {out[point]['cpu_us_per_req']:.2f} us/req")
        return out
    finally:
        engine.stop()


def render(args, res, started):
    lines = [f"# simple_health over HTTP/2 against HTTP/1.1, {started}", "",
             f"- host: {harness.host_line()}",
             f"- `rift start --keepAlive --threads 1` pinned to core {args.server_core}, h2load "
             f"(1 thread, {args.connections} connections) to core {args.client_core}; "
             f"{args.duration} s after {args.warmup} s warm-up; medians of {args.reps}", ""]
    lines += harness.ratio_table(res, tuple(POINTS), base="h1")
    return "\n".join(lines) + "\n"


def main():
    return harness.side_by_side_main(__doc__, "h2", POINTS, measure, render)


if __name__ == "__main__":
    sys.exit(main())
