#!/bin/sh
# A simulated cluster: every oracle test runs the case's real check and then
# sleeps SLEEP seconds, as a remote worker running a slow compile would, so
# that -j N on a small machine behaves like N workers (the real checks must
# be quick, well under 0.1 s of CPU, or the local cores become the limit).
# With MEMO=1 (the default) the checks' verdicts are remembered by the
# candidate's SHA-256, per case, for the whole invocation: a candidate
# tested before costs its sleep but no local CPU (the verdict is the one
# its check gave, as a remote worker's would be), and with WARMUP=1 (the
# default with MEMO) each run from -j 8 on is preceded by one unmeasured
# run at the same -j, which fills the memo with that run's candidates. The
# checks of a run from -j 8 on then hardly touch the local cores, which at
# 64 tests a second would otherwise be the limit (two cores run about 20
# gcc checks a second), not the workers simulated. MEMO=0 measures with
# every check run locally.
# Reduces each case with `reduce` at every -j (its default --wave, which
# follows -j; REDUCE_ARGS adds flags), C-Vise at the same --n, and Shrink Ray
# at the same --parallelism where installed, and prints one Markdown row per
# run: wall seconds, oracle calls (every test started, counted by the
# wrapper, cancelled ones included), the result's tokens
# (../shared/bench/tokens.py), and the reducer's own CPU seconds: for
# `reduce` its --stats-json reducer_cpu_seconds (the process alone); for
# the others the CPU of the whole run less that of the checks, as measured
# by the wrapper (so the sleeps, the shells and the tests they cancelled
# count as theirs).
#
# Usage: scripts/bench-cluster-sim.sh [CASE...]
#   CASE: a case folder name under ../shared/bench/cases, or a path to a
#   folder holding check.sh, meta.txt (`input:` and `lang:`) and the input.
#   Default: c-perses-clang21582-gcc-ice-output-operand,
#   json-py-duplicate-key, and scripts/bench-cluster-sim/cpp-ledger-sort.
# Env: SLEEP (seconds, default 1), JOBS (default "1 2 8 32 64"),
#   TOOLS (default "reduce cvise shrinkray"), CAP (seconds per run,
#   default 3600; a capped run reports what it had saved), BENCH (the
#   shared bench, default ../shared/bench), REDUCE (the binary, default
#   target/release/reduce), REDUCE_ARGS, KEEP=1 (keep the work folders),
#   MEMO (default 1), WARMUP (default: MEMO).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bench=${BENCH:-$root/../shared/bench}
bin=${REDUCE:-$root/target/release/reduce}
sleep_s=${SLEEP:-1}
jobs=${JOBS:-1 2 8 32 64}
tools=${TOOLS:-reduce cvise shrinkray}
cap=${CAP:-3600}
memo_on=${MEMO:-1}
warmup=${WARMUP:-$memo_on}
[ $# -gt 0 ] || set -- c-perses-clang21582-gcc-ice-output-operand json-py-duplicate-key \
  "$root/scripts/bench-cluster-sim/cpp-ledger-sort"
work=$(mktemp -d "${TMPDIR:-/tmp}/cluster-sim.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT

# One run of $tool at -j $j on the case, pass $pass: prints its row.
run_one() {
  run=$work/$name-$tool-j$j-$pass
  rm -rf "$run"
  mkdir -p "$run/case" "$run/red"
  # A short TMPDIR: C-Vise's worker pool listens on a Unix socket under
  # it, whose path may not exceed 107 bytes.
  tmp=$(mktemp -d "$work/t.XXXXXX")
  cp "$cdir"/* "$run/case/"
  cp "$cdir/$input" "$run/red/$input"
  # The simulated remote test: count it, run the real check (its CPU
  # noted) unless the memo knows the candidate's verdict (the file is the
  # first argument, else the case's input), then wait as a slow worker
  # would.
  cat > "$run/oracle.sh" <<EOF
#!/bin/sh
printf x >> '$run/calls'
key=
if [ '$memo_on' = 1 ]; then
  key='$memo'/\$(sha256sum < "\${1:-$input}" | cut -c1-64)
fi
if [ -n "\$key" ] && [ -f "\$key" ]; then
  rc=\$(cat "\$key")
else
  /usr/bin/time -a -o '$run/check-cpu' -f '%U %S' '$run/case/check.sh' "\$@"
  rc=\$?
  if [ -n "\$key" ]; then
    echo \$rc > "\$key.\$\$" && mv "\$key.\$\$" "\$key"
  fi
fi
sleep $sleep_s
exit \$rc
EOF
  chmod +x "$run/oracle.sh"
  : > "$run/calls"
  : > "$run/check-cpu"
  start=$(date +%s.%N)
  set +e
  case $tool in
    reduce)
      # shellcheck disable=SC2086
      (cd "$run/red" && TMPDIR=$tmp /usr/bin/time -o "$run/total-cpu" -f '%U %S' \
        timeout -k 10 "$cap" "$bin" -j "$j" ${REDUCE_ARGS:-} --oracle "$run/oracle.sh" \
        "$input" --in-place -q --stats-json "$run/stats.json" > "$run/log" 2>&1)
      ;;
    cvise)
      notc=
      case $lang in c|cpp) ;; *) notc=--not-c ;; esac
      (cd "$run/red" && TMPDIR=$tmp /usr/bin/time -o "$run/total-cpu" -f '%U %S' \
        timeout -k 10 "$cap" cvise --n "$j" --tidy $notc "$run/oracle.sh" "$input" \
        > "$run/log" 2>&1)
      ;;
    shrinkray)
      (cd "$run/red" && TMPDIR=$tmp /usr/bin/time -o "$run/total-cpu" -f '%U %S' \
        timeout -k 10 "$cap" env SHRINKRAY_LLM=0 shrinkray --no-llm --ui basic \
        --parallelism "$j" --no-history --backup "$tmp/shrinkray.bak" \
        "$run/oracle.sh" "$input" > "$run/log" 2>&1)
      ;;
  esac
  set -e
  end=$(date +%s.%N)
  wall=$(echo "$end - $start" | bc)
  calls=$(wc -c < "$run/calls" | tr -d ' ')
  tokens=$(python3 "$bench/tokens.py" --lang "$lang" "$run/red/$input")
  if [ "$tool" = reduce ] && [ -s "$run/stats.json" ]; then
    cpu=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['reducer_cpu_seconds'])" \
      "$run/stats.json")
  else
    cpu=$(awk 'NR == FNR { t += $1 + $2; next } { c += $1 + $2 } END { print t - c }' \
      "$run/total-cpu" "$run/check-cpu")
  fi
  printf '| %s | %s | %s | %.0f | %s | %s | %.1f |\n' "$name" "$tool" "$j" "$wall" "$calls" \
    "$tokens" "$cpu"
}

echo "| case | tool | -j | wall s | calls | tokens | reducer CPU s |"
echo "|---|---|---:|---:|---:|---:|---:|"
for case in "$@"; do
  if [ -d "$case" ]; then cdir=$(cd "$case" && pwd); else cdir=$bench/cases/$case; fi
  name=$(basename "$cdir")
  input=$(awk 'tolower($1) == "input:" { print $2; exit }' "$cdir/meta.txt")
  lang=$(awk 'tolower($1) == "lang:" { print $2; exit }' "$cdir/meta.txt")
  memo=$work/memo-$name
  mkdir -p "$memo"
  for tool in $tools; do
    case $tool in
      shrinkray) command -v shrinkray > /dev/null || continue ;;
      cvise) command -v cvise > /dev/null || continue ;;
    esac
    for j in $jobs; do
      if [ "$warmup" = 1 ] && [ "$j" -ge 8 ]; then
        pass=warm run_one > /dev/null
      fi
      pass=run run_one
    done
  done
done
