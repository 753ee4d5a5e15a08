#!/usr/bin/env bash
# Python SDK CI: pinned tools in .venv, the wheel (carrying librift), a fresh-venv import check,
# then every test, the three conformance lanes included.
# Environment: RIFT_LIB, RIFT_BIN, RIFT_RESULTS, RIFT_ABI_JSON (defaults: this checkout's).
set -euo pipefail
start_ns=$(date +%s%N)
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$here"

source "$here/../ci-env.sh"
PYTHON="${PYTHON:-python3.11}"
command -v "$PYTHON" >/dev/null || PYTHON=python3

echo "== tools (.venv, requirements-lock.txt)"
rm -rf .venv dist .venv-wheelcheck
"$PYTHON" -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check --no-cache-dir -r requirements-lock.txt

echo "== wheel (librift from $RIFT_LIB)"
# The wheel carries librift without its debug info (about 220 MB of it).
stripped_dir=$(mktemp -d)
trap 'rm -rf "$stripped_dir"' EXIT
strip --strip-debug -o "$stripped_dir/librift.so.1" "$RIFT_LIB"
RIFT_LIB="$stripped_dir/librift.so.1" .venv/bin/python -m build --wheel --no-isolation --outdir dist . >dist.log 2>&1 \
  || { cat dist.log; exit 1; }
rm -f dist.log
wheel=$(ls dist/rift_sdk-*.whl)
echo "built $wheel ($(du -h "$wheel" | cut -f1))"

echo "== fresh venv: install the wheel, import it once with no RIFT_LIB"
"$PYTHON" -m venv .venv-wheelcheck
.venv-wheelcheck/bin/pip install --quiet --disable-pip-version-check --no-cache-dir --no-deps "$wheel"
(cd / && env -u RIFT_LIB "$here/.venv-wheelcheck/bin/python" -c '
import rift, rift._ffi as ffi
lib = ffi.locate_library()
assert "/site-packages/rift/_native/" in str(lib), lib
with rift.Rift.embedded() as r:
    imp = r.create(rift.imposter().stub(rift.on_get("/").will_return(rift.ok("packaged"))))
    assert imp.get("/").text == "packaged"
print("import ok:", rift.__version__, lib)
')
rm -rf .venv-wheelcheck

echo "== tests (.venv with the wheel installed)"
.venv/bin/pip install --quiet --disable-pip-version-check --no-cache-dir --no-deps "$wheel"
mkdir -p "$RIFT_RESULTS"
rc=0
(cd "$here" && .venv/bin/python -m pytest -q -rs tests) || rc=$?

echo "== conformance lanes"
sdk_check_lanes python || rc=$?

elapsed_ms=$(( ($(date +%s%N) - start_ns) / 1000000 ))
printf 'ci.sh wall time: %d.%03d s\n' $((elapsed_ms / 1000)) $((elapsed_ms % 1000))
exit "$rc"
