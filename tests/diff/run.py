#!/usr/bin/env python3
"""Replay the differential corpus against Rift (or Mountebank) and compare with expected/.

    python3 tests/diff/run.py --rift build/rift      # BIN start --port <admin> [case flags]
    python3 tests/diff/run.py --mb                   # sanity: live Mountebank must pass too
    python3 tests/diff/run.py --rift BIN -k stub_ -v # subset, show passing cases too
    python3 tests/diff/run.py --rift BIN --http2 h2c # imposter requests over HTTP/2 (below)

Exit status: 0 when every case passes, 1 otherwise.
"""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import diffcore  # noqa: E402
import h2diff  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, epilog=h2diff.MODE_HELP,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    who = ap.add_mutually_exclusive_group(required=True)
    who.add_argument("--rift", metavar="BIN", help="Rift binary (called as BIN start --port P [flags])")
    who.add_argument("--mb", nargs="?", const=diffcore.default_mb_bin(), metavar="MB_BIN",
                     help="run against live Mountebank (default: $MB_BIN or the pinned install)")
    ap.add_argument("--base-port", type=int, default=22000, help="admin port; imposters use base+1..base+9")
    ap.add_argument("-k", action="append", dest="only", help="only cases whose name contains this (repeatable)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print PASS lines too")
    ap.add_argument("--http2", choices=h2diff.MODES, metavar="MODE",
                    help="send imposter requests over HTTP/2: h2c, h2c-upgrade or h2 (see below)")
    args = ap.parse_args()

    binary = args.rift or args.mb
    cases = diffcore.load_cases(only=args.only)
    if not cases:
        print("no cases selected")
        return 2
    results = {"pass": [], "fail": []}
    t0 = time.time()
    selected = len(cases)
    cases, skips, sender = h2diff.prepare(args.http2, cases, diffcore.EXPECTED_DIR)

    def on_result(case, record, error):
        expected = diffcore.committed_expectation(case, error, results, diffcore.EXPECTED_DIR,
                                                  "run capture.py")
        if expected is None:
            return
        if args.http2:
            expected, record = h2diff.normalize(expected), h2diff.normalize(record)
        diffcore.judge(case, expected, record, results, args.verbose)

    diffcore.run_corpus(binary, cases, args.base_port, on_result,
                        extra_args=diffcore.RIFT_ARGS if args.rift else (), send_imposter=sender)
    if args.http2:
        skips.report(args.http2, sender)
        print("\n%d passed, %d failed, %d skipped over HTTP/2 %s (%d cases, %.1fs)" % (
            len(results["pass"]), len(results["fail"]), skips.total(), args.http2, selected,
            time.time() - t0))
        return diffcore.exit_status(results)
    print("\n%d passed, %d failed (%d cases, %.1fs)" % (
        len(results["pass"]), len(results["fail"]), len(cases), time.time() - t0))
    return diffcore.exit_status(results)


if __name__ == "__main__":
    sys.exit(main())
