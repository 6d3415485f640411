#!/bin/sh
# Interesting iff node fails with a TypeError reading `split` of undefined
# in a `tokenize` method called from `diffLines`.
f=${1:-diff.js}
out=$(timeout 10 node "$f" 2>&1)
echo "$out" | grep -q "TypeError: Cannot read properties of undefined (reading 'split')" &&
  echo "$out" | grep -q 'at .*\.tokenize ' &&
  echo "$out" | grep -q 'at diffLines '
