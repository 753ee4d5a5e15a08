#!/usr/bin/env python3
"""What the front door costs against calling the imposter's own port, over real sockets in one
run (issue 19 item 6: routing one of 1,000 routes within 1.1x of a direct port).

One `rift start --keepAlive --threads 1 --front-door 4593` pinned to one core, wrk (one thread)
pinned to the other, with a config file of one imposter (port 4592, `GET /health` answers "ok")
and 1,000 routes, each claiming one host (`svc0000.test` ... `svc0999.test`) for that imposter.
Two points, the same process, `Host: svc0500.test` on every request:

  direct      http://127.0.0.1:4592/health: the imposter's own listener
  front_door  http://127.0.0.1:4593/health: routed by the table (a decision tree, not a scan)

Reported per point: RPS, the server's CPU per request (from /proc), p99, and the ratios to
direct; medians of --reps.

  python3 bench/front_door.py --rift build/bin/rift --reps 3

Writes bench/results/front-door-<timestamp>.md and .json. Standard library only.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run as harness  # noqa: E402  (bench/run.py: engines, wrk, /proc)

IMPOSTER_PORT = 4592
FRONT_DOOR_PORT = 4593
ROUTES = 1000
HOST = "svc0500.test"
POINTS = {"direct": IMPOSTER_PORT, "front_door": FRONT_DOOR_PORT}


def config(path):
    health = {"equals": {"method": "GET", "path": "/health"}}
    imposter = {"protocol": "http", "port": IMPOSTER_PORT,
                "stubs": [{"predicates": [health], "responses": [{"is": {"body": "ok"}}]}]}
    routes = [{"id": f"r{i:04d}", "match": {"host": f"svc{i:04d}.test"},
               "target": {"port": IMPOSTER_PORT}} for i in range(ROUTES)]
    with open(path, "w") as f:
        json.dump({"imposters": [imposter], "routes": {"routes": routes}}, f)


def measure(args):
    path = os.path.join(args.workdir, "front-door.json")
    config(path)
    argv = [args.rift, "start", "--port", "2525", "--keepAlive", "--loglevel", "warn",
            "--threads", "1", "--configfile", path, "--frontDoor", str(FRONT_DOOR_PORT)]
    engine = harness.Engine("front_door", "front_door", argv, 2525,
                            [2525, IMPOSTER_PORT, FRONT_DOOR_PORT], args.workdir)
    headers = {"Host": HOST}
    try:
        engine.start(args.server_core)
        out = {}
        for point, port in POINTS.items():
            harness.prove_body(point, ("front_door", "GET", port, "/health", None, headers, "ok"),
                               port)
            out[point] = harness.measure_point(args, engine, point,
                                               f"http://127.0.0.1:{port}/health", "GET", None,
                                               headers)
        return out
    finally:
        engine.stop()


def render(args, res, started):
    lines = [f"# The front door against a direct port, {started}", "",
             f"- host: {harness.host_line()}",
             f"- `rift start --keepAlive --threads 1 --frontDoor {FRONT_DOOR_PORT}` pinned to core "
             f"{args.server_core}, wrk (1 thread, {args.connections} connections) to core "
             f"{args.client_core}; {args.duration} s after {args.warmup} s warm-up; medians of "
             f"{args.reps}",
             f"- {ROUTES} routes by host, `Host: {HOST}` on every request", ""]
    lines += harness.ratio_table(res, tuple(POINTS), base="direct")
    return "\n".join(lines) + "\n"


def main():
    return harness.side_by_side_main(__doc__, "front-door", POINTS, measure, render)


if __name__ == "__main__":
    sys.exit(main())
