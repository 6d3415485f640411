#!/bin/bash
# reduce --same-crash against afl-tmin on binary crash inputs, side by side:
# final bytes, executions of the target, wall time, and which bug each
# result still shows. Installs afl++ (Debian's package) when afl-tmin is
# missing; the tests do not need it.
#
#   scripts/bench-afl-tmin.sh            # release build of reduce, -j 1
#   REDUCE=target/debug/reduce JOBS=2 scripts/bench-afl-tmin.sh
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
        awk '/ERROR: AddressSanitizer: / { t = $3 } t && / #[0-9]+ 0x/ && $4 !~ /^__interceptor/ { print t, $4; exit }'
}

seconds() { date +%s.%N; }

printf '| case | input bytes | tool | bytes | executions | wall (s) | ends on |\n'
printf '| --- | ---: | --- | ---: | ---: | ---: | --- |\n'
for target in chunks two-bugs; do
    input=$target.bin
    size=$(stat -c %s "$input")
    start=$(seconds)
    AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 afl-tmin -i "$input" -o "$target.tmin" -- "./$target" @@ >"$target.tmin.log" 2>&1
    wall=$(echo "$(seconds) - $start" | bc)
    execs=$(sed 's/\x1b\[[0-9;]*m//g' "$target.tmin.log" | awk -F: '/Number of execs done/ { gsub(/ /, "", $2); print $2 }')
    printf '| %s | %d | afl-tmin | %d | %s | %.1f | %s |\n' "$target" "$size" "$(stat -c %s "$target.tmin")" \
        "$execs" "$wall" "$(bug "$target" "$target.tmin")"
    : >count
    start=$(seconds)
    "$reduce" --same-crash --run "echo >>$work/count; ./$target {}" "$input" -o "$target.reduce" \
        -j "$jobs" -q --stats-json "$target.json"
    wall=$(echo "$(seconds) - $start" | bc)
    printf '| %s | %d | reduce -j %s | %d | %d | %.1f | %s |\n' "$target" "$size" "$jobs" \
        "$(stat -c %s "$target.reduce")" "$(wc -l <count)" "$wall" "$(bug "$target" "$target.reduce")"
done
