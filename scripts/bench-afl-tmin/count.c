/* Counts a target's executions for the benchmarks: built beside a target
 * compiled with -Dmain=target_main, it appends a line to $COUNT_FILE at
 * every run, whichever tool started it (a fresh process, or a child of
 * AFL++'s forkserver), then runs the target. */
#include <stdio.h>
#include <stdlib.h>

int target_main(int argc, char **argv);

int main(int argc, char **argv) {
    const char *path = getenv("COUNT_FILE");
    FILE *f = path ? fopen(path, "a") : NULL;
    if (f) {
        fputs("run\n", f);
        fclose(f);
    }
    return target_main(argc, argv);
}
