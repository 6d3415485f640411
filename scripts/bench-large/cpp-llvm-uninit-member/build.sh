#!/bin/sh
# Builds unit.ii, a 9.4 MB translation unit: every header of ten LLVM 14
# library folders (the installed llvm-14-dev headers) that compiles on its
# own, included in sorted order and preprocessed with g++ 12 the way LLVM
# builds its own sources. The sha256 in meta.txt pins the result; another
# LLVM or libstdc++ gives another unit (the script says so and keeps it).
# Usage: scripts/bench-large/cpp-llvm-uninit-member/build.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
inc=/usr/lib/llvm-14/include
[ -d "$inc/llvm" ] || { echo "llvm-14-dev is not installed (apt-get install llvm-14-dev)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The six headers that do not compile alone (they need another header first).
cat > "$work/skip" <<'SKIP'
llvm/CodeGen/DbgEntityHistoryCalculator.h
llvm/CodeGen/DebugHandlerBase.h
llvm/CodeGen/MachinePipeliner.h
llvm/CodeGen/WasmEHFuncInfo.h
llvm/Support/thread.h
llvm/Transforms/Utils/InstructionWorklist.h
SKIP
(cd "$inc" && find -L llvm/ADT llvm/IR llvm/Analysis llvm/Support llvm/Transforms/Utils \
    llvm/Transforms/Scalar llvm/CodeGen llvm/MC llvm/Passes llvm/Object \
    -maxdepth 1 -name '*.h' | LC_ALL=C sort) | grep -vxF -f "$work/skip" |
    sed 's/.*/#include "&"/' > "$work/unit.cpp"
LC_ALL=C g++ -I"$inc" -std=c++17 -fno-exceptions -D_GNU_SOURCE -D__STDC_CONSTANT_MACROS \
    -D__STDC_FORMAT_MACROS -D__STDC_LIMIT_MACROS -E -P "$work/unit.cpp" -o "$here/unit.ii"
want=$(sed -n 's/^sha256: //p' "$here/meta.txt")
got=$(sha256sum "$here/unit.ii" | cut -d' ' -f1)
echo "unit.ii: $(wc -c < "$here/unit.ii") bytes, sha256 $got"
[ "$got" = "$want" ] || echo "not the unit of meta.txt (sha256 $want): other LLVM or libstdc++ headers" >&2
"$here/check.sh" "$here/unit.ii" || { echo "unit.ii does not pass check.sh" >&2; exit 1; }
