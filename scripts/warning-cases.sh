#!/bin/sh
# Extra benchmark cases with compiler-warning oracles (docs/benchmarks.md,
# "Other oracles on the same inputs"): the shared bench's crash cases are
# all crashes, while users also reduce warnings, where the result must
# still compile. w1-w9 are cut from the shared bench's inputs; x1-x4 from
# csmith programs (Debian's csmith 2.3.0, fixed seeds, preprocessed).
#
# Usage: scripts/warning-cases.sh make DIR
#          writes DIR/CASE/{small.c,orig.c,check.sh} for every case;
#          check.sh appends a line to DIR/CASE/calls per call
#        scripts/warning-cases.sh run DIR TOOL [CASE...]
#          TOOL: reduce ($REDUCE, default target/release/reduce; -j 2) or
#          cvise (cvise --n 2); the result goes to DIR/CASE/result.c;
#          prints one line per case: tokens (../shared/bench/tokens.py),
#          oracle calls (cancelled speculative ones included), wall seconds
# Needs gcc, clang-14 (w4-w6), csmith and its header (x1-x4; Debian
# packages csmith and libcsmith-dev), cvise for TOOL cvise.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cases=${BENCH_CASES:-$root/../shared/bench/cases}
tokens=$cases/../tokens.py
[ $# -ge 2 ] || { sed -n '2,17p' "$0" >&2; exit 2; }
mode=$1
dir=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2

# case NAME INPUT COMPILER PATTERN: one case whose oracle runs COMPILER
# (which must succeed) and greps its output for PATTERN.
case_() {
  mkdir -p "$dir/$1"
  cp "$2" "$dir/$1/orig.c"
  cp "$2" "$dir/$1/small.c"
  cat > "$dir/$1/check.sh" <<EOF
#!/bin/sh
f=\${1:-small.c}
echo x >> "$dir/$1/calls"
out=\$(LC_ALL=C timeout 10 $3 "\$f" -o /dev/null 2>&1) || exit 1
printf '%s\n' "\$out" | grep -q -- '$4' || exit 1
EOF
  chmod +x "$dir/$1/check.sh"
}

make_cases() {
  gcc_o1="gcc -c -O1 -Wall -Wextra"
  gcc_o2="gcc -c -O2 -Wall -Wextra"
  clang="clang-14 -c -O1 -Weverything"
  gcc65383=$cases/c-perses-gcc65383-clang14-asm-constraint/small.c
  clang22382=$cases/c-perses-clang22382-clang14-fp-stackifier/small.c
  gcc71626=$cases/c-perses-gcc71626-gcc-ice-convert-move/small.c
  memref=$cases/c-kitten-gcc-ice-mem-ref-addr/mutant.c
  case_ w1 "$gcc65383" "$gcc_o1" 'comparison is always false due to limited range of data type'
  case_ w2 "$clang22382" "$gcc_o1" 'changes value from'
  case_ w3 "$gcc65383" "$gcc_o1" 'set but not used \[-Wunused-but-set-variable\]'
  case_ w4 "$gcc71626" "$clang" 'comparing floating point with == or != is unsafe'
  case_ w5 "$memref" "$clang" 'drops volatile qualifier'
  case_ w6 "$gcc71626" "$clang" 'changes the ABI'
  case_ w7 "$gcc65383" "$gcc_o2" '\[-Wbool-compare\]'
  case_ w8 "$clang22382" "$gcc_o2" '\[-Wsign-compare\]'
  case_ w9 "$clang22382" "$gcc_o2" '\[-Wtype-limits\]'
  tmp=$(mktemp -d)
  for seed in 44 55; do
    # csmith writes platform.info into its working directory.
    (cd "$tmp" && csmith --seed "$seed" > "s$seed.c")
    gcc -E -P -I/usr/include/csmith "$tmp/s$seed.c" > "$tmp/p$seed.c"
  done
  case_ x1 "$tmp/p44.c" "$gcc_o1" '\[-Waddress\]'
  case_ x2 "$tmp/p44.c" "$gcc_o1" '\[-Wtautological-compare\]'
  case_ x3 "$tmp/p55.c" "$gcc_o1" '\[-Wpointer-sign\]'
  case_ x4 "$tmp/p44.c" "$gcc_o1" '\[-Wignored-qualifiers\]'
  rm -rf "$tmp"
  for c in "$dir"/*/; do
    (cd "$c" && ./check.sh small.c) || echo "warning: $c: the input is not interesting" >&2
    rm -f "$c/calls"
  done
}

run_cases() {
  tool=$1
  shift
  [ $# -gt 0 ] || set -- $(cd "$dir" && ls)
  for c in "$@"; do
    d=$dir/$c
    cp "$d/orig.c" "$d/small.c"
    rm -f "$d/calls"
    start=$(date +%s.%N)
    case $tool in
      reduce) (cd "$d" && "${REDUCE:-$root/target/release/reduce}" -j 2 --oracle ./check.sh \
                 small.c -o result.c -q) ;;
      cvise) (cd "$d" && cvise --n 2 ./check.sh small.c > cvise.log 2>&1 && cp small.c result.c) ;;
      *) echo "unknown tool $tool" >&2; exit 2 ;;
    esac
    end=$(date +%s.%N)
    printf '%s %s tokens=%s calls=%s wall=%.1f\n' "$c" "$tool" \
      "$(python3 "$tokens" "$d/result.c")" "$(wc -l < "$d/calls")" \
      "$(echo "$end - $start" | bc)"
  done
}

case $mode in
  make) make_cases ;;
  run) run_cases "$@" ;;
  *) sed -n '2,17p' "$0" >&2; exit 2 ;;
esac
