#!/usr/bin/env bash
# Compiles bench/ (profile `bench`) and runs it. Needs rift-java installed (sdk/java/ci.sh).
# Args: [iterations] [warmup]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
repo="$(cd "$here/../.." && pwd)"
export JAVA_HOME="${RIFT_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
export RIFT_LIB="${RIFT_LIB:-$repo/build-embed/lib/librift.so.1}"
export RIFT_BIN="${RIFT_BIN:-$repo/build-embed/bin/rift}"
cd "$here"
mvn -B -q -ntp -Pbench test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED \
  -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" dev.rift.scaladsl.bench.Bench "$@"
