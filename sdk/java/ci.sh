#!/usr/bin/env bash
# The Java SDK's CI: pinned dependencies from Maven Central, the jar (with librift inside), every
# test including the three conformance lanes, a smoke run of the packaged jar without RIFT_LIB,
# and `mvn install` (the Scala SDK builds on the installed rift-java).
# Environment: RIFT_LIB, RIFT_BIN, RIFT_RESULTS, RIFT_ABI_JSON (defaults: this checkout's builds).
set -euo pipefail
started=$(date +%s%N)
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$here"

source "$here/jdk-env.sh"

source "$here/../ci-env.sh"
mkdir -p "$RIFT_RESULTS"
rm -f "$RIFT_RESULTS"/java-*-interpreter.jsonl

# The native library goes into the jar as a resource (src/main/resources/native is ignored by git).
mkdir -p src/main/resources/native/linux-x86_64
# Debug info stays behind (about 220 MB of it): the jar carries the stripped code.
strip --strip-debug -o src/main/resources/native/linux-x86_64/librift.so.1 "$RIFT_LIB"

mvn -B -ntp clean install
mvn -B -q -ntp dependency:build-classpath -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=runtime

jar="target/rift-java-0.1.0.jar"
# grep reads all of unzip's listing (no -q: an early exit would fail the pipe under pipefail).
unzip -l "$jar" | grep 'native/linux-x86_64/librift.so.1' >/dev/null || { echo "ci.sh: $jar lacks librift" >&2; exit 1; }
env -u RIFT_LIB java --enable-native-access=ALL-UNNAMED -cp "$jar:$(cat target/classpath.txt)" ci/JarSmoke.java

sdk_check_lanes java

ended=$(date +%s%N)
echo "sdk/java ci.sh wall time: $(( (ended - started) / 1000000 )) ms"
