#!/usr/bin/env python3
"""Replay the differential corpus against frozen mocks (`riftc compile`) and compare with expected/.

    python3 tests/diff/run_frozen.py --riftc build/bin/riftc       # every eligible case (~2 min)
    python3 tests/diff/run_frozen.py --riftc BIN -k pred_ -v       # subset by name, show PASS/SKIP

A case is eligible when it first creates imposters (POST /imposters, PUT /imposters; Mountebank
accepted them) and afterwards only sends requests to them, connects, sleeps or reads the admin API.
Its imposters become the config of one frozen mock (each case its own binary: every case uses the
same ports), which is started as `BIN start --port <admin> [case flags]` and gets the remaining
steps. The admin responses of the creation steps are not compared (a frozen mock never creates);
everything else is compared with expected/ exactly as run.py does. A mock that falls back to the
interpreter for an imposter fails its case. Cases with other admin writes, failed creations
(validation cases) or OS-assigned ports are skipped and counted by reason.

Exit status: 0 when every eligible case passes, 1 otherwise.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import diffcore  # noqa: E402

CREATE = {("POST", "/imposters"), ("PUT", "/imposters")}
FALLBACK = "falls back to the interpreter"  # frozen_main.cpp's warning when a module does not fit


def expected_of(case):
    path = os.path.join(diffcore.EXPECTED_DIR, case["name"] + ".json")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def creation_body(admin, ports):
    """The JSON a creation step sends (a raw-text body parsed after substitution), or None."""
    body = admin.get("body")
    if isinstance(body, str):
        try:
            return json.loads(ports.subst_text(body))
        except ValueError:
            return None
    return ports.subst_json(body)


def classify(case, expected):
    """(indexes of the creation steps, None) for an eligible case, else (None, skip reason)."""
    creation = []
    steps = case["steps"]
    expected_steps = {s["step"]: s for s in expected["steps"]}
    for idx, step in enumerate(steps):
        admin = step.get("admin")
        call = (admin.get("method", "GET"), admin.get("path", "/")) if admin else None
        if call in CREATE:
            if len(creation) != idx:
                return None, "creates imposters after other steps"
            if expected_steps.get(idx, {}).get("status") not in (200, 201):
                return None, "a creation Mountebank refuses (validation case)"
            body = creation_body(admin, diffcore.Ports(0))
            if not isinstance(body, dict):
                return None, "a creation body that is not a JSON object"
            imposters = body.get("imposters", []) if call[0] == "PUT" else [body]
            if any(not isinstance(i, dict) or "port" not in i for i in imposters):
                return None, "an imposter without a fixed port"
            creation.append(idx)
        elif admin and call[0] not in ("GET", "HEAD", "OPTIONS"):
            return None, "other admin writes (%s)" % call[0]
        elif "wire" in step and step["wire"].get("port") == "${ADMIN}":
            method = step["wire"]["text"].split(" ", 1)[0]
            if method not in ("GET", "HEAD", "OPTIONS", "CONNECT"):
                return None, "other admin writes (%s)" % method
    if not creation:
        return None, "creates no imposter"
    return creation, None


def records_proxies(case):
    """Whether a proxy in the case records: its stub list then changes at run time, and a frozen
    mock serves the edited list with the interpreter (the compiled module no longer fits)."""
    found = []

    def walk(value):
        if isinstance(value, dict):
            proxy = value.get("proxy")
            if isinstance(proxy, dict) and proxy.get("mode") != "proxyTransparent":
                found.append(proxy)
            for sub in value.values():
                walk(sub)
        elif isinstance(value, list):
            for sub in value:
                walk(sub)

    walk(case["steps"])
    return bool(found)


def config_of(case, creation, ports):
    """The imposters the creation steps leave behind, ports substituted: POST adds, PUT replaces."""
    imposters = []
    for idx in creation:
        admin = case["steps"][idx]["admin"]
        body = creation_body(admin, ports)
        if admin.get("method") == "PUT":
            imposters = list(body.get("imposters", []))
        else:
            imposters.append(body)
    return {"imposters": imposters}


def compile_case(riftc, case, creation, work, base_port):
    """Builds the case's frozen mock; returns (binary or None, error text, seconds)."""
    started = time.time()
    case_dir = os.path.join(work, case["name"])
    os.makedirs(case_dir, exist_ok=True)
    config = os.path.join(case_dir, "config.json")
    with open(config, "w", encoding="utf-8") as f:
        json.dump(config_of(case, creation, diffcore.Ports(base_port)), f, indent=2)
    binary = os.path.join(case_dir, "mock")
    try:
        result = subprocess.run([riftc, "compile", config, "-o", binary, "--jobs", "1"],
                                capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return None, "riftc compile timed out", time.time() - started
    output = result.stdout + result.stderr
    if any(marker in output for marker in diffcore.REPORT_MARKERS):
        diffcore.SERVER_REPORTS.append("riftc compile %s:\n%s" % (case["name"], output[-6000:]))
    if result.returncode != 0:
        return None, "riftc compile exited %d:\n%s" % (result.returncode, output[-3000:]), \
            time.time() - started
    return binary, None, time.time() - started


def replay(binary, case, creation, base_port):
    """Starts the mock, replays every step but the creations; returns the record."""
    server = diffcore.Server(binary, base_port, case.get("server_args", []) + diffcore.RIFT_ARGS)
    try:
        server.start()
        records = diffcore.run_case(case, server, diffcore.Ports(base_port), skip=set(creation))
        if not server.alive():
            raise RuntimeError("the mock exited (rc=%s); output tail:\n%s" % (
                server.proc.returncode, server.output_tail(1500)))
        output = server.output_tail(1 << 20)
        if FALLBACK in output and not records_proxies(case):
            raise RuntimeError("the mock did not use its compiled matchers:\n" + output[-1500:])
        return {"name": case["name"], "steps": records}
    finally:
        server.stop()


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--riftc", required=True, metavar="BIN", help="the riftc that builds the mocks")
    ap.add_argument("--base-port", type=int, default=23000,
                    help="admin port; imposters use base+1..base+9 (default 23000)")
    ap.add_argument("-k", action="append", dest="only",
                    help="only cases whose name contains this (repeatable)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2,
                    help="riftc compiles in parallel (each with --jobs 1; default: cores)")
    ap.add_argument("--keep", metavar="DIR", help="build the mocks in DIR and keep them")
    ap.add_argument("-v", "--verbose", action="store_true", help="print PASS and SKIP lines too")
    args = ap.parse_args()

    riftc = os.path.abspath(args.riftc)
    cases = diffcore.load_cases(only=args.only)
    if not cases:
        print("no cases selected")
        return 2
    t0 = time.time()
    results = {"pass": [], "fail": []}
    skipped = collections.Counter()
    eligible = []
    for case in cases:
        expected = expected_of(case)
        if expected is None:
            results["fail"].append(case["name"])
            print("FAIL %s\n  no expectation: run capture.py" % case["name"])
            continue
        creation, reason = classify(case, expected)
        if reason:
            skipped[reason] += 1
            if args.verbose:
                print("SKIP %s (%s)" % (case["name"], reason))
            continue
        eligible.append((case, expected, creation))

    work = os.path.abspath(args.keep) if args.keep else tempfile.mkdtemp(prefix="riftfrozen-")
    os.makedirs(work, exist_ok=True)
    compile_seconds = 0.0
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            # Compile ahead of the replay, at most 2 x jobs binaries on disk at a time.
            pending = collections.deque()
            queue = collections.deque(eligible)
            while queue or pending:
                while queue and len(pending) < 2 * max(1, args.jobs):
                    case, expected, creation = queue.popleft()
                    future = pool.submit(compile_case, riftc, case, creation, work, args.base_port)
                    pending.append((case, expected, creation, future))
                case, expected, creation, future = pending.popleft()
                name = case["name"]
                binary, error, seconds = future.result()
                compile_seconds += seconds
                if binary:
                    try:
                        record = replay(binary, case, creation, args.base_port)
                    except (diffcore.CaseError, RuntimeError, OSError) as e:
                        error = "%s: %s" % (type(e).__name__, e)
                    if not args.keep:
                        shutil.rmtree(os.path.join(work, name), ignore_errors=True)
                if error:
                    results["fail"].append(name)
                    print("FAIL %s\n  %s" % (name, error))
                    sys.stdout.flush()
                    continue
                compared = {"name": name,
                            "steps": [s for s in expected["steps"] if s["step"] not in creation]}
                diffcore.judge(case, compared, record, results, args.verbose)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    print("\nfrozen mocks: %d passed, %d failed, %d skipped (%d cases, %.1fs; riftc compile: %.1fs "
          "summed over %d parallel jobs)" % (len(results["pass"]), len(results["fail"]),
                                             sum(skipped.values()), len(cases), time.time() - t0,
                                             compile_seconds, max(1, args.jobs)))
    for reason, count in sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0])):
        print("  skipped %3d: %s" % (count, reason))
    return diffcore.exit_status(results)


if __name__ == "__main__":
    sys.exit(main())
