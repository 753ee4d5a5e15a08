#!/usr/bin/env bash
# Runs bench/Bench.java against target/ (build first: ci.sh or mvn package). Args: [iterations] [warmup]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
repo="$(cd "$here/../.." && pwd)"
export JAVA_HOME="${RIFT_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
export RIFT_LIB="${RIFT_LIB:-$repo/build-embed/lib/librift.so.1}"
export RIFT_BIN="${RIFT_BIN:-$repo/build-embed/bin/rift}"
cd "$here"
[ -f target/classpath.txt ] || mvn -B -q -ntp dependency:build-classpath -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=runtime
cp="target/classes:$(cat target/classpath.txt)"
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$cp" bench/Bench.java "$@"
