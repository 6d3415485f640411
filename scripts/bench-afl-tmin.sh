#!/bin/bash
# reduce --same-crash against afl-tmin on binary crash inputs, side by side:
# final bytes, executions of the target, wall time, and which bug each
# result still shows. Installs afl++ (Debian's package) when afl-tmin is
# missing; the tests do not need it.
#
#   scripts/bench-afl-tmin.sh            # release build of reduce, -j 1
#   REDUCE=target/debug/reduce JOBS=2 scripts/bench-afl-tmin.sh
#   SYMBOLIZE=0 scripts/bench-afl-tmin.sh  # reduce's tests with ASAN_OPTIONS=symbolize=0
#
# Both tools run the same binary, built by afl-clang-fast with
# AddressSanitizer (so that afl-tmin gets its coverage map). afl-tmin keeps
# any crash (its default crash mode); reduce keeps the original's
# signature. reduce's executions are counted by the command itself (one
# line appended per run, the baseline and final checks included).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
if ! command -v afl-tmin >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq afl++ >/dev/null
fi
reduce=${REDUCE:-$root/target/release/reduce}
[ -x "$reduce" ] || (cd "$root" && cargo build --release -q)
jobs=${JOBS:-1}
# AddressSanitizer symbolizes a crash's stack by default (with clang's
# runtime, an llvm-symbolizer process per crashing run): frames are then
# function names; with SYMBOLIZE=0 they are module+offset, and runs faster.
label="reduce -j $jobs"
asan_options=${ASAN_OPTIONS:-}
if [ "${SYMBOLIZE:-1}" = 0 ]; then
    asan_options=symbolize=0
    label="$label, symbolize=0"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$root/fixtures/two-bugs/target.c" "$work/two-bugs.c"
cp "$root/fixtures/two-bugs/crash.bin" "$work/two-bugs.bin"
cp "$here/bench-afl-tmin/chunks.c" "$work/chunks.c"
python3 "$here/bench-afl-tmin/make-cases.py" "$work"
cd "$work"
for target in two-bugs chunks; do
    AFL_USE_ASAN=1 AFL_QUIET=1 afl-clang-fast -g -O0 "$target.c" -o "$target" 2>/dev/null
done

# The bug a file shows: the sanitizer's error type and its first frame.
bug() {
    ASAN_OPTIONS=detect_leaks=0 "./$1" "$2" 2>&1 >/dev/null |
        awk '/ERROR: AddressSanitizer: / { t = $3 } t && / #[0-9]+ 0x/ && $4 !~ /^__(interceptor|asan)_/ { print t, $4; exit }'
}

seconds() { date +%s.%N; }

printf '| case | input bytes | tool | bytes | executions | wall (s) | ends on |\n'
printf '| --- | ---: | --- | ---: | ---: | ---: | --- |\n'
# case, target, input
cases="chunks chunks chunks.bin
two-bugs two-bugs two-bugs.bin
records two-bugs records.bin"
echo "$cases" | while read -r name target input; do
    size=$(stat -c %s "$input")
    start=$(seconds)
    AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 afl-tmin -i "$input" -o "$name.tmin" -- "./$target" @@ >"$name.tmin.log" 2>&1
    wall=$(echo "$(seconds) - $start" | bc)
    execs=$(sed 's/\x1b\[[0-9;]*m//g' "$name.tmin.log" | awk -F: '/Number of execs done/ { gsub(/ /, "", $2); print $2 }')
    printf '| %s | %d | afl-tmin | %d | %s | %.1f | %s |\n' "$name" "$size" "$(stat -c %s "$name.tmin")" \
        "$execs" "$wall" "$(bug "$target" "$name.tmin")"
    : >count
    start=$(seconds)
    ASAN_OPTIONS=$asan_options "$reduce" --same-crash --run "echo >>$work/count; ./$target {}" \
        "$input" -o "$name.reduce" -j "$jobs" -q --stats-json "$name.json"
    wall=$(echo "$(seconds) - $start" | bc)
    printf '| %s | %d | %s | %d | %d | %.1f | %s |\n' "$name" "$size" "$label" \
        "$(stat -c %s "$name.reduce")" "$(wc -l <count)" "$wall" "$(bug "$target" "$name.reduce")"
done
