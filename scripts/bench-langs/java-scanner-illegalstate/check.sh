#!/bin/sh
# Interesting iff the program compiles with javac and running bench.Main dies
# with IllegalStateException "Scanner closed" thrown in Scanner.useTypeCache
# (the scanner was never closed).
f=$(realpath "${1:-Scanner.java}")
d=$(mktemp -d) || exit 2
mkdir -p "$d/src" && cp "$f" "$d/src/Scanner.java"
out=$(cd "$d/src" && javac -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -J-Xshare:auto -implicit:none -proc:none \
  --add-exports java.base/sun.util.locale.provider=ALL-UNNAMED -d "$d/out" Scanner.java 2>&1 &&
  timeout 10 java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto -cp "$d/out" bench.Main 2>&1)
rm -rf "$d"
echo "$out" | grep -q 'java.lang.IllegalStateException: Scanner closed' &&
  echo "$out" | grep -q 'at bench\.Scanner\.useTypeCache('
