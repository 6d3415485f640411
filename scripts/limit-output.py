#!/usr/bin/env python3
"""Passes standard input through to standard output up to LIMIT bytes; fails
if there was more.

Usage: COMMAND 2>&1 | scripts/limit-output.py LIMIT

Meant for `cargo test` (see .ci/run): a test whose child process writes to
the test's own streams floods the log. Past the limit nothing more is
printed, the rest is read and counted, and at the end the filter names the
last `test ...` line seen before the limit was crossed (with the parallel
harness, a test still running then, or one whose line is printed later, may
be the culprit) and exits 1. Within the limit it exits 0, so that under
`set -o pipefail` the pipeline's status is the command's.
"""
import sys

CHUNK = 1 << 16
LINE_KEPT = 4096  # of the current line, enough to recognise a test line


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    limit = int(sys.argv[1])
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    total = 0
    line = b""  # the start of the current line
    last_test = None  # the last complete `test ...` line
    crossed = False
    while True:
        chunk = stdin.read1(CHUNK)
        if not chunk:
            break
        if not crossed:
            kept = chunk[: limit - total]
            stdout.write(kept)
            stdout.flush()
            parts = kept.split(b"\n")
            for done in parts[:-1]:
                line = (line + done)[:LINE_KEPT]
                if line.startswith(b"test ") and not line.startswith(b"test result:"):
                    last_test = line
                line = b""
            line = (line + parts[-1])[:LINE_KEPT]
        total += len(chunk)
        crossed = total > limit
    if not crossed:
        return 0
    culprit = last_test.decode(errors="replace") if last_test else "(none yet)"
    print(
        f"\nlimit-output: {total} bytes of output, more than the limit of {limit};"
        f"\nlimit-output: the last test line before the limit was crossed: {culprit}",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
