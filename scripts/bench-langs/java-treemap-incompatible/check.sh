#!/bin/sh
# Interesting iff javac, compiling the file as java.util.TreeMap inside
# java.base, rejects firstKey's return of an entry where a key is expected.
f=$(realpath "${1:-TreeMap.java}")
d=$(mktemp -d) || exit 2
mkdir -p "$d/src/java/util" && cp "$f" "$d/src/java/util/TreeMap.java"
out=$(cd "$d/src" && javac -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -implicit:none -proc:none \
  --patch-module java.base=. -d "$d/out" java/util/TreeMap.java 2>&1)
rm -rf "$d"
echo "$out" | grep -q 'error: incompatible types: Entry<K,V> cannot be converted to K'
