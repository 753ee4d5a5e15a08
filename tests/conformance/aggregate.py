#!/usr/bin/env python3
"""Sums the conformance lanes' result files (tests/conformance/README.md#results).

Prints `conformance: N passed, N failed, N skipped` per lane and in all. Fails when a step
failed, when a lane named by --expect wrote no file, or when a lane passed nothing (an
all-skipped lane proves nothing)."""

import argparse
import json
import pathlib
import sys


def read_lane(path):
    counts = {"pass": 0, "fail": 0, "skip": 0}
    failures = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            outcome = record["outcome"]
        except (ValueError, KeyError, TypeError) as error:
            counts["fail"] += 1
            failures.append(f"line {number}: not a result line ({error})")
            continue
        if outcome not in counts:
            counts["fail"] += 1
            failures.append(f"line {number}: unknown outcome {outcome!r}")
            continue
        counts[outcome] += 1
        if outcome == "fail":
            where = f"{record.get('corpus')}/{record.get('fixture')} stub {record.get('stub')} step {record.get('step')}"
            failures.append(f"{where}: {record.get('reason', '')}")
    return counts, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results", required=True, help="the folder of <client>-<transport>-<tier>.jsonl files")
    parser.add_argument("--expect", nargs="*", default=[], metavar="CLIENT:TRANSPORT:TIER",
                        help="lanes that must be there")
    args = parser.parse_args()

    folder = pathlib.Path(args.results)
    files = sorted(folder.glob("*.jsonl")) if folder.is_dir() else []
    lanes = {path.stem: path for path in files}
    problems = []
    total = {"pass": 0, "fail": 0, "skip": 0}
    for lane, path in lanes.items():
        counts, failures = read_lane(path)
        for key in total:
            total[key] += counts[key]
        print(f"{lane}: conformance: {counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped")
        for failure in failures:
            print(f"  FAIL {failure}")
        if counts["fail"]:
            problems.append(f"{lane}: {counts['fail']} failed")
        if counts["pass"] == 0:
            problems.append(f"{lane}: nothing passed")
    for expected in args.expect:
        if expected.replace(":", "-") not in lanes:
            problems.append(f"{expected}: no result file in {folder}")
    print(f"all lanes ({len(lanes)}): conformance: {total['pass']} passed, {total['fail']} failed, {total['skip']} skipped")
    for problem in problems:
        print(f"conformance: {problem}", file=sys.stderr)
    return 1 if problems or not lanes else 0


if __name__ == "__main__":
    sys.exit(main())
