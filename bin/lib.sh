# Sourced by every bin/ script: builds pancake-tools (and the modules it depends on) whenever a
# source file or pom is newer than its jar, caches its classpath in
# pancake-tools/target/tools.classpath, and runs a main class on it. Needs a JDK 17 (JAVA_HOME or
# java on the PATH) and, for the first build, Maven. PANCAKE_CLASSPATH, when set, is used as the
# classpath as it is, with no build (the tests run the scripts on their own classpath this way).

PANCAKE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PANCAKE_TARGET="$PANCAKE_ROOT/pancake-tools/target"
PANCAKE_CP_FILE="$PANCAKE_TARGET/tools.classpath"
PANCAKE_PROG="${PANCAKE_PROG:-bin/$(basename "$0")}"

pancake_jar() {
  ls "$PANCAKE_TARGET"/pancake-tools-*.jar 2>/dev/null | grep -v -e '-tests\.jar$' -e '-sources\.jar$' -e '-javadoc\.jar$' | head -n 1 || true
}

# Prints the first source file or pom newer than $1 (nothing if the build is current). pancake-core's
# tests count: the Redis fixtures and JMH benchmarks reach the tools through its test jar.
pancake_newer_than() {
  (cd "$PANCAKE_ROOT" && find pom.xml pancake-* \( -path '*/target' -prune \) -o \
      \( \( -path '*/src/main/*' -o -path 'pancake-core/src/test/*' -o -name pom.xml \) -type f -newer "$1" -print \) \
      2>/dev/null | head -n 1)
}

pancake_build() {
  command -v mvn >/dev/null 2>&1 || { echo "$PANCAKE_PROG: mvn not found on PATH; it is needed to build the project" >&2; exit 1; }
  echo "$PANCAKE_PROG: building the project (mvn -q -DskipTests -Dmaven.javadoc.skip=true -pl pancake-tools -am package)..." >&2
  # (Maven 3.8's -q still prints colour resets: dropped)
  # (no javadoc jars: the tools do not need them, and they would slow every rebuild)
  (set -o pipefail; cd "$PANCAKE_ROOT" && mvn -q -B -DskipTests -Dmaven.javadoc.skip=true -pl pancake-tools -am package \
      dependency:build-classpath "-Dmdep.outputFile=$PANCAKE_CP_FILE" -DincludeScope=runtime 2>&1 \
      | sed 's/\x1b\[[0-9;]*m//g') >&2 \
    || { echo "$PANCAKE_PROG: the build failed; fix it or run: cd $PANCAKE_ROOT && mvn -DskipTests package" >&2; exit 1; }
  touch "$(pancake_jar)"
}

# Builds when stale, one build at a time when several scripts start together.
pancake_ensure_built() {
  (
    if command -v flock >/dev/null 2>&1; then
      mkdir -p "$PANCAKE_TARGET"
      exec 9>"$PANCAKE_TARGET/.build.lock"
      flock 9
    fi
    jar="$(pancake_jar)"
    if [ -z "$jar" ] || [ ! -f "$PANCAKE_CP_FILE" ] || [ -n "$(pancake_newer_than "$jar")" ]; then
      pancake_build
    fi
  )
  if [ -z "$(pancake_jar)" ] || [ ! -f "$PANCAKE_CP_FILE" ]; then
    echo "$PANCAKE_PROG: the build did not produce $PANCAKE_TARGET/pancake-tools-*.jar and $PANCAKE_CP_FILE" >&2
    exit 1
  fi
}

# pancake_exec "<JVM options>" <main class> [args...]: replaces the shell with that JVM.
pancake_exec() {
  local opts="$1"
  shift
  local cp="${PANCAKE_CLASSPATH:-}"
  if [ -z "$cp" ]; then
    pancake_ensure_built
    cp="$(pancake_jar):$(cat "$PANCAKE_CP_FILE")"
  fi
  local java=java
  if [ -n "${JAVA_HOME:-}" ]; then
    java="$JAVA_HOME/bin/java"
  fi
  # shellcheck disable=SC2086
  # library INFO lines (System.Logger -> java.util.logging) one line each on stderr
  exec "$java" '-Djava.util.logging.SimpleFormatter.format=[%4$s] %5$s%6$s%n' $opts -Dpancake.root="$PANCAKE_ROOT" -cp "$cp" "$@"
}
