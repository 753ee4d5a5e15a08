#!/usr/bin/env python3
"""Replay the reference-Rift corpus against our Rift and compare with expected/.

    python3 tests/rift-diff/run.py --rift build/bin/rift            # every case
    python3 tests/rift-diff/run.py --rift build/bin/rift -k space_ -v

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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rift", required=True, metavar="BIN", help="our rift binary")
    ap.add_argument("--base-port", type=int, default=24500, help="admin port; imposters use base+1..base+9")
    ap.add_argument("-k", action="append", dest="only", help="only cases whose name contains this (repeatable)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print PASS lines too")
    args = ap.parse_args()
    binary = os.path.abspath(args.rift)
    cases = riftdiff.load_cases(args.only)
    if not cases:
        print("no cases selected")
        return 2
    results = {"pass": [], "fail": []}
    t0 = time.time()

    def on_result(case, record, error):
        expected = riftdiff.diffcore.committed_expectation(
            case, error, results, riftdiff.EXPECTED_DIR, riftdiff.capture_hint(case))
        if expected is not None:
            riftdiff.judge(case, expected, record, results, args.verbose)
        sys.stdout.flush()

    riftdiff.run_corpus(lambda port, flags: riftdiff.OurServer(binary, port, flags),
                        cases, args.base_port, on_result)
    status = riftdiff.diffcore.exit_status(results)
    print("rift-diff: %d passed, %d failed (%d cases, %.1fs)" % (
        len(results["pass"]), len(results["fail"]), len(cases), time.time() - t0))
    return status


if __name__ == "__main__":
    sys.exit(main())
