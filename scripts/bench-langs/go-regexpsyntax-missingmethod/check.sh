#!/bin/sh
# Interesting iff the Go compiler rejects sort.Sort(ranges{...}) because the
# ranges type no longer has a Len method (so it is not a sort.Interface).
f=$(realpath "${1:-syntax.go}")
d=$(mktemp -d) || exit 2
cp "$f" "$d/syntax.go"
out=$(cd "$d" && GOCACHE=${GOCACHE:-/tmp/reduce-bench-gocache} GOFLAGS= GO111MODULE=off \
  timeout 10 go build -o /dev/null syntax.go 2>&1)
rm -rf "$d"
echo "$out" | grep -q 'as type sort.Interface in argument to sort.Sort:$' &&
  echo "$out" | grep -q 'ranges does not implement sort.Interface (missing Len method)'
