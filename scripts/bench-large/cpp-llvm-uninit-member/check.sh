#!/bin/sh
# Oracle: g++ 12 must accept the file and warn that a member is used
# uninitialized in a constructor (LLVM 14's ModuleSummaryIndex passes its
# Alloc member to Saver's constructor before Alloc is built). LC_ALL=C keeps
# the messages ASCII.
f=${1:-unit.ii}
[ -f "$f" ] || exit 1
out=$(LC_ALL=C g++ -std=c++17 -fsyntax-only -Wuninitialized -x c++ "$f" 2>&1) || exit 1
printf '%s\n' "$out" | grep -q "warning: member '.*' is used uninitialized \[-Wuninitialized\]"
