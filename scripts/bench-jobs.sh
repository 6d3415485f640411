#!/bin/sh
# -j 2 against -j 1 on shared bench cases: each case reduced with the default
# pipeline at -j 1 and then at -j 2, back to back, one run at a time. Prints a
# Markdown row per case: wall seconds at each, their ratio, whether the two
# results are byte-identical, oracle calls at each, tests started on a guessed
# pass, the reducer's own CPU time as a share of wall time at each, and the
# result's size in tokens (../shared/bench/tokens.py).
# Usage: scripts/bench-jobs.sh [CASE...]   (default: every case)
# Needs a release build (cargo build --release) and ../shared/bench.
# BENCH_CASES overrides the cases directory; CAP the per-run cap in seconds.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/target/release/reduce
cases=${BENCH_CASES:-$root/../shared/bench/cases}
cap=${CAP:-300}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ $# -gt 0 ] || set -- $(ls "$cases")
echo "| case | -j 1 wall s | -j 2 wall s | -j 2 / -j 1 | same result | calls -j 1 / -j 2 | guessed passes | reducer CPU -j 1 | reducer CPU -j 2 | tokens |"
echo "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|"
for case in "$@"; do
  input=$(awk '$1 == "input:" { print $2 }' "$cases/$case/meta.txt")
  for j in 1 2; do
    dir=$work/$case-j$j
    mkdir -p "$dir"
    cp "$cases/$case"/* "$dir/"
    (cd "$dir" && "$bin" -j "$j" --oracle ./check.sh "$input" -o result -q \
      --stats-json stats.json --max-time "$cap" > log 2>&1) || true
  done
  lang=$(awk '$1 == "lang:" { print $2 }' "$cases/$case/meta.txt")
  python3 - "$work" "$case" "$cases/../tokens.py" "$lang" <<'ROW'
import filecmp, json, subprocess, sys
work, case, tokens_py, lang = sys.argv[1:]
tokens = subprocess.run([sys.executable, tokens_py, f"{work}/{case}-j2/result", "--lang", lang],
                        capture_output=True, text=True).stdout.strip() or "?"
one, two = (json.load(open(f"{work}/{case}-j{j}/stats.json")) for j in (1, 2))
same = filecmp.cmp(f"{work}/{case}-j1/result", f"{work}/{case}-j2/result", shallow=False)
share = lambda s: f"{100 * s['reducer_cpu_seconds'] / s['wall_seconds']:.1f}%"
print(f"| {case} | {one['wall_seconds']:.1f} | {two['wall_seconds']:.1f} | "
      f"{two['wall_seconds'] / one['wall_seconds']:.2f} | {'yes' if same else 'no'} | "
      f"{one['oracle_calls']} / {two['oracle_calls']} | {two['guessed_pass_tests']} | "
      f"{share(one)} | {share(two)} | {tokens} |", flush=True)
ROW
done
