#!/bin/sh
# Interesting iff running the module fails with the TypeError of a width
# given as a string, raised in TextWrapper._wrap_chunks reached from fill.
f=${1:-wrap.py}
out=$(timeout 10 python3 "$f" 2>&1)
echo "$out" | grep -q 'in fill' &&
  echo "$out" | grep -q 'in _wrap_chunks' &&
  echo "$out" | tail -n 1 | grep -q "^TypeError: '<=' not supported between instances of 'str' and 'int'"
