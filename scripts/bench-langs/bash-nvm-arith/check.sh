#!/bin/sh
# Interesting iff `nvm alias lts/-1` exits 0 although nvm_normalize_lts hits
# a bash arithmetic error on N=lts/ (cut took field 1 of lts/-1, not field 2).
f=$(realpath "${1:-nvm.sh}")
d=$(mktemp -d) || exit 2
mkdir -p "$d/home" "$d/nvm/alias/lts" "$d/work"
echo v18.20.4 >"$d/nvm/alias/lts/hydrogen"
echo v20.15.1 >"$d/nvm/alias/lts/iron"
(cd "$d/work" && HOME="$d/home" NVM_DIR="$d/nvm" timeout 10 bash "$f" >"$d/out" 2>"$d/err")
status=$?
grep -q 'lts/: syntax error: operand expected (error token is "/")' "$d/err"
found=$?
rm -rf "$d"
[ "$status" -eq 0 ] && [ "$found" -eq 0 ]
