#!/bin/sh
# Interesting iff node fails with the ReferenceError of the unquoted
# default unit, raised in parse and reached through the module's export.
f=${1:-ms.js}
out=$(timeout 10 node "$f" 2>&1)
echo "$out" | grep -q '^ReferenceError: ms is not defined' &&
  echo "$out" | grep -q 'at parse ' &&
  echo "$out" | grep -q 'at module.exports '
