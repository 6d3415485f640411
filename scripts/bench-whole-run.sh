#!/bin/sh
# A whole run's costs on shared bench cases: each case reduced at -j 2 with
# the default pipeline, one run at a time, while the `reduce` process's
# peak resident memory (VmHWM, read every half second) is sampled. Prints a
# Markdown row per case: input bytes, wall seconds, the reducer's own CPU
# seconds and their share of the wall, oracle calls, units at the end, and
# the peak RSS in MB and as a multiple of the input (issue 47's targets: at
# most 5% of the wall, at most 20 times the input).
# Usage: scripts/bench-whole-run.sh [BINARY] [CASE...]
#   (default: target/release/reduce and the three C++ units)
# BENCH_CASES overrides the cases directory; CAP the per-run cap in seconds;
# KEEP a directory that receives each case's result and stats
# (KEEP/CASE.out, KEEP/CASE.json).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$root/target/release/reduce}")
[ $# -gt 0 ] && shift
cases=${BENCH_CASES:-$root/../shared/bench/cases}
cap=${CAP:-1800}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ $# -gt 0 ] || set -- cpp-csmith-write-strings cpp-stl-unordered-no-hash cpp-stl-unique-ptr-copy
echo "| case | input bytes | wall s | reducer CPU s | share | calls | units after | peak RSS MB | peak / input |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for case in "$@"; do
    dir=$work/$case
    mkdir -p "$dir"
    cp "$cases/$case"/* "$dir/"
    input=$(grep -E '^(file|input):' "$dir/meta.txt" 2>/dev/null | head -1 | sed 's/^[a-z]*: *//')
    [ -n "$input" ] || input=$(cd "$dir" && ls | grep -vE '^(check\.sh|meta\.txt)$' | head -1)
    (cd "$dir" && exec timeout "$cap" "$bin" -j 2 -q --stats-json stats.json \
        --oracle ./check.sh "$input" -o result.out) &
    pid=$!
    peak=0
    while kill -0 "$pid" 2>/dev/null; do
        # The reduce process is the timeout's child.
        child=$(pgrep -P "$pid" | head -1 || true)
        hwm=$(awk '/VmHWM/ {print $2}' "/proc/$child/status" 2>/dev/null || true)
        [ -n "$hwm" ] && [ "$hwm" -gt "$peak" ] && peak=$hwm
        sleep 0.5
    done
    wait "$pid" || true
    if [ -n "${KEEP:-}" ]; then
        mkdir -p "$KEEP"
        cp "$dir/result.out" "$KEEP/$case.out" 2>/dev/null || true
        cp "$dir/stats.json" "$KEEP/$case.json" 2>/dev/null || true
    fi
    python3 - "$case" "$dir/$input" "$dir/stats.json" "$peak" <<'PY'
import json, os, sys
case, input_path, stats_path, peak_kib = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
s = json.load(open(stats_path))
size = os.path.getsize(input_path)
cpu, wall = s["reducer_cpu_seconds"], s["wall_seconds"]
print(f"| {case} | {size} | {wall:.1f} | {cpu:.2f} | {100 * cpu / wall:.1f}% | "
      f"{s['oracle_calls']} | {s['units_after']} | {peak_kib / 1024:.0f} | "
      f"{peak_kib * 1024 / size:.0f}x |")
PY
done
