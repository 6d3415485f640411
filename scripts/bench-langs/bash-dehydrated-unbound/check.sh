#!/bin/sh
# Interesting iff `dehydrated --cleanup-delete` takes the archive branch for an
# unused certificate file and dies under `set -u` on `archivedir: unbound variable`.
f=$(realpath "${1:-dehydrated.sh}")
d=$(mktemp -d) || exit 2
mkdir -p "$d/home" "$d/base/certs/example.org" "$d/work"
: >"$d/base/config"
touch "$d/base/certs/example.org/cert-100.pem" "$d/base/certs/example.org/cert-200.pem"
ln -s cert-200.pem "$d/base/certs/example.org/cert.pem"
(cd "$d/work" && HOME="$d/home" TMPDIR="$d" timeout 10 bash "$f" --cleanup-delete --config "$d/base/config" >"$d/out" 2>"$d/err")
grep -q 'archivedir: unbound variable' "$d/err" &&
  grep -q 'Moving unused file to archive directory: example.org/cert-100.pem' "$d/out"
found=$?
rm -rf "$d"
[ "$found" -eq 0 ]
