# Sourced by sdk/java/ci.sh and sdk/scala/ci.sh: the JDK both SDKs build with. FFM is final from
# Java 22; Debian's default java is 17, so the Temurin 25 JDK beside it is chosen
# (RIFT_JAVA_HOME overrides).
export JAVA_HOME="${RIFT_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
export PATH="$JAVA_HOME/bin:$PATH"
# Maven 3.8's own guava warns about sun.misc.Unsafe on JDK 25; it is Maven's, not ours.
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
