"""Writes the binary crash inputs of scripts/bench-afl-tmin.sh into the
directory given: chunks.bin (a CHNK file whose one long TEXT chunk, among
30 other chunks, overflows show_text's buffer) and the tests' two-bug
input (copied by the script)."""
import random
import struct
import sys

out = sys.argv[1]
rng = random.Random(38)
chunks = []
for i in range(30):
    kind = rng.choice([b"SUM ", b"DATA", b"META", b"TEXT"])
    size = rng.randrange(8, 80)
    if kind == b"TEXT":
        body = bytes(rng.randrange(33, 127) for _ in range(min(size, 20))) + b"\0" * max(0, size - 20)
    else:
        body = bytes(rng.randrange(256) for _ in range(size))
    chunks.append(struct.pack(">I", len(body)) + kind + body)
bug = b"TEXT", bytes(rng.randrange(65, 91) for _ in range(48))
chunks.insert(22, struct.pack(">I", len(bug[1])) + bug[0] + bug[1])
with open(f"{out}/chunks.bin", "wb") as f:
    f.write(b"CHNK" + b"".join(chunks))
