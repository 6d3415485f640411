#!/bin/sh
# Simulated cluster: how wall time scales with -j when each oracle test waits
# on a scheduler. Every test goes through fixtures/cluster/slow-launcher.sh
# (LAUNCH_LATENCY_MS + up to LAUNCH_JITTER_MS of random delay, defaults 300 +
# 300 here) and the oracle needs 4 of 200 lines. Prints one line per -j with
# wall time, oracle tests, the reducer's own CPU time, and whether the result
# equals the first run's.
# Usage: scripts/bench-cluster.sh [JOBS...]   (default: 1 4 8 16 32 128)
# Needs a release build: cargo build --release.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/target/release/reduce
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seq 1 200 > "$work/lines.txt"
cat > "$work/check.sh" <<'CHECK'
#!/bin/sh
grep -qx 17 "$1" && grep -qx 64 "$1" && grep -qx 128 "$1" && grep -qx 199 "$1"
CHECK
chmod +x "$work/check.sh"
export LAUNCH_LATENCY_MS=${LAUNCH_LATENCY_MS:-300} LAUNCH_JITTER_MS=${LAUNCH_JITTER_MS:-300}
cd "$work"
[ $# -gt 0 ] || set -- 1 4 8 16 32 128
for j in "$@"; do
  start=$(date +%s.%N)
  "$bin" --algo ddmin --unit line -j "$j" --launcher "$root/fixtures/cluster/slow-launcher.sh" \
    --oracle ./check.sh lines.txt -o "out-$j.txt" -q --stats-json "stats-$j.json"
  end=$(date +%s.%N)
  tests=$(python3 -c "import json; print(json.load(open('stats-$j.json'))['oracle_calls'])" 2>/dev/null || echo '?')
  cpu=$(python3 -c "import json; print(round(json.load(open('stats-$j.json'))['reducer_cpu_seconds'], 2))" 2>/dev/null || echo '?')
  same=$(cmp -s "out-$j.txt" "out-$1.txt" && echo yes || echo no)
  echo "jobs=$j wall_s=$(echo "$end - $start" | bc) tests=$tests reducer_cpu_s=$cpu same_as_first=$same"
done
