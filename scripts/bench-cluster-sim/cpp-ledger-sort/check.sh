#!/bin/sh
# Interesting iff g++ (-std=c++17, syntax only) rejects the file because an
# insertion sort compares two values of a type without operator< (the
# journal's entries): "no match for 'operator<'". Another error alone, or a
# clean compile, is uninteresting.
f=${1:-ledger.cpp}
LC_ALL=C timeout 10 g++ -std=c++17 -fsyntax-only -w -x c++ "$f" 2>&1 | grep -q "error: no match for 'operator<'"
