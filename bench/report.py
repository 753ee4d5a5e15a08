#!/usr/bin/env python3
"""The speed report (issue 6): every benchmark scenario on every Rift tier, side by side with
Mountebank 2.9.1 and nginx, in one run.

Engines, strictly one after the other in each repetition, the server pinned to one core and wrk
(one thread) to the other, as bench/run.py does (this script reuses its engine, wrk and /proc
code):

  interp   rift start --engine interp --keepAlive   the 14 imposters + Recording over the admin API
  jit      rift start --engine jit --keepAlive      the same, measured once every imposter's plan
                                                    says "tier": "jit"
  frozen   riftc compile examples/benchmark.json    the frozen mock, --keepAlive
  mb       Mountebank 2.9.1                         the 13 comparison scenarios (it closes every
                                                    connection, as it must without a Connection
                                                    header in the stub)
  nginx    nginx-light, one worker, `return 200 "OK"`, keep-alive and close: the anchors

Rift tiers run the 13 comparison scenarios and the Rift-only ones (docs/benchmark-workload.md §7);
after each `recording_on` point the journal is checked (numberOfRequests > 0,
0 < len(requests) <= 10,000). Values are medians over --reps repetitions; the table gives, per
scenario and tier, RPS, p50/p99, the server's CPU per request (utime + stime from /proc over the
measured run ÷ requests), and that CPU per request as a ratio of nginx's keep-alive anchor and of
the tier's own `simple_health`: the issue's targets (simple_health <= 0.75x nginx; every
scenario <= 1.1x simple_health, recording_on <= 1.2x; p99 <= 1 ms). After each closed-loop point an
open-loop run (bench/open_loop/open_loop.cpp, at --open-loop times that point's RPS, e.g. 0.5; off
by default) gives p50/p99/p99.9 timed from when each request was due, since wrk's closed loop at
saturation measures its own queue. With gnuplot installed it also draws one PNG
per engine (CPU per request by scenario) and one per scenario (CPU per request by engine).

  python3 bench/report.py --rift build/bin/rift --riftc build/bin/riftc
  python3 bench/report.py --engines interp,nginx --scenarios simple_health,api_last --reps 1

Writes bench/results/report-<timestamp>.md, .json and .png files. Standard library only.
"""
import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import run as harness  # noqa: E402  (bench/run.py: engines, wrk, /proc)
from run import Abort, log  # noqa: E402

CT_JSON = harness.CT_JSON
RIFT_ONLY = harness.RIFT_ONLY_SCENARIOS
ALL_SCENARIOS = harness.SCENARIOS + RIFT_ONLY
RIFT_TIERS = ("interp", "jit", "frozen")
ENGINES = RIFT_TIERS + ("mb", "nginx")
JOURNAL_CAP = 10_000


def wait_for_jit(engine, ports, timeout_s=180):
    """The JIT compiles in the background: measure only once every imposter is served by it."""
    deadline = time.monotonic() + timeout_s
    waiting = set(ports)
    while waiting:
        for port in sorted(waiting):
            status, text = harness.http_call(engine.admin_port, "GET", f"/imposters/{port}/plan")
            if status == 200 and json.loads(text).get("tier") == "jit":
                waiting.discard(port)
        if not waiting:
            break
        if time.monotonic() > deadline:
            raise Abort(f"{engine.label}: imposters {sorted(waiting)} not on the JIT tier after "
                        f"{timeout_s} s")
        time.sleep(0.2)
    log(f"{engine.label}: every imposter on the JIT tier")


def check_journal(engine):
    status, text = harness.http_call(engine.admin_port, "GET", "/imposters/4556")
    body = json.loads(text) if status == 200 else {}
    count, kept = body.get("numberOfRequests", 0), len(body.get("requests", []))
    if not (count > 0 and 0 < kept <= JOURNAL_CAP):
        raise Abort(f"{engine.label}/recording_on: journal check failed: numberOfRequests "
                    f"{count}, {kept} requests kept (want > 0 and 0 < kept <= {JOURNAL_CAP})")
    log(f"{engine.label}/recording_on: journal ok ({count:,} counted, {kept:,} kept)")


def load_with_recording(engine, args):
    harness.http_call(engine.admin_port, "DELETE", "/imposters")
    for name, base, body in harness.fixture.imposters(0, recording=True):
        status, text = harness.http_call(engine.admin_port, "POST", "/imposters", body,
                                         CT_JSON, timeout=180)
        if status != 201:
            raise Abort(f"{engine.label}: POST /imposters {name} answered {status}: {text[:300]}")
    log(f"{engine.label}: fixture + Recording loaded")


def open_loop_point(args, label, sc, port, res):
    """Latency at a fixed arrival rate (a fraction of the closed-loop RPS just measured), each
    request timed from when it was due: bench/open_loop/open_loop.cpp."""
    if not args.open_loop:
        return
    rate = max(100, int(res["rps"] * args.open_loop))
    argv = (["taskset", "-c", str(args.client_core)] if args.client_core is not None else []) + [
        args.open_loop_bin, "--port", str(port), "--path", sc[3], "--method", sc[1],
        "--rate", str(rate), "--connections", str(args.connections),
        "--duration", str(args.duration), "--warmup", "1"]
    for name, value in sc[5].items():
        argv += ["--header", f"{name}: {value}"]
    if sc[4] is not None:
        argv += ["--body", sc[4]]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=args.duration + 60)
    if proc.returncode != 0:
        raise Abort(f"{label}/{sc[0]}: open loop failed: {proc.stderr.strip()[-500:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    if out["non2xx"]:
        raise Abort(f"{label}/{sc[0]}: {out['non2xx']} non-2xx answers in the open loop")
    res.update(open_rate=rate, open_p50_us=out["p50_us"], open_p99_us=out["p99_us"],
               open_p999_us=out["p999_us"])
    log(f"{label}/{sc[0]}: open loop at {rate:,} req/s: p50 {out['p50_us'] / 1000:.3f} ms, "
        f"p99 {out['p99_us'] / 1000:.3f} ms, p99.9 {out['p999_us'] / 1000:.3f} ms")


def measure_engine(args, name, argv, admin, offset, scenarios, prepare):
    ports = [admin] + [b + offset for b in harness.ALL_BASE_PORTS]
    engine = harness.Engine(name, name, argv, admin, ports, args.workdir)
    results = {}
    try:
        engine.start(args.server_core)
        prepare(engine)
        for sc in scenarios:
            port = sc[2] + offset
            harness.prove_body(name, sc, port)
            url = f"http://127.0.0.1:{port}{sc[3]}"
            results[sc[0]] = harness.measure_point(args, engine, sc[0], url, sc[1], sc[4], sc[5])
            if name in RIFT_TIERS:  # Mountebank closes every connection: no keep-alive loop
                open_loop_point(args, name, sc, port, results[sc[0]])
            if sc[0] == "recording_on":
                check_journal(engine)
    finally:
        engine.stop()
    return results


def build_frozen(args):
    out = os.path.join(args.workdir, "frozen-benchmark")
    log(f"riftc compile {args.config} -> {out}")
    proc = subprocess.run([args.riftc, "compile", args.config, "-o", out], capture_output=True,
                          text=True, timeout=600)
    if proc.returncode != 0:
        raise Abort(f"riftc compile failed: {proc.stderr.strip()[-2000:]}")
    return out


def run_engines(args, scenarios):
    comparison = [s for s in scenarios if s in harness.SCENARIOS]
    rift_base = ["--port", "2525", "--keepAlive", "--loglevel", "warn", "--threads",
                 str(args.rift_threads)]
    results = {}
    for name in args.engine_list:
        if name in ("interp", "jit"):
            argv = [args.rift, "start", "--engine", name] + rift_base

            def prepare(engine, name=name):
                load_with_recording(engine, args)
                if name == "jit":
                    wait_for_jit(engine, [b for b in harness.ALL_BASE_PORTS])
            results[name] = measure_engine(args, name, argv, 2525, 0, scenarios, prepare)
        elif name == "frozen":
            argv = [args.frozen_binary] + rift_base
            results[name] = measure_engine(args, name, argv, 2525, 0, scenarios,
                                           lambda engine: None)
        elif name == "mb":
            argv = [args.node, args.mb, "start", "--port", "2625", "--loglevel", "warn"]
            results[name] = measure_engine(
                args, name, argv, 2625, 100, comparison,
                lambda engine: harness.load_fixture(engine, 100, args))
        elif name == "nginx":
            health = ALL_SCENARIOS[0]

            def after(mode, port, res):
                if mode == "keepalive":
                    open_loop_point(args, "nginx", health, port, res)
            results[name] = harness.run_nginx(args, after)
    return results


def cell(value, fmt):
    return "" if value is None else format(value, fmt)


def open_cell(r):
    if r.get("open_p99_us") is None:
        return ""
    return " / ".join(f"{r[k] / 1000:.3f}" for k in ("open_p50_us", "open_p99_us", "open_p999_us"))


def render(args, scenarios, res, started):
    ngx = res.get("nginx", {}).get("keepalive", {}).get("cpu_us_per_req")
    tiers = [t for t in args.engine_list if t in RIFT_TIERS]
    lines = [f"# Rift speed report, {started}", "",
             f"- host: {harness.host_line()}",
             f"- server pinned to core {args.server_core}, wrk (1 thread, {args.connections} "
             f"connections) to core {args.client_core}; {args.duration} s measured after "
             f"{args.warmup} s warm-up; medians of {args.reps} repetition(s); engines in order "
             f"{', '.join(args.engine_list)}",
             "- Rift tiers run with `--keepAlive --threads "
             f"{args.rift_threads}`; Mountebank closes every connection (its default)",
             "- CPU µs/req = server utime+stime over the measured run ÷ requests; `÷nginx` = that "
             "÷ nginx's keep-alive anchor; `÷health` = that ÷ the same tier's simple_health", ""]
    head = "| Scenario |"
    rule = "|---|"
    for t in tiers:
        head += f" {t} RPS | {t} p99 ms | {t} CPU µs/req | {t} ÷nginx | {t} ÷health |"
        rule += "--:|" * 5
    if "mb" in res:
        head += " MB RPS | MB CPU µs/req | MB ÷ " + (tiers[0] if tiers else "-") + " CPU |"
        rule += "--:|" * 3
    lines += [head, rule]
    for sc in scenarios:
        row = f"| {sc[0]} |"
        for t in tiers:
            r = res.get(t, {}).get(sc[0])
            base = res.get(t, {}).get("simple_health", {}).get("cpu_us_per_req")
            cpu = r.get("cpu_us_per_req") if r else None
            row += (f" {cell(r and r['rps'], ',.0f')} | {cell(r and r.get('p99_us', 0) / 1000, '.2f')}"
                    f" | {cell(cpu, '.2f')} | {cell(cpu and ngx and cpu / ngx, '.2f')}"
                    f" | {cell(cpu and base and cpu / base, '.2f')} |")
        if "mb" in res:
            m = res["mb"].get(sc[0])
            first = res.get(tiers[0], {}).get(sc[0]) if tiers else None
            row += (f" {cell(m and m['rps'], ',.0f')} | {cell(m and m['cpu_us_per_req'], '.1f')} |"
                    f" {cell(m and first and m['cpu_us_per_req'] / first['cpu_us_per_req'], ',.1f')} |")
        lines.append(row)
    if args.open_loop:
        lines += ["", f"Open loop: requests due at {args.open_loop:.0%} of each point's closed-loop "
                  f"RPS over {args.connections} connections, latency from when each was due "
                  "(no coordinated omission); p50 / p99 / p99.9 in ms, rate in req/s.", "",
                  "| Scenario |" + "".join(f" {t} rate | {t} p50 / p99 / p99.9 |" for t in tiers),
                  "|---|" + "--:|--:|" * len(tiers)]
        for sc in scenarios:
            row = f"| {sc[0]} |"
            for t in tiers:
                r = res.get(t, {}).get(sc[0]) or {}
                row += f" {cell(r.get('open_rate'), ',.0f')} | {open_cell(r)} |"
            lines.append(row)
        r = res.get("nginx", {}).get("keepalive") or {}
        lines += ["", f"nginx `OK` (keep-alive), open loop at {cell(r.get('open_rate'), ',.0f')} "
                  f"req/s: {open_cell(r)} ms"]
    for mode, r in res.get("nginx", {}).items():
        lines.append(f"\nnginx `OK` ({mode}): {r['rps']:,.0f} RPS, p99 "
                     f"{r.get('p99_us', 0) / 1000:.2f} ms, {r['cpu_us_per_req']:.2f} CPU µs/req")
    lines += ["", "RSS after the last scenario, MB: " + ", ".join(
        f"{e} {max(r['rss_mb'] for r in res[e].values()):.1f}" for e in args.engine_list
        if e in res and e != "nginx" and res[e])]
    return "\n".join(lines) + "\n"


GNUPLOT = """set terminal pngcairo size 1100,520 font ',9' noenhanced
set output '{png}'
set yrange [0:*]
set title '{title}'
set style data histograms
set style fill solid 0.8 border -1
set ylabel 'server CPU µs per request'
set xtics rotate by -40 scale 0
set key off
set grid ytics
plot '{data}' using 2:xtic(1) linecolor rgb '#3b6ea8', \\
     '' using 0:2:(sprintf('%.2f', $2)) with labels offset 0,0.7
"""


def charts(args, scenarios, res, stem):
    if not shutil.which("gnuplot"):
        log("gnuplot not found: no charts")
        return []
    made = []

    def draw(name, title, rows):
        rows = [(label, v) for label, v in rows if v is not None]
        if not rows:
            return
        data, png = f"{stem}-{name}.dat", f"{stem}-{name}.png"
        with open(data, "w") as f:
            f.writelines(f'"{label}" {value:.3f}\n' for label, value in rows)
        script = GNUPLOT.format(png=png, title=title, data=data)
        subprocess.run(["gnuplot"], input=script, text=True, check=True, timeout=60)
        os.remove(data)
        made.append(png)

    engines = [e for e in args.engine_list if e != "nginx" and e in res]
    anchor = res.get("nginx", {}).get("keepalive", {}).get("cpu_us_per_req")
    for e in engines:
        draw(f"engine-{e}", f"{e}: CPU per request by scenario",
             [(sc[0], res[e].get(sc[0], {}).get("cpu_us_per_req")) for sc in scenarios])
    for sc in scenarios:
        rows = [(e, res[e].get(sc[0], {}).get("cpu_us_per_req")) for e in engines]
        draw(f"scenario-{sc[0]}", f"{sc[0]}: CPU per request by engine",
             rows + [("nginx keep-alive", anchor)])
    return made


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--scenarios", default=",".join(s[0] for s in ALL_SCENARIOS))
    ap.add_argument("--rift", default=os.path.join(REPO, "build/bin/rift"))
    ap.add_argument("--riftc", default=None, help="default: riftc next to --rift")
    ap.add_argument("--config", default=os.path.join(REPO, "examples/benchmark.json"),
                    help="what the frozen mock is built from (the fixture + Recording)")
    ap.add_argument("--rift-threads", type=int, default=1)
    diff_mb = os.path.join(REPO, "tests/diff/node_modules/mountebank/bin/mb")
    ap.add_argument("--mb", default=diff_mb if os.path.isfile(diff_mb) else harness.MB_DEFAULT,
                    help="Mountebank's bin/mb (default: the one tests/diff installs with npm ci)")
    ap.add_argument("--node", default=shutil.which("node") or "node")
    ap.add_argument("--nginx", default=shutil.which("nginx") or "/usr/sbin/nginx")
    ap.add_argument("--nginx-port", type=int, default=4699)
    harness.add_load_arguments(ap)
    ap.add_argument("--open-loop", type=float, default=0,
                    help="after each closed-loop point of a Rift tier, an open-loop run at this "
                    "fraction of its RPS for the p50/p99/p99.9 latencies (0 = none, the default)")
    ap.add_argument("--open-loop-bin", default=None,
                    help="rift_open_loop (default: <rift's build dir>/bench/rift_open_loop)")
    args = ap.parse_args()
    # What bench/run.py's helpers read from their own arguments.
    args.wrk_timeout, args.status_hook = 30, "warmup"
    args.nginx_mode_list = ["keepalive", "close"]
    args.stub_count = harness.fixture.DEFAULT_STUB_COUNT
    args.body_field_stubs = harness.fixture.DEFAULT_BODY_FIELD_STUBS

    args.engine_list = [e for e in ENGINES if e in args.engines.split(",")]
    if set(args.engines.split(",")) - set(ENGINES):
        ap.error(f"engines are {', '.join(ENGINES)}")
    wanted = args.scenarios.split(",")
    scenarios = [s for s in ALL_SCENARIOS if s[0] in wanted]
    if len(scenarios) != len(set(wanted)):
        ap.error(f"scenarios are {', '.join(s[0] for s in ALL_SCENARIOS)}")
    args.rift = os.path.abspath(args.rift)
    args.riftc = os.path.abspath(args.riftc or os.path.join(os.path.dirname(args.rift), "riftc"))
    args.open_loop_bin = os.path.abspath(args.open_loop_bin or os.path.join(
        os.path.dirname(os.path.dirname(args.rift)), "bench", "rift_open_loop"))
    if args.open_loop and not os.access(args.open_loop_bin, os.X_OK):
        ap.error(f"{args.open_loop_bin} not built (--open-loop-bin, or --open-loop 0)")
    if "mb" in args.engine_list and not os.path.isfile(args.mb):
        ap.error(f"Mountebank not found at {args.mb} (--mb)")

    started = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    args.workdir = harness.new_workdir("report", stamp)
    try:
        if "frozen" in args.engine_list:
            args.frozen_binary = build_frozen(args)
        reps = [run_engines(args, scenarios) for _ in range(args.reps)]
    except Abort as error:
        log(f"ABORT: {error}")
        return 2
    results = harness.aggregate(reps)
    os.makedirs(args.out_dir, exist_ok=True)
    stem = os.path.join(args.out_dir, f"report-{stamp}")
    report = render(args, scenarios, results, started)
    pngs = charts(args, scenarios, results, stem)
    if pngs:
        report += "\nCharts: " + ", ".join(os.path.basename(p) for p in pngs) + "\n"
    with open(stem + ".md", "w") as f:
        f.write(report)
    raw = [{e: {s: {k: v for k, v in r.items() if k != "wrk_stdout"} for s, r in per.items()}
            for e, per in rep.items()} for rep in reps]
    with open(stem + ".json", "w") as f:
        json.dump({"started": started, "argv": sys.argv, "reps": raw}, f, indent=1)
    print(report)
    log(f"wrote {stem}.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
