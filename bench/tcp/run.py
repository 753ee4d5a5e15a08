#!/usr/bin/env python3
"""tcp imposters, Rift against Mountebank in one run (issue 21): a tcp echo-style imposter of 100
`data` stubs, the request matching the last one.

Each engine in turn (rift, previous, mb; never two at once) is started pinned to one core
(`rift start --threads 1`, `node mb start`) and given one imposter, mode text:

  stub i (0..99): {"predicates": [{"equals": {"data": "req-<i>\\n"}}],
                   "responses": [{"is": {"data": "resp-<i>\\n"}}]}

One request proves the answer (`req-99\\n` must come back as exactly `resp-99\\n`, else the whole
run aborts), then rift_tcp_load (bench/tcp/tcp_load.cpp, a closed loop: --connections
connections each send `req-99\\n`, read the 8 bytes of `resp-99\\n`, check them and send again),
pinned to the other core, runs a warm-up and then the measured run. The server's CPU per request
(utime + stime of its whole session from /proc, over the measured run) is the number to compare;
RPS also depends on the client. Reported per engine: RPS, p50/p99, CPU µs/req, how busy the
server's core was, and Rift ÷ Mountebank (and Rift ÷ previous) of RPS and CPU/req; medians of
--reps, engines interleaved. A wrong reply or a reply that never comes aborts the run.

While Rift does not serve tcp yet its `POST /imposters` answers 400; the Rift side (and
--previous's) is then skipped with a message and Mountebank is measured alone.

  python3 bench/tcp/run.py --rift build/bin/rift --reps 3
  python3 bench/tcp/run.py --engines mb --reps 1 -d 3
  python3 bench/tcp/run.py --previous /tmp/rift-before      # also another Rift binary

Writes bench/results/tcp-<timestamp>.md and .json. Standard library only.
"""
import argparse
import datetime
import json
import os
import shutil
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
REPO = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)  # ahead of bench/tcp/: `run` is bench/run.py, not this file
import run as harness  # noqa: E402  (bench/run.py: engines, /proc, medians, output)
from run import Abort, log  # noqa: E402

ENGINES = ("rift", "previous", "mb")
STUBS = 100
LAST = STUBS - 1
REQUEST = f"req-{LAST}\n"
REPLY = f"resp-{LAST}\n"
KEYS = ("rps", "p50_us", "p99_us", "cpu_us_per_req", "cpu_util", "requests", "closed",
        "loadavg", "rss_mb")


def imposter(port):
    stubs = [{"predicates": [{"equals": {"data": f"req-{i}\n"}}],
              "responses": [{"is": {"data": f"resp-{i}\n"}}]} for i in range(STUBS)]
    return json.dumps({"protocol": "tcp", "port": port, "mode": "text", "stubs": stubs})


def ask(port, payload, want_bytes, timeout=10):
    """One request on a fresh connection: what came back once `want_bytes` bytes arrived, the
    peer closed, or `timeout` passed."""
    got = b""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        conn.sendall(payload.encode())
        deadline = time.monotonic() + timeout
        while len(got) < want_bytes and time.monotonic() < deadline:
            try:
                chunk = conn.recv(want_bytes - len(got))
            except socket.timeout:
                break
            if not chunk:
                break
            got += chunk
    return got.decode(errors="replace")


def prove_reply(label, port):
    for i in (0, LAST):
        want = f"resp-{i}\n"
        try:
            got = ask(port, f"req-{i}\n", len(want))
        except OSError as error:
            raise Abort(f"{label}: the proof request failed: {error}")
        if got != want:
            raise Abort(f"{label}: req-{i} answered {got!r}, want {want!r}")
    log(f"{label}: reply proof ok")


def run_load(args, engine, port, duration):
    """One rift_tcp_load run (no warm-up of its own), the server's CPU read around it."""
    argv = ["taskset", "-c", str(args.client_core)] if args.client_core is not None else []
    argv += [args.tcp_load, "--port", str(port), "--connections", str(args.connections),
             "--duration", str(duration), "--warmup", "0", "--timeout", str(args.timeout),
             "--send", REQUEST, "--expect", REPLY]
    cpu0 = harness.cpu_ticks(engine.sid)
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=duration + 60)
    except subprocess.TimeoutExpired:
        raise Abort(f"{engine.label}: rift_tcp_load did not finish")
    cpu1 = harness.cpu_ticks(engine.sid)
    if proc.returncode != 0:
        raise Abort(f"{engine.label}: rift_tcp_load exited {proc.returncode}: "
                    f"{proc.stderr.strip() or proc.stdout.strip()}")
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    if res["mismatches"] or res["timeouts"]:
        raise Abort(f"{engine.label}: {res['mismatches']} wrong replies, {res['timeouts']} "
                    f"replies that never came ({res['requests']} right ones)")
    if not res["requests"]:
        raise Abort(f"{engine.label}: no replies in {duration} s")
    res["cpu_s"] = (cpu1 - cpu0) / harness.CLK_TCK
    res["cpu_us_per_req"] = res["cpu_s"] * 1e6 / res["requests"]
    res["cpu_util"] = res["cpu_s"] / res["seconds"]
    return res


def refusal(text):
    """The message of an admin API error body (`{"errors": [{"message": ...}]}`), else the text."""
    try:
        return "; ".join(e["message"] for e in json.loads(text)["errors"])
    except (ValueError, KeyError, TypeError):
        return " ".join(text.split())[:300]


def measure(args, name, argv, admin_port, port):
    """The engine's result, or None when it refuses the tcp imposter (args.skipped says why)."""
    engine = harness.Engine(name, name, argv, admin_port, [admin_port, port], args.workdir)
    try:
        engine.start(args.server_core)
        status, text = harness.http_call(admin_port, "POST", "/imposters", imposter(port),
                                         harness.CT_JSON, timeout=60)
        if status != 201:
            if name == "mb":
                raise Abort(f"mb: POST /imposters answered {status}: {text[:300]}")
            args.skipped[name] = f"POST /imposters answered {status}: {refusal(text)}"
            log(f"{name}: SKIPPED, the tcp imposter was refused ({args.skipped[name]})")
            return None
        prove_reply(name, port)
        if args.warmup > 0:
            run_load(args, engine, port, args.warmup)
        load = float(open("/proc/loadavg").read().split()[0])
        res = run_load(args, engine, port, args.duration)
        res["loadavg"] = load
        res["rss_mb"] = harness.rss_kb(engine.sid) / 1024
        log(f"{name}: {res['rps']:,.0f} rps, p50 {res['p50_us']:.0f} us, p99 "
            f"{res['p99_us']:.0f} us, cpu {res['cpu_us_per_req']:.2f} us/req "
            f"({res['cpu_util'] * 100:.0f}% of a core), closed {res['closed']}, load {load}")
        return res
    finally:
        engine.stop()


def engine_argv(args, name):
    """(argv, admin port, imposter port) of one engine."""
    if name == "mb":
        admin, port = args.admin_port + args.mb_offset, args.imposter_port + args.mb_offset
        return ([args.node, args.mb, "start", "--port", str(admin), "--loglevel", "warn",
                 "--nologfile"], admin, port)
    binary = args.rift if name == "rift" else args.previous
    return ([binary, "start", "--port", str(args.admin_port), "--loglevel", "warn", "--threads",
             "1"], args.admin_port, args.imposter_port)


def render(args, res, started):
    mb = res.get("mb")
    lines = [f"# tcp imposters: Rift against Mountebank, {started}", "",
             f"- host: {harness.host_line()}",
             f"- one tcp imposter (mode text) of {STUBS} stubs, stub i `data` equals "
             f"`req-<i>\\n` → `resp-<i>\\n`; every request is `req-{LAST}\\n` (the last stub)",
             f"- server pinned to core {args.server_core} (`rift start --threads 1`, "
             f"`node mb start`), rift_tcp_load ({args.connections} connections, a closed loop, "
             f"one request in flight each) on core {args.client_core}; {args.duration} s after "
             f"{args.warmup} s warm-up; medians of {args.reps}, engines interleaved",
             "- CPU µs/req = server CPU (utime + stime, every process of its session, from /proc) "
             "over the measured run ÷ replies; busy = that CPU ÷ wall time (100%: the server's "
             "core is the limit, lower: the client is)"]
    for name, why in args.skipped.items():
        lines.append(f"- **{name} skipped**: {why}")
    lines += ["", "| engine | RPS | p50 ms | p99 ms | CPU µs/req | busy | RPS ÷ mb "
              "| CPU/req ÷ mb | closed |", "|---|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for name in args.engine_list:
        r = res.get(name)
        if not r:
            continue
        lines.append(f"| {name} | {r['rps']:,.0f} | {harness.fmt_ms(r['p50_us'])} | "
                     f"{harness.fmt_ms(r['p99_us'])} | {r['cpu_us_per_req']:.2f} | "
                     f"{r['cpu_util'] * 100:.0f}% | "
                     f"{harness.ratio(r['rps'], mb and mb['rps'], 2)} | "
                     f"{harness.ratio(r['cpu_us_per_req'], mb and mb['cpu_us_per_req'], 3)} | "
                     f"{r['closed']:.0f} |")
    rift, previous = res.get("rift"), res.get("previous")
    if rift and mb:
        lines += ["", f"Rift ÷ Mountebank: RPS {rift['rps'] / mb['rps']:,.2f}×, CPU per request "
                  f"{rift['cpu_us_per_req'] / mb['cpu_us_per_req']:.3f}×."]
    if rift and previous:
        lines += ["", f"Rift ÷ previous: RPS {rift['rps'] / previous['rps']:.3f}×, CPU per "
                  f"request {rift['cpu_us_per_req'] / previous['cpu_us_per_req']:.3f}×."]
    if args.reps > 1:
        lines += ["", "| engine | RPS spread % | CPU/req spread % |", "|---|--:|--:|"]
        lines += [f"| {name} | {res[name]['rps_spread']:.1f} | {res[name]['cpu_spread']:.1f} |"
                  for name in args.engine_list if res.get(name)]
    return "\n".join(lines) + "\n"


def summarize(reps, names):
    """Per engine: the median of each number across repetitions, and the RPS and CPU/req spread
    ((max - min) / mean x 100)."""
    out = {}
    for name in names:
        runs = [rep[name] for rep in reps if rep.get(name)]
        if not runs:
            continue
        out[name] = {k: harness.median([r[k] for r in runs]) for k in KEYS}
        for key, spread in (("rps", "rps_spread"), ("cpu_us_per_req", "cpu_spread")):
            values = [r[key] for r in runs]
            out[name][spread] = (max(values) - min(values)) / (sum(values) / len(values)) * 100
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--engines", default=",".join(ENGINES),
                    help="comma list from rift,previous,mb; always run in that order (previous "
                    "only with --previous)")
    ap.add_argument("--rift", default=os.path.join(REPO, "build/bin/rift"))
    ap.add_argument("--previous", "--baseline", default=None,
                    help="a second Rift binary measured the same way (engine `previous`), e.g. "
                    "a build of the previous commit")
    diff_mb = os.path.join(REPO, "tests/diff/node_modules/mountebank/bin/mb")
    ap.add_argument("--mb", default=diff_mb if os.path.isfile(diff_mb) else harness.MB_DEFAULT,
                    help="Mountebank's bin/mb (default: the one tests/diff installs with npm ci)")
    ap.add_argument("--node", default=shutil.which("node") or "node")
    ap.add_argument("--tcp-load", default=None,
                    help="rift_tcp_load (default: <rift's build dir>/bench/rift_tcp_load)")
    ap.add_argument("--admin-port", type=int, default=2525)
    ap.add_argument("--imposter-port", type=int, default=4597)
    ap.add_argument("--mb-offset", type=int, default=100,
                    help="Mountebank's admin and imposter ports are Rift's + this")
    ap.add_argument("--timeout", type=float, default=10,
                    help="seconds a reply may take before the run aborts")
    harness.add_load_arguments(ap)
    args = ap.parse_args()
    for attr in ("server_core", "client_core"):
        if getattr(args, attr) in ("none", ""):
            setattr(args, attr, None)
    wanted = args.engines.split(",")
    unknown = set(wanted) - set(ENGINES)
    if unknown:
        ap.error(f"unknown engines {sorted(unknown)}")
    args.engine_list = [e for e in ENGINES if e in wanted and (e != "previous" or args.previous)]
    args.rift = os.path.abspath(args.rift)
    args.previous = args.previous and os.path.abspath(args.previous)  # servers run in the workdir
    for name, binary in (("rift", args.rift), ("previous", args.previous)):
        if name in args.engine_list and not os.access(binary, os.X_OK):
            ap.error(f"{name}: {binary} is not an executable (--rift, --previous, or --engines mb)")
    if "mb" in args.engine_list and not os.path.isfile(args.mb):
        ap.error(f"Mountebank not found at {args.mb} (cd tests/diff && npm ci, or --mb)")
    if args.tcp_load is None:
        args.tcp_load = os.path.join(os.path.dirname(os.path.dirname(args.rift)), "bench",
                                     "rift_tcp_load")
    if not os.access(args.tcp_load, os.X_OK):
        ap.error(f"{args.tcp_load} not built: ninja -C <build dir> rift_tcp_load "
                 "(bench/CMakeLists.txt), or --tcp-load")
    args.skipped = {}
    started = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    args.workdir = harness.new_workdir("tcp", started.replace(" ", "-").replace(":", ""))
    log(f"work dir {args.workdir}; engines {args.engine_list}")
    harness.rift_process.unwind_on_signals()  # SIGTERM/SIGHUP: `finally` stops the engine
    reps = []
    try:
        for rep in range(args.reps):
            log(f"repetition {rep + 1}/{args.reps}")
            one = {}
            for name in args.engine_list:
                if name not in args.skipped:  # a refusal is not retried every repetition
                    argv, admin, port = engine_argv(args, name)
                    one[name] = measure(args, name, argv, admin, port)
            reps.append(one)
    except Abort as error:
        log(f"ABORT: {error}")
        return 2
    except KeyboardInterrupt as error:
        log(f"interrupted ({error}); engines stopped")
        return 130
    res = summarize(reps, args.engine_list)
    text = render(args, res, started)
    os.makedirs(args.out_dir, exist_ok=True)
    stem = os.path.join(args.out_dir, "tcp-" + started.replace(" ", "-").replace(":", ""))
    with open(stem + ".md", "w") as f:
        f.write(text)
    with open(stem + ".json", "w") as f:
        json.dump({"started": started, "argv": sys.argv, "skipped": args.skipped, "reps": reps},
                  f, indent=1)
    print(text)
    log(f"wrote {stem}.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
