#!/bin/sh
# Interesting iff running the module fails with the AttributeError of a
# misspelt ConfigParser method (optionxfrom), raised in
# ExtendedInterpolation._interpolate_some reached from before_get.
f=${1:-iniparser.py}
out=$(timeout 10 python3 "$f" 2>&1)
echo "$out" | grep -q 'in before_get' &&
  echo "$out" | grep -q 'in _interpolate_some' &&
  echo "$out" | tail -n 1 | grep -q "^AttributeError: 'ConfigParser' object has no attribute 'optionxfrom'"
