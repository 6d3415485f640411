#!/bin/sh
# Kills a run of `reduce` on a directory of files (a copy of DIR/src, with
# DIR/check.sh as the oracle) with SIGKILL at 25%, 50% and 75% of the
# uninterrupted run's oracle calls, reruns the same command (which resumes
# from the journal beside the output directory), and compares the result
# tree, the total oracle calls and wall time with one uninterrupted run.
#
#   [PCTS="25 50 75"] scripts/bench-resume-set.sh [DIR] [REDUCE] [JOBS]
# e.g. scripts/bench-resume-set.sh fixtures/multi-c target/debug/reduce 1
set -eu
dir=$(realpath "${1:-fixtures/multi-c}")
reduce=$(realpath "${2:-target/release/reduce}")
jobs=${3:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$dir/src" "$dir/check.sh" "$work/"
cd "$work"
# The oracle as the runs see it: counts its runs, then asks the case's.
printf '#!/bin/sh\necho >> %s/calls\nexec %s/check.sh "$@"\n' "$work" "$work" > counted.sh
chmod +x counted.sh
calls() { [ -f calls ] && wc -l < calls || echo 0; }
now() { date +%s.%N; }
run() { "$reduce" -q -j "$jobs" --oracle ./counted.sh src "$@"; }

rm -f calls
t0=$(now); run -o whole; t1=$(now)
whole=$(calls)
echo "uninterrupted: calls=$whole wall=$(echo "$t1 - $t0" | bc)s bytes=$(cat whole/* | wc -c)"

for pct in ${PCTS:-25 50 75}; do
    rm -rf calls out out.reduce-journal
    at=$((whole * pct / 100))
    t0=$(now)
    "$reduce" -q -j "$jobs" --oracle ./counted.sh src -o out &
    pid=$!
    while [ "$(calls)" -lt "$at" ]; do sleep 0.01; done
    kill -9 "$pid"; wait "$pid" 2>/dev/null || true
    t1=$(now)
    killed=$(calls)
    verdicts=$(grep -c '^v ' out.reduce-journal || true)
    run -o out
    t2=$(now)
    total=$(calls)
    same=no; diff -r out whole > /dev/null && same=yes
    echo "kill at $pct%: killed after $killed calls (journal $verdicts verdicts);" \
        "resumed $((total - killed)) calls; total calls=$total ($(echo "scale=3; $total / $whole" | bc)x)" \
        "wall=$(echo "$t2 - $t0" | bc)s (rerun $(echo "$t2 - $t1" | bc)s) same=$same" \
        "journal left=$([ -e out.reduce-journal ] && echo yes || echo no)"
done
