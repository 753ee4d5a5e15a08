#!/usr/bin/env python3
"""Replay the reference-Rift corpus against frozen mocks (`riftc compile`), compare with expected/.

    python3 tests/rift-diff/run_frozen.py --riftc build/bin/riftc          # every eligible case
    python3 tests/rift-diff/run_frozen.py --riftc BIN -k tpl_ -k fault_ -v # subsets, PASS/SKIP

tests/diff/run_frozen.py's replay (tests/diff/frozencore.py, imported, not copied) for this
corpus: a case that first creates imposters and then only sends requests to them, connects,
sleeps or reads the admin API has its imposters compiled into one frozen mock, which gets the
remaining steps; the creations' admin answers are not compared (a frozen mock never creates).
A creation counts as accepted as run.py judges it: by the reference's status, unless a `differs`
rule documents Rift's own (`ours.status`): a creation Rift refuses on purpose is skipped, a
lenient form Rift accepts is built. Everything else runs as in run.py: the case is sent as
riftdiff.prepare makes it (imposters on 127.0.0.1, so the mock's imposters bind there too), the
mock starts as `BIN start --port <admin> --host 127.0.0.1 --nologfile [case flags]`, and the
records are normalized and judged (the case's `differs` rules) by riftdiff. Other cases are
skipped and counted by reason. Admin port 26000 by default (run.py uses 24500).

Exit status: 0 when every eligible case passes, 1 otherwise. The summary line reads
`rift-diff frozen mocks: N passed, N failed, N skipped (...)`.
"""

import os
import sys

sys.dont_write_bytecode = True  # nothing written next to tests/diff/*.py
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import riftdiff  # noqa: E402  (puts tests/diff on the path)
import frozencore  # noqa: E402  (tests/diff/frozencore.py)


class RiftDiffCorpus(frozencore.Corpus):
    """This corpus: the reference Rift's answers, riftdiff's servers, normalizations and
    `differs` rules."""

    summary = "rift-diff frozen mocks"
    reference = "the reference Rift"
    expected_dir = riftdiff.EXPECTED_DIR
    default_base_port = 26000  # run.py 24500, capture.py 24000, tests/diff/run_frozen.py 23000

    def load_cases(self, only):
        return riftdiff.load_cases(only)

    def creation_refused(self, case, idx, expected_step):
        # Judged as run.py judges the step: a documented difference (an `ours` status) replaces
        # the reference's answer, so a creation Rift refuses on purpose leaves nothing to build,
        # and a lenient form Rift accepts (the reference refuses it) is built.
        status = riftdiff.documented_status(case, idx)
        if status is None:
            return super().creation_refused(case, idx, expected_step)
        if status not in (200, 201):
            return "a creation Rift refuses on purpose, as documented"
        return None

    def capture_hint(self, case):
        return riftdiff.capture_hint(case)

    def prepare(self, case):
        return riftdiff.prepare(case)

    def server(self, binary, admin_port, flags):
        # As run.py: the case's flags only (this corpus compares Rift's own framing).
        return riftdiff.OurServer(binary, admin_port, flags)

    def finish(self, case, record):
        return riftdiff.normalize_record(case, record)

    def judge(self, case, expected, record, results, verbose):
        riftdiff.judge(case, expected, record, results, verbose)


if __name__ == "__main__":
    sys.exit(frozencore.main(RiftDiffCorpus(), __doc__))
