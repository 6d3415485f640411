//! `--run` through AFL++'s forkserver (issue 45): a target built by
//! afl-clang-fast is started once and forks a child per test, with the
//! result a fresh process per test gives; a child that hangs is killed at
//! the timeout and the server goes on. Needs afl-clang-fast
//! (scripts/test-tools.sh installs Debian's afl++).

use std::fs;

use crate::util::{Sandbox, assert_exit, stats, succeeds_quietly};

/// A `main` around the four-bug target's (built with `-Dmain=target_main`)
/// that logs, for every run, whether its parent is the same program (a
/// forkserver's child) or not (a fresh process); with `HANG_BELOW=N` it
/// hangs on inputs shorter than N bytes.
const WRAPPER: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
int target_main(int argc, char **argv);
int main(int argc, char **argv) {
    char self[4096] = {0}, parent[4096] = {0}, link[64];
    readlink("/proc/self/exe", self, sizeof self - 1);
    snprintf(link, sizeof link, "/proc/%d/exe", (int)getppid());
    readlink(link, parent, sizeof parent - 1);
    const char *log = getenv("RUNS_LOG");
    FILE *f = log ? fopen(log, "a") : NULL;
    if (f) {
        fputs(strcmp(self, parent) == 0 ? "forked\n" : "started\n", f);
        fclose(f);
    }
    struct stat st;
    const char *below = getenv("HANG_BELOW");
    if (below && argc > 1 && stat(argv[1], &st) == 0 && st.st_size < atoi(below)) {
        for (;;) pause();
    }
    return target_main(argc, argv);
}
"#;

/// The four-bug fixture with its target built by afl-clang-fast (with
/// AddressSanitizer) around [`WRAPPER`].
fn afl_target() -> Sandbox {
    let sb = Sandbox::new();
    sb.fixture("four-bugs");
    sb.write("wrapper.c", WRAPPER, false);
    let afl = |args: &[&str]| {
        let mut cc = std::process::Command::new("afl-clang-fast");
        cc.args(["-g", "-O0"]).args(args).current_dir(sb.path());
        cc.env("AFL_USE_ASAN", "1").env("AFL_QUIET", "1");
        assert!(
            succeeds_quietly(&mut cc),
            "afl-clang-fast failed or is missing: scripts/test-tools.sh installs it"
        );
    };
    afl(&["-Dmain=target_main", "-c", "target.c", "-o", "target.o"]);
    afl(&["target.o", "wrapper.c", "-o", "target"]);
    sb
}

/// How many runs the log says were forked, and how many started afresh.
fn runs(sb: &Sandbox, log: &str) -> (usize, usize) {
    let text = String::from_utf8(sb.read(log)).unwrap();
    let forked = text.lines().filter(|l| *l == "forked").count();
    (forked, text.lines().count() - forked)
}

const RUN: [&str; 4] = [
    "--same-crash",
    "--run",
    "./target {}",
    "crashes/heap-00.bin",
];

#[test]
fn an_afl_target_is_forked_by_its_forkserver_with_the_result_of_fresh_processes() {
    let sb = afl_target();
    let log = sb.path().join("forked.log");
    let env = [("RUNS_LOG", log.to_str().unwrap())];
    let out = sb.reduce_env(
        &[&RUN[..], &["-o", "forked.bin", "-q", "-j", "2"]].concat(),
        &env,
    );
    assert_exit(&out, 0);
    let (forked, started) = runs(&sb, "forked.log");
    assert!(
        forked > 20 && started == 0,
        "{forked} forked, {started} started"
    );

    let log = sb.path().join("fresh.log");
    let env = [("RUNS_LOG", log.to_str().unwrap())];
    let args = [
        &RUN[..],
        &["-o", "fresh.bin", "-q", "-j", "2", "--no-forkserver"],
    ]
    .concat();
    assert_exit(&sb.reduce_env(&args, &env), 0);
    let (forked, started) = runs(&sb, "fresh.log");
    assert!(
        forked == 0 && started > 20,
        "{forked} forked, {started} started"
    );

    let result = sb.read("forked.bin");
    assert_eq!(result, sb.read("fresh.bin"));
    assert_eq!(result, b"CHK1I\x01\x09");
    // A second run on the result changes nothing.
    fs::copy(sb.path().join("forked.bin"), sb.path().join("again.bin")).unwrap();
    let again = ["--same-crash", "--run", "./target {}", "again.bin", "-q"];
    assert_exit(&sb.reduce(&[&again[..], &["-o", "again.out"]].concat()), 0);
    assert_eq!(sb.read("again.out"), result);
    sb.assert_no_temp_left();
}

#[test]
fn a_forked_child_that_hangs_is_killed_at_the_timeout_and_the_server_goes_on() {
    let sb = afl_target();
    let log = sb.path().join("runs.log");
    let env = [("RUNS_LOG", log.to_str().unwrap()), ("HANG_BELOW", "7")];
    let args = [
        &RUN[..],
        &["-o", "out.bin", "-q", "-j", "1", "--timeout", "0.5"],
    ]
    .concat();
    let out = sb.reduce_env(&[&args[..], &["--stats-json", "s.json"]].concat(), &env);
    assert_exit(&out, 0);
    let s = stats(&sb, "s.json");
    assert!(s["timeouts"].as_u64().unwrap() >= 1, "{s}");
    assert_eq!(sb.read("out.bin"), b"CHK1I\x01\x09");
    let (forked, started) = runs(&sb, "runs.log");
    assert!(
        forked > 20 && started == 0,
        "{forked} forked, {started} started"
    );
    sb.assert_no_temp_left();
}
