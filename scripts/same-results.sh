#!/usr/bin/env bash
# Records what a build of `reduce` gives on every fixture and every case of
# the shared bench, at -j 1 (where the oracle calls are deterministic), so
# that two builds can be compared: same output bytes, same oracle calls,
# same cache hits and syntax rejections.
#
# Usage: scripts/same-results.sh REDUCE_BINARY OUT_FILE [CASE_GLOB]
#   then: diff OUT_FILE_OF_BUILD_A OUT_FILE_OF_BUILD_B
# One line per run: name, sha256 of the output, oracle calls, cache hits,
# syntax rejections, successes. CASE_GLOB limits the bench cases (default
# every case); SKIP_BENCH=1 runs the fixtures only.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "$1")
out=$(realpath -m "$2")
glob=${3:-*}
bench=${BENCH:-$here/../shared/bench}
: > "$out"

# run NAME DIR INPUT ORACLE [REDUCE FLAGS...]: one reduction in a copy of DIR.
run() {
  local name=$1 dir=$2 input=$3 oracle=$4
  shift 4
  local work
  work=$(mktemp -d "${TMPDIR:-/tmp}/same-results.XXXXXX")
  cp -a "$dir"/. "$work"/
  if (cd "$work" && "$bin" -j 1 --timeout 10 -q "$@" --oracle "./$oracle" "$input" \
        -o "$work/result.out" --stats-json "$work/stats.json" >/dev/null 2>"$work/stderr"); then
    local sha calls
    sha=$(sha256sum < "$work/result.out" | cut -c1-16)
    calls=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]));
print(s["oracle_calls"], s["cache_hits"], s["syntax_rejected"], s["successes"])' "$work/stats.json")
    echo "$name $sha $calls" >> "$out"
  else
    echo "$name failed: $(tail -1 "$work/stderr")" >> "$out"
  fi
  rm -rf "$work"
}

fx=$here/fixtures
for algo in auto ddmin drdd probdd cdd wdd; do
  run "lines/$algo" "$fx/lines" numbers.txt needs-2-and-7.sh --algo "$algo" --unit line
done
for algo in auto ddmin drdd probdd cdd wdd hdd perses tpdd; do
  run "c-crash/$algo" "$fx/c-crash" crash.c check.sh --algo "$algo"
done
run "c-crash/rename-compact" "$fx/c-crash" crash.c check.sh --rename --format compact
run "c-crash/hdd-fixpoint-probdd" "$fx/c-crash" crash.c check.sh --algo hdd --fixpoint --inner probdd
run "c-crash/perses-tutorial" "$fx/c-crash" crash.c check.sh --algo perses --perses-schedule tutorial
run creduce-style "$fx/creduce-style" numbers.txt check.sh
for f in c-names/sum.c c-implicit/lax.c c-warning/warn.c c-deprecated/api.c json-deep/config.json; do
  run "$f" "$fx/$(dirname "$f")" "$(basename "$f")" check.sh
done
run "json-deep/perses" "$fx/json-deep" config.json check.sh --algo perses
run "json-deep/tpdd" "$fx/json-deep" config.json check.sh --algo tpdd

[ "${SKIP_BENCH:-0}" = 1 ] && exit 0
for dir in "$bench"/cases/$glob; do
  [ -x "$dir/check.sh" ] || continue
  input=$(sed -n 's/^input:[[:space:]]*//Ip' "$dir/meta.txt" | head -1 | awk '{print $1}')
  run "bench/$(basename "$dir")" "$dir" "$input" check.sh
done
