#!/usr/bin/env python3
"""Replay the reference-Rift corpus against our Rift and compare with expected/.

    python3 tests/rift-diff/run.py --rift build/bin/rift            # every case
    python3 tests/rift-diff/run.py --rift build/bin/rift -k space_ -v
    python3 tests/rift-diff/run.py --rift build/bin/rift --http2 h2c   # over HTTP/2 (below)

Our Rift runs as `BIN start --port <base> --host 127.0.0.1 --nologfile [case flags]`.
Exit status: 0 when every case passes, 1 otherwise. The last line reads
`rift-diff: N passed, N failed`.
"""

import argparse
import os
import sys
import time

sys.dont_write_bytecode = True  # nothing written next to tests/diff/diffcore.py
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import riftdiff  # noqa: E402
import h2diff  # noqa: E402  (tests/diff/h2diff.py, on the path riftdiff set)


def main():
    ap = argparse.ArgumentParser(description=__doc__, epilog=h2diff.MODE_HELP,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rift", required=True, metavar="BIN", help="our rift binary")
    ap.add_argument("--base-port", type=int, default=24500, help="admin port; imposters use base+1..base+9")
    ap.add_argument("-k", action="append", dest="only", help="only cases whose name contains this (repeatable)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print PASS lines too")
    ap.add_argument("--http2", choices=h2diff.MODES, metavar="MODE",
                    help="send imposter requests over HTTP/2: h2c, h2c-upgrade or h2 (see below)")
    args = ap.parse_args()
    binary = os.path.abspath(args.rift)
    cases = riftdiff.load_cases(args.only)
    if not cases:
        print("no cases selected")
        return 2
    results = {"pass": [], "fail": []}
    t0 = time.time()
    selected = len(cases)
    cases, skips, sender = h2diff.prepare(args.http2, cases, riftdiff.EXPECTED_DIR)

    def on_result(case, record, error):
        expected = riftdiff.diffcore.committed_expectation(
            case, error, results, riftdiff.EXPECTED_DIR, riftdiff.capture_hint(case))
        if expected is not None:
            if args.http2:
                riftdiff.judge(h2diff.normalize_case(case), h2diff.normalize(expected),
                               h2diff.normalize(record), results, args.verbose)
            else:
                riftdiff.judge(case, expected, record, results, args.verbose)
        sys.stdout.flush()

    riftdiff.run_corpus(lambda port, flags: riftdiff.OurServer(binary, port, flags),
                        cases, args.base_port, on_result, send_imposter=sender)
    if args.http2:
        skips.report(args.http2, sender)
    status = riftdiff.diffcore.exit_status(results)
    if args.http2:
        print("rift-diff: %d passed, %d failed, %d skipped over HTTP/2 %s (%d cases, %.1fs)" % (
            len(results["pass"]), len(results["fail"]), skips.total(), args.http2, selected,
            time.time() - t0))
        return status
    print("rift-diff: %d passed, %d failed (%d cases, %.1fs)" % (
        len(results["pass"]), len(results["fail"]), len(cases), time.time() - t0))
    return status


if __name__ == "__main__":
    sys.exit(main())
