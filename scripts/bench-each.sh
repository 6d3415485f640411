#!/bin/sh
# A crash directory, reduced file by file (`--same-crash` per file, the
# way before --each) and in one command (`--each`): wall time, executions
# and the reproducers' sizes. The corpus: the tests' two-bug parser
# (fixtures/two-bugs, built with gcc's AddressSanitizer) and 24 files a
# fuzzer might leave for it, made by scripts/bench-each/make-corpus.py:
# 12 that overflow the name buffer (bug A), 8 that read a null slot (bug
# B), 4 that do not crash.
# Usage: scripts/bench-each.sh   Env: REDUCE (default target/release/reduce), JOBS (default 2).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
reduce=${REDUCE:-$root/target/release/reduce}
[ -x "$reduce" ] || (cd "$root" && cargo build --release -q)
jobs=${JOBS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
gcc -fsanitize=address -g -O0 "$root/fixtures/two-bugs/target.c" -o target
python3 "$root/scripts/bench-each/make-corpus.py" crashes
seconds() { date +%s.%N; }

# File by file: every file reduced on its own, counted by the command.
: >count
start=$(seconds)
mkdir by-file
for f in crashes/*; do
  "$reduce" --same-crash --run "echo >>$work/count; ./target {}" "$f" -o "by-file/$(basename "$f")" \
    -j "$jobs" -q 2>/dev/null || true
done
wall=$(echo "$(seconds) - $start" | bc)
printf '| file by file | %s | %.1f | %d | %s |\n' "$(ls crashes | wc -l)" "$wall" "$(wc -l <count)" \
  "$(ls by-file | wc -l) results, $(cat by-file/* | wc -c) bytes in all"

# One command.
: >count
start=$(seconds)
"$reduce" --same-crash --run "echo >>$work/count; ./target {}" --each crashes -o each -j "$jobs" -q
wall=$(echo "$(seconds) - $start" | bc)
groups=$(python3 -c "import json; r=json.load(open('each/report.json')); print(', '.join(f\"{g['signature'].split(' < ')[0]}: {g['bytes_after']} bytes\" for g in r['groups']))")
printf '| --each | %s | %.1f | %d | %s |\n' "$(ls crashes | wc -l)" "$wall" "$(wc -l <count)" "$groups"
