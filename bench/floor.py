#!/usr/bin/env python3
"""The system-call floor of a keep-alive request on this machine, side by side in one run:

  nginx     nginx-light, one worker, `return 200 "OK"`: the static-response anchor
  epoll     bench/floor/epoll_floor.cpp: one recv + one send per request, epoll_wait shared by
            the connections ready at once, and no other work (Rift's Asio loop has this shape)
  uring     bench/floor/uring_floor.cpp: the same answers through one io_uring, a batch of
            ready connections per io_uring_enter (send linked to the next recv)
  rift      rift start --engine interp --keepAlive, scenario simple_health (GET /health)
  metrics   rift with --metricsPort: what counting for the metrics port costs (docs/metrics.md)
  baseline  the same with another Rift binary (--baseline), e.g. the previous commit's

Every engine answers GET /health with a ~150-byte 200 "OK". The server is pinned to one core
and wrk (one thread, 64 connections) to the other, as bench/run.py and bench/report.py do, and
the figure that matters is the server's CPU per request (utime + stime over the measured run ÷
requests), reported as a ratio of nginx's: issue 6 asks simple_health <= 0.75x nginx, and the
floors say what a server of each system-call shape can reach on this kernel at best.

  python3 bench/floor.py --rift build/bin/rift --reps 3
  python3 bench/floor.py --engines nginx,rift,baseline --baseline /tmp/rift-before --reps 5

Writes bench/results/floor-<timestamp>.md and .json. Standard library only.
"""
import argparse
import datetime
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import run as harness  # noqa: E402  (bench/run.py: engines, wrk, /proc)
from run import Abort, log  # noqa: E402

ENGINES = ("nginx", "epoll", "uring", "rift", "metrics", "baseline")
FLOOR_PORT = 4700
HEALTH = next(s for s in harness.SCENARIOS if s[0] == "simple_health")


def measure(args, name, argv, admin_port, port, prepare=None):
    engine = harness.Engine(name, name, argv, admin_port, [admin_port, port], args.workdir,
                            ready_path="/health")
    try:
        engine.start(args.server_core)
        if prepare:
            prepare(engine)
        status, text = harness.http_call(port, "GET", "/health")
        if status != 200 or text != "OK":
            raise Abort(f"{name}: body proof failed: {status} {text!r}")
        return harness.measure_point(args, engine, "simple_health",
                                     f"http://127.0.0.1:{port}/health", "GET", None, {})
    finally:
        engine.stop()


def run_nginx(args):
    d = os.path.join(args.workdir, "nginx")
    os.makedirs(d, exist_ok=True)
    conf = os.path.join(d, "nginx.conf")
    with open(conf, "w") as f:
        f.write(harness.NGINX_CONF.format(dir=d, port=args.nginx_port,
                                          keepalive=harness.NGINX_MODES["keepalive"]))
    argv = [args.nginx, "-p", d, "-c", conf, "-e", os.path.join(d, "error.log")]
    return measure(args, "nginx", argv, args.nginx_port, args.nginx_port)


def run_rift(args, name, binary, extra=()):
    argv = [binary, "start", "--engine", "interp", "--port", "2525", "--keepAlive",
            "--loglevel", "warn", "--threads", "1", *extra]

    def prepare(engine):
        harness.http_call(2525, "DELETE", "/imposters")
        for _, base, body in harness.fixture.imposters(0):
            if base == HEALTH[2]:
                status, text = harness.http_call(2525, "POST", "/imposters", body,
                                                 harness.CT_JSON)
                if status != 201:
                    raise Abort(f"{name}: POST /imposters: {status} {text[:200]}")

    engine = harness.Engine(name, name, argv, 2525, [2525, HEALTH[2]], args.workdir)
    try:
        engine.start(args.server_core)
        prepare(engine)
        harness.prove_body(name, HEALTH, HEALTH[2])
        return harness.measure_point(args, engine, "simple_health",
                                     f"http://127.0.0.1:{HEALTH[2]}/health", "GET", None, {})
    finally:
        engine.stop()


def run_floor(args, name):
    binary = os.path.join(args.floor_dir, f"rift_{name}_floor")
    if not os.access(binary, os.X_OK):
        raise Abort(f"{binary} not built (bench/CMakeLists.txt; the io_uring one needs "
                    "liburing-dev)")
    return measure(args, name, [binary, str(FLOOR_PORT)], FLOOR_PORT, FLOOR_PORT)


def render(args, res, started):
    anchor = res.get("nginx", {}).get("cpu_us_per_req")
    lines = [f"# System-call floor, {started}", "",
             f"- host: {harness.host_line()}",
             f"- server pinned to core {args.server_core}, wrk (1 thread, {args.connections} "
             f"connections) to core {args.client_core}; {args.duration} s measured after "
             f"{args.warmup} s warm-up; medians of {args.reps} repetitions, engines interleaved",
             "- load average at the start of each point (median): "
             + ", ".join(f"{k} {v.get('loadavg') or 0:.2f}" for k, v in res.items()),
             "", "| engine | RPS | p50 ms | p99 ms | CPU µs/req | ÷ nginx | server core busy |",
             "|---|--:|--:|--:|--:|--:|--:|"]
    for name in args.engine_list:
        r = res.get(name)
        if not r:
            continue
        lines.append(f"| {name} | {harness.fmt_num(r['rps'], 0)} | "
                     f"{harness.fmt_ms(r.get('p50_us'))} | {harness.fmt_ms(r.get('p99_us'))} | "
                     f"{r['cpu_us_per_req']:.2f} | {harness.ratio(r['cpu_us_per_req'], anchor)} | "
                     f"{r['cpu_util'] * 100:.0f}% |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--rift", default=os.path.join(REPO, "build/bin/rift"))
    ap.add_argument("--baseline", default=None, help="a second Rift binary to measure the same "
                    "way (engine `baseline`), e.g. a build of the previous commit")
    ap.add_argument("--floor-dir", default=None,
                    help="directory of rift_epoll_floor / rift_uring_floor (default: "
                    "<rift's build dir>/bench)")
    ap.add_argument("--nginx", default=shutil.which("nginx") or "/usr/sbin/nginx")
    ap.add_argument("--nginx-port", type=int, default=4699)
    harness.add_load_arguments(ap)
    ap.add_argument("--wrk-timeout", type=int, default=10)
    args = ap.parse_args()
    args.status_hook = "warmup"
    args.engine_list = [e for e in ENGINES if e in args.engines.split(",")
                        and (e != "baseline" or args.baseline)]
    args.rift = os.path.abspath(args.rift)
    if args.floor_dir is None:
        args.floor_dir = os.path.join(os.path.dirname(os.path.dirname(args.rift)), "bench")
    started = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    reps = []
    with tempfile.TemporaryDirectory(prefix="rift-floor-") as workdir:
        args.workdir = workdir
        try:
            for rep in range(args.reps):
                log(f"repetition {rep + 1}/{args.reps}")
                one = {}
                for name in args.engine_list:
                    if name == "nginx":
                        one[name] = run_nginx(args)
                    elif name == "rift":
                        one[name] = run_rift(args, name, args.rift)
                    elif name == "metrics":
                        one[name] = run_rift(args, name, os.path.abspath(args.rift),
                                             ("--metricsPort", "2526"))
                    elif name == "baseline":
                        one[name] = run_rift(args, name, os.path.abspath(args.baseline))
                    else:
                        one[name] = run_floor(args, name)
                reps.append(one)
        except Abort as e:
            log(f"ABORT: {e}")
            return 1
    res = {}
    for name in args.engine_list:
        points = [r[name] for r in reps]
        res[name] = {k: harness.median([p[k] for p in points if p.get(k) is not None])
                     for k in ("rps", "p50_us", "p99_us", "cpu_us_per_req", "cpu_util",
                               "loadavg")}
    text = render(args, res, started)
    os.makedirs(args.out_dir, exist_ok=True)
    stem = os.path.join(args.out_dir, "floor-" + started.replace(" ", "-").replace(":", ""))
    with open(stem + ".md", "w") as f:
        f.write(text)
    with open(stem + ".json", "w") as f:
        json.dump({"started": started, "argv": sys.argv, "reps": reps}, f, indent=1, default=str)
    print(text)
    log(f"wrote {stem}.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
