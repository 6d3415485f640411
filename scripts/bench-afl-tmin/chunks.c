/* A chunked-file parser with one bug, for scripts/bench-afl-tmin.sh.
 *
 * The file is "CHNK", then chunks: a 4-byte big-endian length, a 4-byte
 * type, and that many bytes of data. A "TEXT" chunk's data is copied up
 * to its first NUL into a 32-byte buffer on the stack (the bug: a stack
 * buffer overflow when the text is longer); "SUM " chunks are summed,
 * other chunks skipped; a chunk running past the end stops the parse. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t be32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void show_text(const unsigned char *data, uint32_t len) {
    char text[32];
    uint32_t i = 0;
    while (i < len && data[i] != 0) {
        text[i] = (char)data[i];
        i++;
    }
    if (i < 32) {
        text[i] = 0;
    }
    if (getenv("CHUNKS_VERBOSE")) {
        fwrite(text, 1, i < 32 ? i : 32, stdout);
    }
}

static unsigned sum(const unsigned char *data, uint32_t len) {
    unsigned total = 0;
    for (uint32_t i = 0; i < len; i++) {
        total += data[i];
    }
    return total;
}

int main(int argc, char **argv) {
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : stdin;
    if (!f) {
        return 2;
    }
    static unsigned char data[1 << 16];
    size_t len = fread(data, 1, sizeof data, f);
    if (len < 4 || memcmp(data, "CHNK", 4) != 0) {
        return 1;
    }
    unsigned total = 0;
    size_t at = 4;
    while (at + 8 <= len) {
        uint32_t size = be32(data + at);
        const unsigned char *type = data + at + 4;
        if (size > len - at - 8) {
            break;
        }
        if (memcmp(type, "TEXT", 4) == 0) {
            show_text(data + at + 8, size);
        } else if (memcmp(type, "SUM ", 4) == 0) {
            total += sum(data + at + 8, size);
        }
        at += 8 + size;
    }
    return total == 0xdeadbeef;
}
