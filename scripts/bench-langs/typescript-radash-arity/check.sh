#!/bin/sh
# Interesting iff tsc (TypeScript 5, strict) rejects radash's crush calling
# get(value) without the required key path (TS2554, 2-3 arguments expected).
# tsc: $TSC, or tsc on the PATH, or `npm install --prefix /opt/tsc typescript@5`.
f=$(realpath "${1:-radash.ts}")
tsc=${TSC:-$(command -v tsc || echo /opt/tsc/node_modules/.bin/tsc)}
d=$(mktemp -d) || exit 2
cp "$f" "$d/radash.ts"
out=$(cd "$d" && "$tsc" --noEmit --strict --skipLibCheck --target es2020 --lib es2020 radash.ts 2>&1)
rm -rf "$d"
echo "$out" | grep -q "error TS2554: Expected 2-3 arguments, but got 1\."
