#!/usr/bin/env python3
"""Record expectations for the differential corpus from live Mountebank.

    python3 tests/diff/capture.py                # (re)write expected/*.json
    python3 tests/diff/capture.py --check        # exit 1 if committed expectations are stale
    python3 tests/diff/capture.py -k name_part   # only cases whose name contains name_part

Mountebank binary: $MB_BIN, else tests/diff/node_modules/.bin/mb, else
/opt/mb/node_modules/.bin/mb.
"""

import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import diffcore  # noqa: E402


def capture(binary, cases, out_dir, base_port):
    failures = []

    def on_result(case, record, error):
        if error:
            failures.append((case["name"], error))
            print("ERROR %s: %s" % (case["name"], error))
            return
        for step in record["steps"]:
            if "error" in step:
                failures.append((case["name"], "step %d: %s" % (step["step"], step["error"])))
                print("ERROR %s step %d: %s" % (case["name"], step["step"], step["error"]))
        with open(os.path.join(out_dir, case["name"] + ".json"), "w", encoding="utf-8") as f:
            f.write(diffcore.dumps(record))

    diffcore.run_corpus(binary, cases, base_port, on_result)
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="re-capture into a temp dir and compare with expected/")
    ap.add_argument("--mb", default=diffcore.default_mb_bin(), help="Mountebank binary")
    ap.add_argument("--base-port", type=int, default=21000, help="admin port; imposters use base+1..base+9")
    ap.add_argument("-k", action="append", dest="only", help="only cases whose name contains this (repeatable)")
    args = ap.parse_args()

    cases = diffcore.load_cases(only=args.only)
    if not cases:
        print("no cases selected")
        return 2

    if not args.check:
        os.makedirs(diffcore.EXPECTED_DIR, exist_ok=True)
        failures = capture(args.mb, cases, diffcore.EXPECTED_DIR, args.base_port)
        print("captured %d cases into %s (%d with errors)" % (len(cases), diffcore.EXPECTED_DIR, len(failures)))
        return 1 if failures else 0

    tmp = tempfile.mkdtemp(prefix="riftdiff-check-")
    try:
        capture(args.mb, cases, tmp, args.base_port)
        return diffcore.stale_report(cases, tmp, diffcore.EXPECTED_DIR, args.only)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
