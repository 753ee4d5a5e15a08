#!/usr/bin/env bash
# Compiles bench/ (profile `bench`) and runs it. Needs rift-java installed (sdk/java/ci.sh).
# Args: [iterations] [warmup]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
source "$here/../java/jdk-env.sh"
source "$here/../ci-env.sh"
cd "$here"
mvn -B -q -ntp -Pbench test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED \
  -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" dev.rift.scaladsl.bench.Bench "$@"
