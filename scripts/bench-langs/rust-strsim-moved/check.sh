#!/bin/sh
# Interesting iff rustc's borrow checker rejects damerau_levenshtein_impl:
# the inner loop consumes the iterator `s2` itself (no .clone()), so it is
# used after being moved in a previous iteration of the outer loop (E0382).
f=${1:-strsim.rs}
d=$(mktemp -d) || exit 2
out=$(rustc --edition 2021 --crate-type lib --emit=metadata -o "$d/check-out.rmeta" "$f" 2>&1)
rm -rf "$d"
echo "$out" | grep -q 'error\[E0382\]: use of moved value: `s2`' &&
  echo "$out" | grep -q '`s2` moved due to this method call, in previous iteration of loop'
