#!/bin/sh
# Interesting iff the Go compiler rejects ListNode.String's return of a
# strings.Builder where a string is expected.
f=$(realpath "${1:-parse.go}")
d=$(mktemp -d) || exit 2
cp "$f" "$d/parse.go"
out=$(cd "$d" && GOCACHE=${GOCACHE:-/tmp/reduce-bench-gocache} GOFLAGS= GO111MODULE=off \
  go build -o /dev/null parse.go 2>&1)
rm -rf "$d"
echo "$out" | grep -q 'cannot use sb (variable of type strings.Builder) as type string in return statement'
