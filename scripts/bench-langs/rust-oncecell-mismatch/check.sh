#!/bin/sh
# Interesting iff rustc rejects the crate with the mismatched return type of
# OnceNonZeroUsize::get: a usize where Option<NonZero<usize>> is expected.
f=${1:-once_cell.rs}
out=$(rustc --edition 2021 --crate-type lib --cfg 'feature="std"' --cfg 'feature="alloc"' \
  --cfg 'feature="race"' --emit=metadata -o ./check-out.rmeta "$f" 2>&1)
rm -f ./check-out.rmeta
echo "$out" | grep -q 'error\[E0308\]: mismatched types' &&
  echo "$out" | grep -q 'expected `Option<NonZero<usize>>`, found `usize`'
