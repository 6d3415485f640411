#!/usr/bin/env bash
# The regression gate: reruns every case of scripts/gate-baseline.tsv (the
# shared bench's public cases and the language cases of scripts/bench-langs/)
# with a build of `reduce` at -j 2, one case at a time, and fails when any
# case ends larger than its baseline, ends with a result the oracle refuses,
# or does not finish within CAP seconds. Run it before resolving any issue
# that touches reduction.
#
# Usage: scripts/regression-gate.sh REDUCE_BINARY [CASE_GLOB]
# Env: CAP (seconds per case, default 900), BASELINE (default
#   scripts/gate-baseline.tsv), OUT (the run's lines, default
#   /tmp/regression-gate.txt), BENCH (default ../shared/bench).
# Prints one line per case: case, baseline tokens -> tokens, calls, verdict
# (same, smaller, LARGER, FAILED); exits 1 if any case is LARGER or FAILED.
# A case that ends smaller is reported, not written back: update the
# baseline by hand, with the commit it was measured at.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "$1")
glob=${2:-*}
bench=${BENCH:-$here/../shared/bench}
baseline=${BASELINE:-$here/scripts/gate-baseline.tsv}
cap=${CAP:-900}
out=${OUT:-/tmp/regression-gate.txt}
# The real python3 and rustc first on the PATH, for every tool alike.
. "$here/scripts/real-tools.sh"
: > "$out"
failed=0
# field KEY LINE: the value of KEY=... in a run.sh line.
field() { tr ' ' '\n' <<< "$2" | sed -n "s/^$1=//p"; }
# The baseline is read on fd 3: the runs may read their stdin.
while IFS=$'\t' read -r name tokens calls <&3; do
  case $name in ''|'#'*) continue ;; esac
  # shellcheck disable=SC2254
  case $name in $glob) ;; *) continue ;; esac
  dir=$bench/cases/$name
  [ -d "$dir" ] || dir=$here/scripts/bench-langs/$name
  line=$(LABEL=gate "$bench/run.sh" "cmd:$bin -j 2 -q --oracle {oracle} {file} --in-place" "$dir" "$cap" < /dev/null)
  echo "$line" >> "$out"
  now=$(field tokens_out "$line")
  verdict=same
  if [ "$(field status "$line")" != ok ] || [ "$(field still_interesting "$line")" != yes ]; then
    verdict=FAILED
  elif [ "${now:-999999999}" -gt "$tokens" ]; then
    verdict=LARGER
  elif [ "$now" -lt "$tokens" ]; then
    verdict=smaller
  fi
  case $verdict in LARGER|FAILED) failed=1 ;; esac
  printf '%-50s %6s -> %-6s calls %6s -> %-6s %s\n' "$name" "$tokens" "${now:-?}" \
    "$calls" "$(field oracle_calls "$line")" "$verdict"
done 3< "$baseline"
exit $failed
