#!/bin/sh
# Interesting iff tsc (TypeScript 5, strict) rejects reading `value` from
# neverthrow's Err (which only has `error`). tsc: $TSC, or tsc on the
# PATH, or `npm install --prefix /opt/tsc typescript@5`.
f=$(realpath "${1:-neverthrow.ts}")
tsc=${TSC:-$(command -v tsc || echo /opt/tsc/node_modules/.bin/tsc)}
d=$(mktemp -d) || exit 2
cp "$f" "$d/neverthrow.ts"
out=$(cd "$d" && "$tsc" --noEmit --strict --useUnknownInCatchVariables false --skipLibCheck --target es2020 --lib es2020 neverthrow.ts 2>&1)
rm -rf "$d"
echo "$out" | grep -q "error TS2339: Property 'value' does not exist on type 'Err<T, E>'"
