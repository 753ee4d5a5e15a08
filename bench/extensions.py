#!/usr/bin/env python3
"""What the response extensions of issue 18 cost against our own simple_health, over real
sockets in one run (item 9: each within 1.1x of simple_health).

Three points, each a fresh `rift start --keepAlive --threads 1` pinned to one core with wrk (one
thread, pinned to the other) on `GET /health?q=bench`:

  simple_health  an `is` response: the floor
  templated      an `is` body with three dynamic pieces (docs/templates.md):
                 `${request.method} {{request.path}} {{request.query.q}}`, `_rift.templated`
  fault_p0       the simple_health response with a `_rift.fault` latency of probability 0
                 (docs/faults.md): the cost of rolling the dice, never firing

Reported per point: RPS, the server's CPU per request (from /proc), p99, and the ratios to
simple_health; medians of --reps.

  python3 bench/extensions.py --rift build/bin/rift --reps 3

Writes bench/results/extensions-<timestamp>.md and .json. Standard library only.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run as harness  # noqa: E402  (bench/run.py: engines, wrk, /proc)
from run import Abort  # noqa: E402

IMPOSTER_PORT = 4592
POINTS = ("simple_health", "templated", "fault_p0")
TEMPLATE = "${request.method} {{request.path}} {{request.query.q}}"
MARKERS = {"simple_health": "ok", "templated": "GET /health bench", "fault_p0": "ok"}


def imposter(point):
    response = {"is": {"statusCode": 200, "body": "ok"}}
    if point == "templated":
        response = {"is": {"statusCode": 200, "body": TEMPLATE}, "_rift": {"templated": True}}
    if point == "fault_p0":
        response["_rift"] = {"fault": {"latency": {"probability": 0, "ms": 1000}}}
    health = {"equals": {"method": "GET", "path": "/health"}}
    return json.dumps({"protocol": "http", "port": IMPOSTER_PORT,
                       "stubs": [{"predicates": [health], "responses": [response]}]})


def measure(args, point):
    argv = [args.rift, "start", "--port", "2525", "--keepAlive", "--loglevel", "warn",
            "--threads", "1"]
    engine = harness.Engine(point, point, argv, 2525, [2525, IMPOSTER_PORT], args.workdir)
    try:
        engine.start(args.server_core)
        status, text = harness.http_call(2525, "POST", "/imposters", imposter(point),
                                         harness.CT_JSON, timeout=60)
        if status != 201:
            raise Abort(f"POST of {point}: {status} {text[:300]}")
        harness.prove_body(point, ("extensions", "GET", IMPOSTER_PORT, "/health?q=bench", None,
                                   {}, MARKERS[point]), IMPOSTER_PORT)
        return harness.measure_point(args, engine, point,
                                     f"http://127.0.0.1:{IMPOSTER_PORT}/health?q=bench", "GET",
                                     None, {})
    finally:
        engine.stop()


def render(args, res, started):
    lines = [f"# Response extensions against simple_health, {started}", "",
             f"- host: {harness.host_line()}",
             f"- `rift start --keepAlive --threads 1` pinned to core {args.server_core}, wrk "
             f"(1 thread, {args.connections} connections) to core {args.client_core}; "
             f"{args.duration} s after {args.warmup} s warm-up; medians of {args.reps}",
             f"- templated body: `{TEMPLATE}`", ""]
    lines += harness.ratio_table(res, POINTS)
    return "\n".join(lines) + "\n"


def main():
    return harness.side_by_side_main(__doc__, "extensions", POINTS, lambda args: {point: measure(args, point) for point in POINTS}, render)


if __name__ == "__main__":
    sys.exit(main())
