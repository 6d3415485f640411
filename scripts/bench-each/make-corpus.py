"""A crash directory for fixtures/two-bugs/target.c, as a fuzzer might
leave it: records of random tags around the bytes that trigger each bug.
Usage: make-corpus.py DIR (writes a-NN.bin, b-NN.bin, n-NN.bin)."""
import os
import random
import sys

rng = random.Random(45)
out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def noise(n):
    """Harmless records: skipped bytes and values below 4."""
    parts = []
    for _ in range(n):
        if rng.random() < 0.5:
            parts.append(b"V" + bytes([rng.randrange(4)]))
        else:
            parts.append(bytes([rng.choice(b"xyzHDR")]) * rng.randrange(1, 6))
    return b"".join(parts)


for i in range(12):
    # Bug A: a name longer than its 8-byte buffer.
    name = bytes(rng.randrange(256) for _ in range(rng.randrange(9, 40)))
    data = noise(rng.randrange(5, 60)) + b"N" + bytes([len(name)]) + name + noise(rng.randrange(0, 30))
    open(os.path.join(out, f"a-{i:02}.bin"), "wb").write(data + b"\x00")
for i in range(8):
    # Bug B: a value of 4 or more, whose slot is null.
    data = noise(rng.randrange(5, 60)) + b"V" + bytes([rng.randrange(4, 200)])
    open(os.path.join(out, f"b-{i:02}.bin"), "wb").write(data + b"\x00")
for i in range(4):
    open(os.path.join(out, f"n-{i:02}.bin"), "wb").write(noise(20) + b"\x00")
