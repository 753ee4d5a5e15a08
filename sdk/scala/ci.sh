#!/usr/bin/env bash
# The Scala SDK's CI. It builds on rift-java 0.1.0 in the local Maven repository: run
# sdk/java/ci.sh first (it ends with `mvn install`); when rift-java is not installed this script
# installs it from ../java without running the Java tests.
# Environment: RIFT_LIB, RIFT_BIN, RIFT_RESULTS, RIFT_ABI_JSON (defaults: this checkout's builds).
set -euo pipefail
started=$(date +%s%N)
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$here"

source "$here/../java/jdk-env.sh"

source "$here/../ci-env.sh"
mkdir -p "$RIFT_RESULTS"
rm -f "$RIFT_RESULTS"/scala-*-interpreter.jsonl

m2="$HOME/.m2/repository"   # Maven's default local repository (no settings.xml override here)
if [ ! -f "$m2/dev/rift/rift-java/0.1.0/rift-java-0.1.0.jar" ]; then
  echo "ci.sh: rift-java 0.1.0 is not installed in $m2; installing it from ../java (tests skipped: run ../java/ci.sh for them)"
  mkdir -p ../java/src/main/resources/native/linux-x86_64
  cp -L "$RIFT_LIB" ../java/src/main/resources/native/linux-x86_64/librift.so.1
  mvn -B -ntp -f ../java/pom.xml -DskipTests install
fi

# Compile (main, tests and bench/), run every suite, package and install the jar.
mvn -B -ntp clean install -Pbench

sdk_check_lanes scala

ended=$(date +%s%N)
echo "sdk/scala ci.sh wall time: $(( (ended - started) / 1000000 )) ms"
