#!/usr/bin/env python3
"""Match cost against stub count: compiled (AOT) vs interpreter, 10 to 100,000 stubs.

For each synthetic family and size it writes a one-imposter config, builds a frozen mock with
`riftc compile` (timing it and measuring the binary), then has the mock time its own compiled
matcher and the interpreter of the same tree in-process (`BIN --match-bench`), on requests aimed
at the first, middle and last stubs and at no stub. Both tiers must pick the same stub for every
request, or the run fails. Prints a markdown table and writes bench/results/scale-<time>.json.

  python3 bench/scale.py --riftc build/bin/riftc                      # every family, every size
  python3 bench/scale.py --families exact --sizes 10,1000 --core 0    # a quick look
  python3 bench/scale.py --workload          # the 13 benchmark scenarios, compiled vs interpreter

Families (the shapes of issue 3's benchmark list):
  exact   GET /items/<i>                               equals {method, path}
  regex   GET /svc/<i>/items/<n>                       matches {path: "^/svc/<i>/items/\\d+$"}
  header  GET /route, X-Route-Id: route-<i>            equals {path, headers: {X-Route-Id}}
  body    POST /users, {"user": {"id": "<i>"}}         equals {method, path} + jsonpath $.user.id
Standard library only.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as serving  # noqa: E402  (the 13 scenarios of the serving benchmark)

FAMILIES = ("exact", "regex", "header", "body")
SIZES = (10, 100, 1_000, 10_000, 100_000)
PORT = 4800


def response(i):
    return [{"is": {"statusCode": 200, "body": f"stub {i}"}}]


def stub(family, i):
    if family == "exact":
        predicates = [{"equals": {"method": "GET", "path": f"/items/{i}"}}]
    elif family == "regex":
        predicates = [{"matches": {"path": f"^/svc/{i}/items/\\d+$"}}]
    elif family == "header":
        predicates = [{"equals": {"path": "/route", "headers": {"X-Route-Id": f"route-{i}"}}}]
    else:
        predicates = [{"equals": {"method": "POST", "path": "/users"}},
                      {"equals": {"body": str(i)}, "jsonpath": {"selector": "$.user.id"}}]
    return {"predicates": predicates, "responses": response(i)}


def request(family, i):
    """A request that matches stub i (i == -1: one that matches nothing)."""
    n = i if i >= 0 else 10**9
    if family == "exact":
        return {"method": "GET", "path": f"/items/{n}"}
    if family == "regex":
        return {"method": "GET", "path": f"/svc/{n}/items/42"}
    if family == "header":
        return {"method": "GET", "path": "/route", "headers": {"X-Route-Id": f"route-{n}"}}
    return {"method": "POST", "path": "/users", "headers": {"Content-Type": "application/json"},
            "body": json.dumps({"user": {"id": str(n)}, "note": "x" * 40})}


def targets(size):
    picks = {0, size // 4, size // 2, (3 * size) // 4, size - 1}
    return sorted(picks) + [-1]


def run_case(args, family, size, work):
    config = os.path.join(work, f"{family}-{size}.json")
    with open(config, "w") as f:
        json.dump({"imposters": [{"protocol": "http", "port": PORT, "name": f"{family}-{size}",
                                  "stubs": [stub(family, i) for i in range(size)]}]}, f)
    binary = os.path.join(work, f"{family}-{size}.mock")
    started = time.monotonic()
    build = subprocess.run([args.riftc, "compile", config, "-o", binary, "--jobs", "1"],
                           capture_output=True, text=True)
    compile_seconds = time.monotonic() - started
    if build.returncode != 0:
        sys.exit(f"riftc compile failed for {family}/{size}:\n{build.stderr}")

    requests = os.path.join(work, f"{family}-{size}.requests.json")
    wanted = targets(size)
    with open(requests, "w") as f:
        json.dump({"port": PORT, "requests": [request(family, i) for i in wanted]}, f)
    prefix = ["taskset", "-c", str(args.core)] if args.core is not None else []
    # The machine is shared and noisy: of several runs, keep each tier's fastest, which is the
    # one least disturbed by other work.
    report = None
    for _ in range(args.reps):
        bench = subprocess.run(prefix + [binary, "--match-bench", requests, "--iterations",
                                         str(args.iterations)], capture_output=True, text=True)
        if bench.returncode != 0:
            sys.exit(f"--match-bench failed for {family}/{size} (exit {bench.returncode}):\n"
                     f"{bench.stdout}{bench.stderr}")
        run = json.loads(bench.stdout)
        if report is None:
            report = run
        for tier in ("aot_ns_per_match", "interpreter_ns_per_match"):
            report[tier] = min(report[tier], run[tier])
    if report["matched"] != len(wanted) - 1:
        sys.exit(f"{family}/{size}: {report['matched']} of {len(wanted) - 1} requests matched")
    report.update(family=family, size=size, compile_seconds=round(compile_seconds, 2),
                  binary_bytes=os.path.getsize(binary))
    if not args.keep:
        for path in (config, binary, requests):
            os.remove(path)
    return report


def scenario_request(method, target, body, headers):
    parsed = urllib.parse.urlsplit(target)
    request = {"method": method, "path": parsed.path,
               "query": dict(urllib.parse.parse_qsl(parsed.query)), "headers": dict(headers)}
    if body is not None:
        request["body"] = body
    return request


def run_workload(args, work):
    """ns per match for each of the 13 serving scenarios, on one frozen build of the workload."""
    config = os.path.join(work, "benchmark.json")
    subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "fixture.py"),
                    "--config", config], check=True, capture_output=True)
    binary = os.path.join(work, "benchmark.mock")
    started = time.monotonic()
    build = subprocess.run([args.riftc, "compile", config, "-o", binary], capture_output=True,
                           text=True)
    if build.returncode != 0:
        sys.exit(f"riftc compile failed for the workload:\n{build.stderr}")
    print(f"workload: compiled in {time.monotonic() - started:.1f} s, "
          f"binary {os.path.getsize(binary) / 1e6:.1f} MB")
    prefix = ["taskset", "-c", str(args.core)] if args.core is not None else []
    rows = []
    for sid, method, port, target, body, headers, marker in serving.SCENARIOS:
        requests = os.path.join(work, f"{sid}.json")
        with open(requests, "w") as f:
            json.dump({"port": port, "requests": [scenario_request(method, target, body,
                                                                   headers)]}, f)
        best = None
        for _ in range(args.reps):
            bench = subprocess.run(prefix + [binary, "--match-bench", requests, "--iterations",
                                             str(args.iterations)], capture_output=True, text=True)
            if bench.returncode != 0:
                sys.exit(f"--match-bench failed for {sid}:\n{bench.stdout}{bench.stderr}")
            run = json.loads(bench.stdout)
            if best is None:
                best = run
            for tier in ("aot_ns_per_match", "interpreter_ns_per_match"):
                best[tier] = min(best[tier], run[tier])
        if best["matched"] != (0 if marker is None else 1):
            sys.exit(f"{sid}: matched {best['matched']} stubs")
        best["scenario"] = sid
        rows.append(best)
        print(f"{sid:18} aot {best['aot_ns_per_match']:8.1f} ns  interpreter "
              f"{best['interpreter_ns_per_match']:8.1f} ns", flush=True)
    print("\n| scenario | stubs | compiled ns/match | interpreter ns/match |\n|---|---:|---:|---:|")
    for row in rows:
        print(f"| {row['scenario']} | {row['stubs']} | {row['aot_ns_per_match']:.0f} | "
              f"{row['interpreter_ns_per_match']:.0f} |")
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--riftc", default="build/bin/riftc")
    ap.add_argument("--families", default=",".join(FAMILIES))
    ap.add_argument("--sizes", default=",".join(str(s) for s in SIZES))
    ap.add_argument("--iterations", type=int, default=20000,
                    help="rounds over the request set per tier (default 20000)")
    ap.add_argument("--reps", type=int, default=5, help="runs per case; the fastest counts")
    ap.add_argument("--core", default="0", help="pin the measuring process ('none': no pinning)")
    ap.add_argument("--keep", action="store_true", help="keep configs and binaries in --work")
    ap.add_argument("--work", help="working directory (default: a temporary one)")
    ap.add_argument("--workload", action="store_true",
                    help="measure the 13 serving scenarios instead of the synthetic families")
    args = ap.parse_args()
    args.core = None if args.core == "none" else args.core
    families = [f for f in args.families.split(",") if f]
    sizes = [int(s) for s in args.sizes.split(",") if s]
    for family in families:
        if family not in FAMILIES:
            sys.exit(f"unknown family {family}; choose from {', '.join(FAMILIES)}")

    work = args.work or tempfile.mkdtemp(prefix="rift-scale-")
    os.makedirs(work, exist_ok=True)
    if args.workload:
        rows = run_workload(args, work)
        os.makedirs("bench/results", exist_ok=True)
        out = os.path.join("bench/results", time.strftime("workload-%Y%m%d-%H%M%S.json"))
        with open(out, "w") as f:
            json.dump(rows, f, indent=2)
        print(f"\nwrote {out}")
        return
    rows = []
    for family in families:
        for size in sizes:
            row = run_case(args, family, size, work)
            rows.append(row)
            print(f"{family:6} {size:7d} stubs: aot {row['aot_ns_per_match']:8.1f} ns, "
                  f"interpreter {row['interpreter_ns_per_match']:8.1f} ns, compile "
                  f"{row['compile_seconds']:6.2f} s, binary {row['binary_bytes'] / 1e6:6.2f} MB",
                  flush=True)

    print("\n| family | stubs | compiled ns/match | interpreter ns/match | riftc compile s "
          "| binary MB |\n|---|---:|---:|---:|---:|---:|")
    for row in rows:
        print(f"| {row['family']} | {row['size']:,} | {row['aot_ns_per_match']:.0f} | "
              f"{row['interpreter_ns_per_match']:.0f} | {row['compile_seconds']:.1f} | "
              f"{row['binary_bytes'] / 1e6:.1f} |")
    print("\ngrowth of compiled ns/match, largest size over smallest:")
    for family in families:
        mine = [r for r in rows if r["family"] == family]
        if len(mine) >= 2:
            first, last = mine[0], mine[-1]
            print(f"  {family}: {last['aot_ns_per_match'] / first['aot_ns_per_match']:.2f}x "
                  f"({first['size']:,} -> {last['size']:,} stubs)")

    os.makedirs("bench/results", exist_ok=True)
    out = os.path.join("bench/results", time.strftime("scale-%Y%m%d-%H%M%S.json"))
    with open(out, "w") as f:
        json.dump(rows, f, indent=2)
    print(f"\nwrote {out}")


if __name__ == "__main__":
    main()
