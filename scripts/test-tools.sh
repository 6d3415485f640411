#!/usr/bin/env bash
# Installs what the fixtures' oracles need beyond gcc, g++, python3, node,
# rustc, javac and bash (which every machine of this project has), when it
# is missing: the Go toolchain (Debian's golang-go, for fixtures/go-mismatch)
# and TypeScript's tsc (npm, under /opt/tsc, for fixtures/typescript-store);
# and the formatters the `--format native` tests run on C and Python
# results: Debian's clang-format (a few hundred KB: the LLVM libraries it
# needs come with the machine) and black (rustfmt comes with the toolchain);
# and afl++ (Debian's package: afl-clang-fast, for the forkserver tests).
# Needs root for apt-get. Used by the README's test command and by .ci/run.
set -euo pipefail
if ! command -v go >/dev/null; then
  apt-get update -qq && apt-get install -y -qq golang-go >/dev/null
fi
if ! command -v tsc >/dev/null && [ ! -x /opt/tsc/node_modules/.bin/tsc ]; then
  npm install --silent --prefix /opt/tsc typescript@5 >/dev/null
fi
if ! command -v clang-format >/dev/null || ! command -v black >/dev/null; then
  apt-get update -qq && apt-get install -y -qq clang-format black >/dev/null
fi
if ! command -v afl-clang-fast >/dev/null; then
  apt-get update -qq && apt-get install -y -qq afl++ >/dev/null
fi
