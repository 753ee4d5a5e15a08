"""Shared machinery for replaying a differential corpus against frozen mocks (`riftc compile`).

Python 3 standard library only. Used by tests/diff/run_frozen.py (the Mountebank corpus) and
tests/rift-diff/run_frozen.py (the reference Rift's corpus): which cases qualify, the config a
case's creations leave behind, the compile, the replay, and the loop that compiles ahead of the
replay in parallel are written once, here. What differs between the corpora is a `Corpus`: how
its cases are loaded, where its expectations live, how a case is prepared before it is sent,
which server runs a mock, how a record is normalized and how it is judged. `Corpus` itself is
the Mountebank corpus; tests/rift-diff subclasses it.

See tests/diff/README.md ("Frozen mocks") for the rules.
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
# Imposter protocols whose cases are skipped: a frozen mock is built from the imposters config and
# serves http, https and tcp; smtp is left out until riftc builds it. One set, to change in one place.
FROZEN_SKIP_PROTOCOLS = {"smtp"}
FALLBACK = "falls back to the interpreter"  # frozen_main.cpp's warning when a module does not fit


class Corpus:
    """What a frozen-mock runner needs to know about its corpus; this one is tests/diff, whose
    expectations are Mountebank's answers. Another corpus overrides what differs."""

    summary = "frozen mocks"  # how the summary line starts
    reference = "Mountebank"  # who answered expected/: a creation it refused is a validation case
    expected_dir = diffcore.EXPECTED_DIR
    default_base_port = 23000

    def load_cases(self, only):
        return diffcore.load_cases(only=only)

    def creation_refused(self, case, idx, expected_step):
        """Why creation step `idx` leaves nothing to build (the case expects it refused), or
        None: here, when Mountebank refused it."""
        if expected_step.get("status") not in (200, 201):
            return "a creation %s refuses (validation case)" % self.reference
        return None

    def capture_hint(self, case):
        """How to record a missing expectation."""
        return "run capture.py"

    def prepare(self, case):
        """The case as sent: its creation steps are the mock's config, the others are replayed."""
        return case

    def server(self, binary, admin_port, flags):
        """The mock's process, given the case's server_args: Rift keeps connections alive by
        default, and this corpus compares Mountebank's framing (diffcore.RIFT_ARGS)."""
        return diffcore.Server(binary, admin_port, list(flags) + diffcore.RIFT_ARGS)

    def finish(self, case, record):
        """The record diffcore.run_case made from the prepared case, normalized for comparison."""
        return record

    def judge(self, case, expected, record, results, verbose):
        """Prints FAIL and the diff (or PASS when verbose); appends to results."""
        diffcore.judge(case, expected, record, results, verbose)


def expected_of(case, expected_dir=diffcore.EXPECTED_DIR):
    path = os.path.join(expected_dir, case["name"] + ".json")
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


def classify(case, expected, corpus=None):
    """(indexes of the creation steps, None) for an eligible case, else (None, skip reason).
    `corpus` says which creations the case expects refused (default: the Mountebank corpus)."""
    corpus = corpus or Corpus()
    creation = []
    steps = case["steps"]
    expected_steps = {s["step"]: s for s in expected["steps"]}
    for idx, step in enumerate(steps):
        admin = step.get("admin")
        call = (admin.get("method", "GET"), admin.get("path", "/")) if admin else None
        if call in CREATE:
            if len(creation) != idx:
                return None, "creates imposters after other steps"
            refused = corpus.creation_refused(case, idx, expected_steps.get(idx, {}))
            if refused:
                return None, refused
            body = creation_body(admin, diffcore.Ports(0))
            if not isinstance(body, dict):
                return None, "a creation body that is not a JSON object"
            imposters = body.get("imposters", []) if call[0] == "PUT" else [body]
            if any(not isinstance(i, dict) or "port" not in i for i in imposters):
                return None, "an imposter without a fixed port"
            skipped = sorted({i.get("protocol") for i in imposters} & FROZEN_SKIP_PROTOCOLS)
            if skipped:
                return None, "a %s imposter (FROZEN_SKIP_PROTOCOLS)" % "/".join(skipped)
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
    """Builds the frozen mock of a case as sent; returns (binary or None, error text, seconds)."""
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


def replay(binary, case, sent, creation, base_port, corpus):
    """Starts the mock, replays every step of `sent` (the case as prepared) but the creations;
    returns the record, normalized by the corpus."""
    server = corpus.server(binary, base_port, case.get("server_args", []))
    try:
        server.start()
        records = diffcore.run_case(sent, server, diffcore.Ports(base_port), skip=set(creation))
        if not server.alive():
            raise RuntimeError("the mock exited (rc=%s); output tail:\n%s" % (
                server.proc.returncode, server.output_tail(1500)))
        output = server.output_tail(1 << 20)
        if FALLBACK in output and not records_proxies(case):
            raise RuntimeError("the mock did not use its compiled matchers:\n" + output[-1500:])
        return corpus.finish(case, {"name": case["name"], "steps": records})
    finally:
        server.stop()


def run(corpus, riftc, only=None, base_port=None, jobs=2, keep=None, verbose=False):
    """Classifies the corpus's cases, compiles the eligible ones `jobs` at a time (at most
    2 x jobs binaries ahead of the replay), replays and judges each, and prints the summary with
    the skips counted by reason. Returns the exit status (0 when every eligible case passes)."""
    riftc = os.path.abspath(riftc)
    base_port = corpus.default_base_port if base_port is None else base_port
    jobs = max(1, jobs)
    cases = corpus.load_cases(only)
    if not cases:
        print("no cases selected")
        return 2
    t0 = time.time()
    results = {"pass": [], "fail": []}
    skipped = collections.Counter()
    eligible = []
    for case in cases:
        expected = expected_of(case, corpus.expected_dir)
        if expected is None:
            results["fail"].append(case["name"])
            print("FAIL %s\n  no expectation: %s" % (case["name"], corpus.capture_hint(case)))
            continue
        sent = corpus.prepare(case)
        creation, reason = classify(sent, expected, corpus)
        if reason:
            skipped[reason] += 1
            if verbose:
                print("SKIP %s (%s)" % (case["name"], reason))
            continue
        eligible.append((case, sent, expected, creation))

    work = os.path.abspath(keep) if keep else tempfile.mkdtemp(prefix="riftfrozen-")
    os.makedirs(work, exist_ok=True)
    compile_seconds = 0.0
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            # Compile ahead of the replay, at most 2 x jobs binaries on disk at a time.
            pending = collections.deque()
            queue = collections.deque(eligible)
            while queue or pending:
                while queue and len(pending) < 2 * jobs:
                    case, sent, expected, creation = queue.popleft()
                    future = pool.submit(compile_case, riftc, sent, creation, work, base_port)
                    pending.append((case, sent, expected, creation, future))
                case, sent, expected, creation, future = pending.popleft()
                name = case["name"]
                binary, error, seconds = future.result()
                compile_seconds += seconds
                if binary:
                    try:
                        record = replay(binary, case, sent, creation, base_port, corpus)
                    except (diffcore.CaseError, RuntimeError, OSError) as e:
                        error = "%s: %s" % (type(e).__name__, e)
                    if not keep:
                        shutil.rmtree(os.path.join(work, name), ignore_errors=True)
                if error:
                    results["fail"].append(name)
                    print("FAIL %s\n  %s" % (name, error))
                    sys.stdout.flush()
                    continue
                # The creations' admin answers are not compared: a frozen mock never creates.
                compared = {"name": name,
                            "steps": [s for s in expected["steps"] if s["step"] not in creation]}
                corpus.judge(case, compared, record, results, verbose)
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)

    print("\n%s: %d passed, %d failed, %d skipped (%d cases, %.1fs; riftc compile: %.1fs "
          "summed over %d parallel jobs)" % (corpus.summary, len(results["pass"]),
                                             len(results["fail"]), sum(skipped.values()),
                                             len(cases), time.time() - t0, compile_seconds, jobs))
    for reason, count in sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0])):
        print("  skipped %3d: %s" % (count, reason))
    return diffcore.exit_status(results)


def main(corpus, doc):
    """The command line both runners share; `doc` is the runner's docstring (its --help)."""
    ap = argparse.ArgumentParser(description=doc,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--riftc", required=True, metavar="BIN", help="the riftc that builds the mocks")
    ap.add_argument("--base-port", type=int, default=corpus.default_base_port,
                    help="admin port; imposters use base+1..base+9 (default %d)"
                    % corpus.default_base_port)
    ap.add_argument("-k", action="append", dest="only",
                    help="only cases whose name contains this (repeatable)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2,
                    help="riftc compiles in parallel (each with --jobs 1; default: cores)")
    ap.add_argument("--keep", metavar="DIR", help="build the mocks in DIR and keep them")
    ap.add_argument("-v", "--verbose", action="store_true", help="print PASS and SKIP lines too")
    args = ap.parse_args()
    return run(corpus, args.riftc, only=args.only, base_port=args.base_port, jobs=args.jobs,
               keep=args.keep, verbose=args.verbose)
