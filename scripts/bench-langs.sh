#!/usr/bin/env bash
# Runs the language cases of scripts/bench-langs/ (one folder per case:
# input, check.sh, meta.txt) through the shared bench runner, one run at a
# time: `reduce` (default pipeline, the language from the extension),
# `reduce --lang text` (lines and tokens, as before the language had a
# grammar) and C-Vise (`--not-c --n 2`), each capped at CAP seconds.
#
# Usage: scripts/bench-langs.sh REDUCE_BINARY [CASE_GLOB] [TOOLS]
#   TOOLS: a space-separated list among `reduce text cvise` (default all).
# Appends one key=value line per run to $OUT (default
# /tmp/bench-langs.txt); tokens are counted by the bench's tokens.py.
# The cases' oracles need python3, node, rustc, javac (17), bash, the Go
# toolchain (`apt-get install golang-go`) and TypeScript's tsc (`npm
# install --prefix /opt/tsc typescript@5`, or tsc on the PATH or in $TSC).
set -uo pipefail
# The real python3 and rustc first on the PATH, for every tool alike.
. "$(dirname "$0")/real-tools.sh"
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "$1")
glob=${2:-*}
tools=${3:-reduce text cvise}
bench=${BENCH:-$here/../shared/bench}
cap=${CAP:-600}
out=${OUT:-/tmp/bench-langs.txt}
for case in "$here"/scripts/bench-langs/$glob/; do
  for tool in $tools; do
    case $tool in
      reduce) LABEL=reduce "$bench/run.sh" "cmd:$bin -j 2 -q --oracle {oracle} {file} --in-place" "$case" "$cap" ;;
      text) LABEL=reduce-text "$bench/run.sh" "cmd:$bin -j 2 -q --lang text --oracle {oracle} {file} --in-place" "$case" "$cap" ;;
      cvise) "$bench/run.sh" cvise "$case" "$cap" ;;
    esac | tee -a "$out"
  done
done
