#!/usr/bin/env python3
"""Record expected/ from a reference Rift binary (never fetched or built here).

    python3 tests/rift-diff/capture.py --reference /path/to/rift-http-proxy
    python3 tests/rift-diff/capture.py --reference BIN -k space_      # only these cases
    python3 tests/rift-diff/capture.py --reference BIN --check        # exit 1 if expected/ is stale

The binary runs as `BIN --port <base> --host 127.0.0.1 --allow-injection --nologfile
--metrics-port <base+8>` (base+8 is held on 127.0.0.1 so its 0.0.0.0 metrics listener fails).
"""

import argparse
import os
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written next to tests/diff/diffcore.py
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import riftdiff  # noqa: E402


def capture(binary, cases, out_dir, base_port):
    problems = []

    def on_result(case, record, error):
        if error:
            problems.append(case["name"])
            print("ERROR %s: %s" % (case["name"], error))
            return
        for step in record["steps"]:
            if "error" in step:  # kept: e.g. a reference that closes without answering
                print("NOTE %s step %d: %s" % (case["name"], step["step"], step["error"]))
        with open(os.path.join(out_dir, case["name"] + ".json"), "w", encoding="utf-8") as f:
            f.write(riftdiff.dumps(record))

    riftdiff.run_corpus(lambda port, args: riftdiff.RefServer(binary, port, args),
                        cases, base_port, on_result)
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reference", required=True, metavar="BIN", help="the reference rift-http-proxy binary")
    ap.add_argument("--check", action="store_true", help="capture into a temp dir and compare with expected/")
    ap.add_argument("--base-port", type=int, default=24000, help="admin port; imposters use base+1..base+9")
    ap.add_argument("-k", action="append", dest="only", help="only cases whose name contains this (repeatable)")
    args = ap.parse_args()
    binary = os.path.abspath(args.reference)
    if not os.access(binary, os.X_OK):
        print("not an executable: %s" % binary)
        return 2
    cases = riftdiff.load_cases(args.only)
    if not cases:
        print("no cases selected")
        return 2
    if not args.check:
        os.makedirs(riftdiff.EXPECTED_DIR, exist_ok=True)
        problems = capture(binary, cases, riftdiff.EXPECTED_DIR, args.base_port)
        print("captured %d cases into %s (%d errors)" % (len(cases) - len(problems), riftdiff.EXPECTED_DIR,
                                                          len(problems)))
        return 1 if problems else 0
    tmp = tempfile.mkdtemp(prefix="riftdiff-check-")
    try:
        capture(binary, cases, tmp, args.base_port)
        return riftdiff.diffcore.stale_report(cases, tmp, riftdiff.EXPECTED_DIR, args.only)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
