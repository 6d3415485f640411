#!/bin/sh
# Interesting iff `python-build --definitions` exits 0 although a command of
# its pipeline is not found (sort_version, a typo of sort_versions).
f=$(realpath "${1:-python-build.sh}")
d=$(mktemp -d) || exit 2
mkdir -p "$d/root/share/python-build" "$d/work"
touch "$d/root/share/python-build/3.9.1" "$d/root/share/python-build/3.11.0"
(cd "$d/work" && PYTHON_BUILD_ROOT="$d/root" bash "$f" --definitions >"$d/out" 2>"$d/err")
status=$?
grep -q 'sort_version: command not found' "$d/err"
found=$?
rm -rf "$d"
[ "$status" -eq 0 ] && [ "$found" -eq 0 ]
