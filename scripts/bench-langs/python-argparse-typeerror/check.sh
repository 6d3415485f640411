#!/bin/sh
# Interesting iff running the module fails with a TypeError raised in
# HelpFormatter._format_usage (an int minus a str), reached from print_help.
f=${1:-parser.py}
out=$(timeout 10 python3 "$f" 2>&1)
echo "$out" | grep -q 'in print_help' &&
  echo "$out" | grep -q 'in _format_usage' &&
  echo "$out" | tail -n 1 | grep -q "^TypeError: unsupported operand type(s) for -: 'int' and 'str'"
