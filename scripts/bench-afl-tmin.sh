#!/bin/bash
# reduce --same-crash against afl-tmin on binary crash inputs, one file at
# a time: final bytes, executions of the target, wall time, and which bug
# each result still shows. Installs afl++ (Debian's package) when afl-tmin
# is missing; the tests do not need it.
#
#   scripts/bench-afl-tmin.sh                      # release build of reduce, -j 1
#   REDUCE=target/debug/reduce JOBS=2 scripts/bench-afl-tmin.sh
#   FLAGS=--no-forkserver scripts/bench-afl-tmin.sh  # every test started afresh
#
# Both tools run the same binary, built by afl-clang-fast with
# AddressSanitizer: afl-tmin gets its coverage map, and reduce forks the
# tests through its forkserver (unless FLAGS says otherwise). afl-tmin
# keeps any crash (its default crash mode); reduce keeps the original's
# signature. Executions are counted by the target itself (count.c: a line
# appended to $COUNT_FILE at every run), the same way for both tools.
#
# The cases: the three of docs/benchmarks.md (chunks, two-bugs, records),
# then each of the forty files of fixtures/four-bugs/crashes on its own
# (one summary row per tool: totals, and the files where reduce took no
# longer and ended no larger).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
if ! command -v afl-tmin >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq afl++ >/dev/null
fi
reduce=${REDUCE:-$root/target/release/reduce}
[ -x "$reduce" ] || (cd "$root" && cargo build --release -q)
jobs=${JOBS:-1}
flags=${FLAGS:-}
label="reduce -j $jobs${flags:+ $flags}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$root/fixtures/two-bugs/target.c" "$work/two-bugs.c"
cp "$root/fixtures/two-bugs/crash.bin" "$work/two-bugs.bin"
cp "$root/fixtures/four-bugs/target.c" "$work/four-bugs.c"
cp "$here/bench-afl-tmin/chunks.c" "$work/chunks.c"
python3 "$here/bench-afl-tmin/make-cases.py" "$work"
cd "$work"
for target in two-bugs chunks four-bugs; do
    AFL_USE_ASAN=1 AFL_QUIET=1 afl-clang-fast -g -O0 -Dmain=target_main -c "$target.c" -o "$target.o"
    AFL_USE_ASAN=1 AFL_QUIET=1 afl-clang-fast -g -O0 "$target.o" "$here/bench-afl-tmin/count.c" -o "$target"
done
export COUNT_FILE=$work/count

# The bug a file shows: the sanitizer's error type and its first frame.
bug() {
    ASAN_OPTIONS=detect_leaks=0 COUNT_FILE= "./$1" "$2" 2>&1 >/dev/null |
        awk '/ERROR: AddressSanitizer: / { t = $3 == "attempting" ? $4 : $3 } t && / #[0-9]+ 0x/ && $4 !~ /^(__(interceptor|asan)_|free$)/ { print t, $4; exit }'
}

seconds() { date +%s.%N; }

# tool target input output: runs one tool, prints "wall executions".
run() {
    : >count
    local start wall
    start=$(seconds)
    if [ "$1" = afl-tmin ]; then
        AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 afl-tmin -i "$3" -o "$4" -- "./$2" @@ >/dev/null 2>&1
    else
        # shellcheck disable=SC2086
        "$reduce" --same-crash --run "./$2 {}" "$3" -o "$4" -j "$jobs" -q $flags
    fi
    wall=$(echo "$(seconds) - $start" | bc)
    echo "$wall $(wc -l <count)"
}

printf '| case | input bytes | tool | bytes | executions | wall (s) | ends on |\n'
printf '| --- | ---: | --- | ---: | ---: | ---: | --- |\n'
# case, target, input
cases="chunks chunks chunks.bin
two-bugs two-bugs two-bugs.bin
records two-bugs records.bin"
echo "$cases" | while read -r name target input; do
    size=$(stat -c %s "$input")
    for tool in afl-tmin reduce; do
        read -r wall execs < <(run "$tool" "$target" "$input" "$name.$tool")
        shown=$tool
        [ "$tool" = reduce ] && shown=$label
        printf '| %s | %d | %s | %d | %d | %.2f | %s |\n' "$name" "$size" "$shown" \
            "$(stat -c %s "$name.$tool")" "$execs" "$wall" "$(bug "$target" "$name.$tool")"
    done
done

# The forty corpus files, each on its own.
python3 "$root/fixtures/four-bugs/make-corpus.py" corpus
: >rows
for f in corpus/*; do
    name=$(basename "$f")
    for tool in afl-tmin reduce; do
        read -r wall execs < <(run "$tool" four-bugs "$f" "$name.$tool")
        echo "$name $tool $wall $execs $(stat -c %s "$name.$tool") $(bug four-bugs "$name.$tool" | tr ' ' /)" >>rows
    done
done
python3 - "$label" <<'PY'
import os
import sys
rows = [line.split() for line in open("rows")]
by = {}
for name, tool, wall, execs, size, bug in rows:
    by.setdefault(name, {})[tool] = (float(wall), int(execs), int(size), bug)
kept = {"stack": "stack-buffer-overflow/show_text", "heap": "heap-buffer-overflow/read_index",
        "uaf": "heap-use-after-free/use_slots", "null": "SEGV/read_values"}
for tool, shown in (("afl-tmin", "afl-tmin"), ("reduce", sys.argv[1])):
    runs = [r[tool] for r in by.values()]
    same = sum(1 for n, r in by.items() if r[tool][3] == kept[n.split("-")[0]])
    size = sum(os.path.getsize(f"corpus/{n}") for n in by)
    print(f"| four-bugs, 40 files one by one | {size} in all | {shown} | "
          f"{sum(r[2] for r in runs)} | {sum(r[1] for r in runs)} | {sum(r[0] for r in runs):.2f} | "
          f"its own bug on {same} of 40 |")
faster = sum(1 for r in by.values() if r["reduce"][0] <= r["afl-tmin"][0])
smaller = sum(1 for r in by.values() if r["reduce"][2] <= r["afl-tmin"][2])
print(f"\nreduce took no longer than afl-tmin on {faster} of 40 files, ended no larger on {smaller} of 40")
slow = sorted(by.items(), key=lambda kv: kv[1]["afl-tmin"][0] - kv[1]["reduce"][0])[:3]
print("least ahead (afl-tmin s, reduce s): " + ", ".join(
    f"{n} {r['afl-tmin'][0]:.2f}/{r['reduce'][0]:.2f}" for n, r in slow))
PY
