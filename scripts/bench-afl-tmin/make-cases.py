"""Writes the binary crash inputs of scripts/bench-afl-tmin.sh into the
directory given:

- chunks.bin: a CHNK file (chunks.c) whose one long TEXT chunk, among 30
  other chunks, overflows show_text's buffer;
- records.bin: 1,500 bytes of random records for the tests' two-bug target
  (fixtures/two-bugs/target.c), values and names within bounds but one
  name of 30 bytes (the heap overflow), as a fuzzer might find it.

(The tests' own crash.bin is copied by the script.)"""
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

# Random bytes that are no tag, 'V' records with values below 4, 'N'
# records of at most 8 bytes, and the overflowing name two thirds in.
data = bytearray()
while len(data) < 1500:
    roll = rng.random()
    if roll < 0.15:
        data += b"V" + bytes([rng.randrange(4)])
    elif roll < 0.25:
        n = rng.randrange(9)
        data += b"N" + bytes([n]) + bytes(rng.randrange(256) for _ in range(n))
    else:
        b = rng.randrange(256)
        while b in (ord("N"), ord("V")):
            b = rng.randrange(256)
        data.append(b)
cut = len(data) * 2 // 3
data[cut:cut] = b"N" + bytes([30]) + bytes(rng.randrange(256) for _ in range(30))
with open(f"{out}/records.bin", "wb") as f:
    f.write(bytes(data))
