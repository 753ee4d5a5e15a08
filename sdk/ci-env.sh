# Sourced by every sdk/<language>/ci.sh: which engine the SDK is tested on. From the
# environment when set (tools/test-all sets all four), else this checkout's build:
#   RIFT_LIB       librift.so.1 (build/lib, else build-embed/lib)
#   RIFT_BIN       the rift executable, for the spawn and connect transports
#   RIFT_RESULTS   the conformance result folder (tests/conformance/README.md#results)
#   RIFT_ABI_JSON  embed/abi.json, the contract each binding table is compared with
sdk_repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sdk_first_existing() {
  local path
  for path in "$@"; do [[ -e $path ]] && { echo "$path"; return; }; done
  echo "$1"
}
export RIFT_LIB="${RIFT_LIB:-$(sdk_first_existing "$sdk_repo/build/lib/librift.so.1" "$sdk_repo/build-embed/lib/librift.so.1")}"
export RIFT_BIN="${RIFT_BIN:-$(sdk_first_existing "$sdk_repo/build/bin/rift" "$sdk_repo/build-embed/bin/rift")}"
export RIFT_RESULTS="${RIFT_RESULTS:-$sdk_repo/build/conformance-results}"
export RIFT_ABI_JSON="${RIFT_ABI_JSON:-$sdk_repo/embed/abi.json}"
for sdk_needed in "$RIFT_LIB" "$RIFT_BIN" "$RIFT_ABI_JSON"; do
  [[ -e $sdk_needed ]] || { echo "$0: missing $sdk_needed (build Rift first: tools/build build)" >&2; exit 1; }
done
mkdir -p "$RIFT_RESULTS"
echo "$0: RIFT_LIB=$RIFT_LIB RIFT_BIN=$RIFT_BIN RIFT_RESULTS=$RIFT_RESULTS"

# sdk_check_lanes CLIENT: this client's three lanes, summed alone (other clients' result files
# may share RIFT_RESULTS and are not this script's to judge); fails on a failed step or a
# missing or all-skipped lane.
sdk_check_lanes() {
  local client=$1 lanes status=0
  lanes=$(mktemp -d)
  cp "$RIFT_RESULTS/$client"-*-interpreter.jsonl "$lanes"/ 2>/dev/null || true
  python3 "$sdk_repo/tests/conformance/aggregate.py" --results "$lanes" \
    --expect "$client:embedded:interpreter" "$client:spawn:interpreter" "$client:connect:interpreter" ||
    status=$?
  rm -rf "$lanes"
  return $status
}
