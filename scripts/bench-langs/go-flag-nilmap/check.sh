#!/bin/sh
# Interesting iff running the program panics with a write to a nil map in
# FlagSet.parseOne (its f.actual map is never made before the first flag).
f=$(realpath "${1:-flag.go}")
d=$(mktemp -d) || exit 2
cp "$f" "$d/flag.go"
out=$(cd "$d" && GOCACHE=${GOCACHE:-/tmp/reduce-bench-gocache} GOFLAGS= GO111MODULE=off \
  timeout 10 go run flag.go 2>&1)
rm -rf "$d"
echo "$out" | grep -q '^panic: assignment to entry in nil map' &&
  echo "$out" | grep -q '^main\.(\*FlagSet)\.parseOne('
