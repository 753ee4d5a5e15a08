#!/usr/bin/env bash
# Runs bench/Bench.java against target/ (build first: ci.sh or mvn package). Args: [iterations] [warmup]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
source "$here/jdk-env.sh"
source "$here/../ci-env.sh"
cd "$here"
[ -f target/classpath.txt ] || mvn -B -q -ntp dependency:build-classpath -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=runtime
cp="target/classes:$(cat target/classpath.txt)"
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$cp" bench/Bench.java "$@"
