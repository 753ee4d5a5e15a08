#!/usr/bin/env bash
# CI for the Go SDK: pinned deps, the module with librift embedded, vet, all tests including the
# three conformance lanes (embedded, spawn, connect), then the lane check. Prints its wall time.
set -euo pipefail
started=$(date +%s)
trap 'echo "sdk/go ci.sh wall time: $(( $(date +%s) - started ))s"' EXIT

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$here"

export CGO_ENABLED=0
export GOFLAGS="${GOFLAGS:-} -mod=readonly"
source "$here/../ci-env.sh"
echo "go: $(go version)"

# 1. Pinned dependencies (go.sum is committed; -mod=readonly refuses any drift).
go mod download
go mod verify

# 2. The artifact: the module with librift embedded for linux/amd64 (stripped: the build
#    carries debug info, ~200 MB, against ~7 MB without).
native="rift/native/linux_amd64/librift.so.1"
if command -v strip >/dev/null && strip --strip-unneeded -o "$native.tmp" "$RIFT_LIB" 2>/dev/null; then
  mv "$native.tmp" "$native"
else
  rm -f "$native.tmp"; cp "$RIFT_LIB" "$native"
fi
echo "embedded $(stat -c %s "$native") bytes at sdk/go/$native"
mkdir -p out
go build ./...
go build -o out/rift-bench ./bench
go vet ./...

# 3. Every test, with RIFT_LIB unset so the embedded copy is what loads (a test checks so).
mkdir -p "$RIFT_RESULTS"
rm -f "$RIFT_RESULTS"/go-*-interpreter.jsonl
env -u RIFT_LIB RIFT_EXPECT_EMBEDDED=1 go test -count=1 ./...
# ... and the ABI and embedded-engine tests once more from RIFT_LIB itself.
go test -count=1 -run 'ABI|Embedded|LibraryLocation' ./rift

# 4. The three lanes, as the lead's aggregator reads them.
sdk_check_lanes go
