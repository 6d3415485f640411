#!/bin/sh
# Interesting iff tsc (TypeScript 5, strict) rejects the assignment of a
# string to Immer's boolean autoFreeze_ field. tsc: $TSC, or tsc on the
# PATH, or `npm install --prefix /opt/tsc typescript@5`.
f=$(realpath "${1:-immer.ts}")
tsc=${TSC:-$(command -v tsc || echo /opt/tsc/node_modules/.bin/tsc)}
d=$(mktemp -d) || exit 2
cp "$f" "$d/immer.ts"
out=$(cd "$d" && "$tsc" --noEmit --strict --skipLibCheck --target es2020 --lib es2020 immer.ts 2>&1)
rm -rf "$d"
echo "$out" | grep -q "error TS2322: Type 'string' is not assignable to type 'boolean'"
