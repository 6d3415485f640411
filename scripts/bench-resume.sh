#!/bin/sh
# Kills a run of one shared-bench case with SIGKILL at 25%, 50% and 75% of
# the uninterrupted run's oracle calls, reruns the same command (which
# resumes from the journal), and compares the result, the total oracle
# calls and wall time with one uninterrupted run; then the journal's cost:
# its size per 1000 verdicts and the wall time of a run writing to a file
# (with a journal) against one writing to standard output (without).
#
#   [PCTS="25 50 75"] scripts/bench-resume.sh [CASE] [REDUCE] [JOBS]
# e.g. scripts/bench-resume.sh c-kitten-gcc-ice-mem-ref-addr target/release/reduce 1
set -eu
case_name=${1:-c-kitten-gcc-ice-mem-ref-addr}
reduce=$(realpath "${2:-target/release/reduce}")
jobs=${3:-1}
bench=${BENCH:-/work/shared/bench}
src="$bench/cases/$case_name"
input=$(ls "$src" | grep -v -e '^check.sh$' -e '^meta.txt$' | head -n 1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src/$input" "$src/check.sh" "$work/"
cd "$work"
# The oracle as the runs see it: counts its runs, then asks the case's.
printf '#!/bin/sh\necho >> %s/calls\nexec %s/check.sh "$@"\n' "$work" "$work" > counted.sh
chmod +x counted.sh
calls() { [ -f calls ] && wc -l < calls || echo 0; }
now() { date +%s.%N; }
run() { "$reduce" -q -j "$jobs" --oracle ./counted.sh "$input" "$@"; }

rm -f calls
t0=$(now); run -o whole.out; t1=$(now)
whole=$(calls)
whole_wall=$(echo "$t1 - $t0" | bc)
echo "uninterrupted: calls=$whole wall=${whole_wall}s bytes=$(wc -c < whole.out)"

for pct in ${PCTS:-25 50 75}; do
    rm -f calls out.c out.c.reduce-journal
    at=$((whole * pct / 100))
    t0=$(now)
    "$reduce" -q -j "$jobs" --oracle ./counted.sh "$input" -o out.c &
    pid=$!
    while [ "$(calls)" -lt "$at" ]; do sleep 0.01; done
    kill -9 "$pid"; wait "$pid" 2>/dev/null || true
    t1=$(now)
    killed=$(calls)
    verdicts=$(grep -c '^v ' out.c.reduce-journal || true)
    jbytes=$(wc -c < out.c.reduce-journal)
    run -o out.c
    t2=$(now)
    total=$(calls)
    same=no; cmp -s out.c whole.out && same=yes
    echo "kill at $pct%: killed after $killed calls (journal $verdicts verdicts, $jbytes bytes);" \
        "total calls=$total ($(echo "scale=3; $total / $whole" | bc)x)" \
        "wall=$(echo "$t2 - $t0" | bc)s (rerun $(echo "$t2 - $t1" | bc)s) same=$same"
done

# The journal's cost: a file output keeps one, standard output none.
rm -f calls out.c.reduce-journal
t0=$(now); run -o - > nojournal.out; t1=$(now)
echo "without a journal (-o -): wall=$(echo "$t1 - $t0" | bc)s same=$(cmp -s nojournal.out whole.out && echo yes || echo no)"
