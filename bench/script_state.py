#!/usr/bin/env python3
"""What a `_rift.script` reading and writing flow state costs (issue 17, item 10), against our
own simple_health, over real sockets in one run.

Three points, each a fresh `rift start --allowInjection --keepAlive --threads 1` pinned to one
core with wrk (one thread, pinned to the other) on `GET /health`:

  simple_health   an `is` response: the floor
  script_memory   a JavaScript script that increments a counter and reads a key of its flow in
                  the in-memory flow store, answering JSON (docs/scripts.md)
  script_redis    the same script on a Redis flow store (a private redis-server this run
                  starts on loopback and pins beside the server)

Reported per point: RPS, the server's CPU per request (from /proc; with Redis, redis-server's CPU
is counted separately), p99, and the ratios to simple_health; medians of --reps.

  python3 bench/script_state.py --rift build/bin/rift --reps 3

Writes bench/results/script-state-<timestamp>.md and .json. Standard library only.
"""
import argparse
import datetime
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import run as harness  # noqa: E402  (bench/run.py: engines, wrk, /proc)
from run import Abort, log  # noqa: E402

IMPOSTER_PORT = 4591
REDIS_PORT = 46379
SCRIPT = ("function respond(ctx) { const n = ctx.state.incr('hits'); "
          "const seen = ctx.state.get('seen'); if (seen === null) ctx.state.set('seen', true); "
          "return http(200, {hits: n, seen: seen === true}); }")
POINTS = ("simple_health", "script_memory", "script_redis")


def imposter(point):
    health = {"equals": {"method": "GET", "path": "/health"}}
    if point == "simple_health":
        response = {"is": {"statusCode": 200, "body": "ok"}}
    else:
        response = {"_rift": {"script": {"engine": "javascript", "code": SCRIPT}}}
    body = {"protocol": "http", "port": IMPOSTER_PORT,
            "stubs": [{"predicates": [health], "responses": [response]}]}
    if point == "script_redis":
        body["_rift"] = {"flowState": {"backend": "redis", "redis": {
            "url": f"redis://127.0.0.1:{REDIS_PORT}", "keyPrefix": "bench:"}}}
    return json.dumps(body)


class Redis:
    """A private redis-server on loopback, nothing saved."""

    def __init__(self, core):
        if not shutil.which("redis-server"):
            raise Abort("redis-server is not installed (tools/install-deps installs it)")
        self.proc = subprocess.Popen(
            ["taskset", "-c", str(core), "redis-server", "--port", str(REDIS_PORT), "--bind",
             "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", REDIS_PORT), timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise Abort("redis-server did not start")

    def flush(self):
        """Forgets every key, so each point starts from an empty store."""
        with socket.create_connection(("127.0.0.1", REDIS_PORT), timeout=5) as sock:
            sock.sendall(b"FLUSHALL\r\n")
            if not sock.recv(64).startswith(b"+OK"):
                raise Abort("redis-server refused FLUSHALL")

    def cpu_seconds(self):
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


def measure(args, point, redis):
    argv = [args.rift, "start", "--port", "2525", "--keepAlive", "--allowInjection",
            "--loglevel", "warn", "--threads", "1"]
    engine = harness.Engine(point, point, argv, 2525, [2525, IMPOSTER_PORT], args.workdir)
    redis.flush()
    try:
        engine.start(args.server_core)
        status, text = harness.http_call(2525, "POST", "/imposters", imposter(point),
                                         harness.CT_JSON, timeout=60)
        if status != 201:
            raise Abort(f"POST of {point}: {status} {text[:300]}")
        marker = "ok" if point == "simple_health" else '"hits":1,'
        harness.prove_body(point, ("script_state", "GET", IMPOSTER_PORT, "/health", None, {},
                                   marker), IMPOSTER_PORT)
        redis_before = redis.cpu_seconds() if point == "script_redis" else 0.0
        result = harness.measure_point(args, engine, point,
                                       f"http://127.0.0.1:{IMPOSTER_PORT}/health", "GET", None, {})
        if point == "script_redis":
            # Warm-up requests are in the count too; the ratio is an upper bound.
            total = result["rps"] * (args.duration + args.warmup)
            result["redis_cpu_us_per_req"] = (redis.cpu_seconds() - redis_before) * 1e6 / total
        return result
    finally:
        engine.stop()


def render(args, res, started):
    lines = [f"# A JavaScript script with flow state, {started}", "",
             f"- host: {harness.host_line()}",
             f"- `rift start --allowInjection --keepAlive --threads 1` pinned to core "
             f"{args.server_core}, wrk (1 thread, {args.connections} connections) to core "
             f"{args.client_core}; {args.duration} s after {args.warmup} s warm-up; medians of "
             f"{args.reps}", f"- script: `{SCRIPT}`", ""]
    lines += harness.ratio_table(res, POINTS)
    if "redis_cpu_us_per_req" in res["script_redis"]:
        lines += ["", f"redis-server's own CPU: "
                      f"{res['script_redis']['redis_cpu_us_per_req']:.2f} µs per request "
                      "(counting warm-up requests: at most)"]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rift", default=os.path.join(REPO, "build/bin/rift"))
    harness.add_load_arguments(ap)
    args = ap.parse_args()
    args.wrk_timeout, args.status_hook = 30, "warmup"
    args.rift = os.path.abspath(args.rift)
    started = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    reps = []
    with tempfile.TemporaryDirectory(prefix="rift-script-state-") as workdir:
        args.workdir = workdir
        redis = None
        try:
            redis = Redis(args.server_core)
            for rep in range(args.reps):
                log(f"repetition {rep + 1}/{args.reps}")
                reps.append({point: measure(args, point, redis) for point in POINTS})
        except Abort as error:
            log(f"ABORT: {error}")
            return 2
        finally:
            if redis:
                redis.stop()
    keys = ("rps", "cpu_us_per_req", "p99_us")
    res = {p: {k: harness.median([rep[p].get(k, 0) for rep in reps]) for k in keys}
           for p in POINTS}
    res["script_redis"]["redis_cpu_us_per_req"] = harness.median(
        [rep["script_redis"]["redis_cpu_us_per_req"] for rep in reps])
    text = render(args, res, started)
    harness.write_side_by_side(args, "script-state", started, text, reps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
