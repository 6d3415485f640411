#!/bin/sh
# Interesting iff rustc rejects the Display impl of duration::Error as a
# non-exhaustive match (E0004): both UnknownUnit arms carry a guard, so the
# variant counts as not covered.
f=${1:-humantime.rs}
d=$(mktemp -d) || exit 2
out=$(rustc --edition 2021 --crate-type lib --emit=metadata -o "$d/check-out.rmeta" "$f" 2>&1)
rm -rf "$d"
echo "$out" | grep -qF 'error[E0004]: non-exhaustive patterns: `&duration::Error::UnknownUnit { .. }` not covered' &&
  echo "$out" | grep -qF 'the matched value is of type `&duration::Error`'
