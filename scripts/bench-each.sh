#!/bin/bash
# A fuzzer's crash directory: afl-tmin on every file (its results grouped
# by the bug each shows) against one `reduce --same-crash --each` command.
# The corpus: the forty files of fixtures/four-bugs/crashes (four bugs, a
# chunked-format reader), its target built once by afl-clang-fast with
# AddressSanitizer and run by both tools; executions counted by the target
# itself (scripts/bench-afl-tmin/count.c). Installs afl++ when afl-tmin is
# missing.
#
#   scripts/bench-each.sh      Env: REDUCE (default target/release/reduce),
#                              JOBS (reduce's -j, default 2), FLAGS (more
#                              of reduce's options, e.g. --no-forkserver).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v afl-tmin >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq afl++ >/dev/null
fi
reduce=${REDUCE:-$root/target/release/reduce}
[ -x "$reduce" ] || (cd "$root" && cargo build --release -q)
jobs=${JOBS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
AFL_USE_ASAN=1 AFL_QUIET=1 afl-clang-fast -g -O0 -Dmain=target_main -c "$root/fixtures/four-bugs/target.c" -o target.o
AFL_USE_ASAN=1 AFL_QUIET=1 afl-clang-fast -g -O0 target.o "$root/scripts/bench-afl-tmin/count.c" -o target
export COUNT_FILE=$work/count
seconds() { date +%s.%N; }
# The bug a file shows: the sanitizer's error type and its first frame.
bug() {
    ASAN_OPTIONS=detect_leaks=0 COUNT_FILE= ./target "$1" 2>&1 >/dev/null |
        awk '/ERROR: AddressSanitizer: / { t = $3 == "attempting" ? $4 : $3 } t && / #[0-9]+ 0x/ && $4 !~ /^(__(interceptor|asan)_|free$)/ { print t "/" $4; exit }'
}

echo '| tool | files | wall (s) | executions | one result per bug, smallest (bytes) |'
echo '| --- | ---: | ---: | ---: | --- |'
: >count
mkdir tmin
start=$(seconds)
for f in "$root"/fixtures/four-bugs/crashes/*; do
    AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 afl-tmin -i "$f" -o "tmin/$(basename "$f")" -- ./target @@ >/dev/null 2>&1
done
wall=$(echo "$(seconds) - $start" | bc)
execs=$(wc -l <count)
for f in tmin/*; do echo "$(bug "$f") $(stat -c %s "$f")"; done |
    sort -k1,1 -k2,2n | awk '$1 != last { printf "%s%s: %s", sep, $1, $2; sep = ", "; last = $1 } END { print "" }' >groups
printf '| afl-tmin, file by file | %d | %.2f | %d | %s |\n' \
    "$(ls tmin | wc -l)" "$wall" "$execs" "$(cat groups)"

: >count
start=$(seconds)
# shellcheck disable=SC2086
"$reduce" --same-crash --run "./target {}" --each "$root/fixtures/four-bugs/crashes" -o each \
    -j "$jobs" -q ${FLAGS:-}
wall=$(echo "$(seconds) - $start" | bc)
groups=$(for f in each/*.bin; do echo "$(bug "$f") $(stat -c %s "$f")"; done | sort | awk '{ printf "%s%s: %s", sep, $1, $2; sep = ", " }')
printf '| reduce --each -j %s | %d | %.2f | %d | %s |\n' "$jobs" \
    "$(ls "$root/fixtures/four-bugs/crashes" | wc -l)" "$wall" "$(wc -l <count)" "$groups"
python3 -c "import json; r = json.load(open('each/report.json')); print('report.json: executions', r['executions'], '| groups', len(r['groups']), '| files listed', sum(len(g['inputs']) for g in r['groups']) + len(r.get('not_reproducible', [])))"
