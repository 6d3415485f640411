#!/bin/sh
# Interesting iff the program compiles with javac and running bench.Main dies
# with ArrayIndexOutOfBoundsException (index 1024, length 1024) thrown in
# IteratorSpliterator.trySplit.
f=$(realpath "${1:-Spliterators.java}")
d=$(mktemp -d) || exit 2
mkdir -p "$d/src" && cp "$f" "$d/src/Spliterators.java"
out=$(cd "$d/src" && javac -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -J-Xshare:auto -implicit:none -proc:none \
  -d "$d/out" Spliterators.java 2>&1 &&
  timeout 10 java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto -cp "$d/out" bench.Main 2>&1)
rm -rf "$d"
echo "$out" | grep -q 'java.lang.ArrayIndexOutOfBoundsException: Index 1024 out of bounds for length 1024' &&
  echo "$out" | grep -q 'at bench\.Spliterators\$IteratorSpliterator\.trySplit('
