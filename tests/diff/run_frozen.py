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

The rules live in frozencore.py, shared with tests/rift-diff/run_frozen.py (the same replay for
the reference Rift's corpus); this corpus is frozencore.Corpus itself (Mountebank's answers,
diffcore.judge, mocks started with diffcore.RIFT_ARGS, admin port 23000).

Exit status: 0 when every eligible case passes, 1 otherwise.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import frozencore  # noqa: E402


if __name__ == "__main__":
    sys.exit(frozencore.main(frozencore.Corpus(), __doc__))
