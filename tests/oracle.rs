//! How `reduce` runs oracle scripts: conventions, timeouts, refusals (issue 2).

use crate::util::{Sandbox, assert_exit, assert_invariants};

#[test]
fn a_c_reduce_style_script_reads_the_candidate_by_name() {
    let sb = Sandbox::new();
    sb.fixture("creduce-style");
    let original = sb.read("numbers.txt");
    let args = ["--unit", "line"];
    let out = sb.reduce(&[
        "--unit",
        "line",
        "--oracle",
        "check.sh",
        "numbers.txt",
        "-q",
    ]);
    assert_exit(&out, 0);
    assert_eq!(sb.read("numbers.reduced.txt"), b"2\n7\n");
    assert_invariants(
        &sb,
        "check.sh",
        "numbers.txt",
        &original,
        "numbers.reduced.txt",
        &args,
    );
}

#[test]
fn a_hanging_test_times_out_and_leaves_no_process_behind() {
    let sb = Sandbox::new();
    sb.fixture("hang");
    let out = sb.reduce(&[
        "--unit",
        "line",
        "--algo",
        "ddmin",
        "--timeout",
        "1",
        "--oracle",
        "check.sh",
        "numbers.txt",
        "--stats-json",
        "s.json",
        "-q",
    ]);
    assert_exit(&out, 0);
    // Line 5 cannot go: without it the test hangs and times out.
    assert_eq!(sb.read("numbers.reduced.txt"), b"2\n5\n7\n");
    let s: serde_json::Value = serde_json::from_slice(&sb.read("s.json")).unwrap();
    assert!(s["timeouts"].as_u64().unwrap() >= 1);
    crate::util::assert_no_process("reduce-fixture-hang-marker");
    sb.assert_no_temp_left();
}

#[test]
fn a_script_that_is_not_executable_is_refused_before_anything_runs() {
    let sb = Sandbox::new();
    sb.fixture("not-executable");
    let out = sb.reduce(&["--oracle", "check.sh", "numbers.txt"]);
    assert_exit(&out, 4);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not executable"), "{err}");
    assert!(!sb.path().join("numbers.reduced.txt").exists());
}

#[test]
fn a_missing_script_or_a_directory_is_refused() {
    let sb = Sandbox::new();
    sb.fixture("lines");
    let out = sb.reduce(&["--oracle", "nonesuch.sh", "numbers.txt"]);
    assert_exit(&out, 4);
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not exist"));
    let out = sb.reduce(&["--oracle", "tmp", "numbers.txt"]);
    assert_exit(&out, 4);
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a directory"));
}

#[test]
fn an_original_that_is_not_interesting_exits_3_with_a_recipe() {
    let sb = Sandbox::new();
    sb.fixture("lines");
    sb.write("numbers.txt", "1\n2\n3\n", false);
    let out = sb.reduce(&["--oracle", "needs-2-and-7.sh", "numbers.txt"]);
    assert_exit(&out, 3);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not interesting") && err.contains("mktemp -d") && err.contains("exit code 1"),
        "{err}"
    );
    assert!(!sb.path().join("numbers.reduced.txt").exists());
    sb.assert_no_temp_left();
}

#[test]
fn an_output_in_a_missing_directory_is_refused_before_the_first_test() {
    let sb = Sandbox::new();
    sb.fixture("lines");
    sb.write(
        "count.sh",
        "#!/bin/sh\necho x >> \"$(dirname \"$0\")/calls\"\ngrep -qx 2 \"$1\"\n",
        true,
    );
    let out = sb.reduce(&[
        "--oracle",
        "count.sh",
        "numbers.txt",
        "-o",
        "no/such/dir/out.txt",
    ]);
    assert_exit(&out, 1);
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not exist"));
    assert!(
        !sb.path().join("calls").exists(),
        "the oracle ran before the output was checked"
    );
}

#[test]
fn cancelled_speculative_tests_leave_no_process_and_no_temp_dir() {
    let sb = Sandbox::new();
    let text: String = (0..40).map(|i| format!("{i}\n")).collect();
    sb.write("in.txt", &text, false);
    // Every test spends a while in a grandchild, so commits cancel running tests.
    sb.write(
        "slow.sh",
        "#!/bin/sh\nsh -c 'sleep 0.3' reduce-fixture-slow-marker\ngrep -qx 7 \"$1\" && grep -qx 31 \"$1\"\n",
        true,
    );
    let out = sb.reduce(&[
        "--algo",
        "ddmin",
        "--unit",
        "line",
        "-j",
        "4",
        "--oracle",
        "slow.sh",
        "in.txt",
        "--stats-json",
        "s.json",
        "-q",
    ]);
    assert_exit(&out, 0);
    assert_eq!(sb.read("in.reduced.txt"), b"7\n31\n");
    let s: serde_json::Value = serde_json::from_slice(&sb.read("s.json")).unwrap();
    assert!(
        s["wasted_tests"].as_u64().unwrap() > 0,
        "no test was cancelled: {s}"
    );
    crate::util::assert_no_process("reduce-fixture-slow-marker");
    sb.assert_no_temp_left();
}

/// Numbers 1..=n, one per line.
fn numbers(n: u32) -> String {
    (1..=n).map(|i| format!("{i}\n")).collect()
}

#[test]
fn a_flaky_original_is_refused_with_exit_3_by_the_default_double_run() {
    let sb = Sandbox::new();
    sb.write("in.txt", &numbers(8), false);
    // Passes on the first call only, which mkdir (atomic) tells apart
    // from the others: the baseline runs may run at once.
    sb.write(
        "flaky.sh",
        "#!/bin/sh\nmkdir \"$(dirname \"$0\")/called\" 2>/dev/null && grep -qx 2 \"$1\"\n",
        true,
    );
    let out = sb.reduce(&["--oracle", "flaky.sh", "in.txt"]);
    assert_exit(&out, 3);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("flaky") && err.contains("passed 1 of 2 runs") && err.contains("--recheck"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(!sb.path().join("in.reduced.txt").exists());
    assert_eq!(sb.read("in.txt"), numbers(8).as_bytes());
    sb.assert_no_temp_left();
}

#[test]
fn check_flaky_n_runs_the_original_n_times() {
    let sb = Sandbox::new();
    sb.write("in.txt", &numbers(8), false);
    // Only the third call fails: the default check (two runs) does not see
    // it (the third call is an empty-file probe), `--check-flaky 3` does.
    // The calls are counted with mkdir, which is atomic: tests run at once.
    sb.write(
        "third.sh",
        "#!/bin/sh\nd=\"$(dirname \"$0\")/calls\"\nmkdir -p \"$d\"\nn=many\n\
         for i in 1 2 3 4; do mkdir \"$d/$i\" 2>/dev/null && { n=$i; break; }; done\n\
         [ $n != 3 ] && grep -qx 2 \"$1\" && grep -qx 7 \"$1\"\n",
        true,
    );
    // Two jobs: with more, the probes would run beside the baseline.
    let out = sb.reduce(&[
        "-j",
        "2",
        "--check-flaky",
        "3",
        "--oracle",
        "third.sh",
        "in.txt",
    ]);
    assert_exit(&out, 3);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("passed 2 of 3 runs"), "{err}");
    assert!(
        sb.path().join("calls/3").exists(),
        "fewer runs than asked for"
    );
    assert!(
        !sb.path().join("calls/4").exists(),
        "more runs than asked for"
    );

    std::fs::remove_dir_all(sb.path().join("calls")).unwrap();
    let args = ["--unit", "line"];
    let out = sb.reduce(&[
        "-j", "2", "--unit", "line", "--oracle", "third.sh", "in.txt", "-q",
    ]);
    assert_exit(&out, 0);
    assert_eq!(sb.read("in.reduced.txt"), b"2\n7\n");
    let original = numbers(8).into_bytes();
    assert_invariants(
        &sb,
        "third.sh",
        "in.txt",
        &original,
        "in.reduced.txt",
        &args,
    );
}

/// A script whose verdict on a candidate without line 3 is "interesting" the
/// first time it sees that candidate and "not interesting" afterwards; line
/// 7 is always needed. Only `3` and `7` together pass every time.
pub(crate) fn lucky_pass_script(sb: &Sandbox) {
    sb.write(
        "lucky.sh",
        "#!/bin/sh\nstate=\"$(dirname \"$0\")/seen\"\nmkdir -p \"$state\"\n\
         key=$(cksum < \"$1\" | cut -d' ' -f1)\nseen=no\n[ -e \"$state/$key\" ] && seen=yes\n\
         touch \"$state/$key\"\ngrep -qx 7 \"$1\" || exit 1\ngrep -qx 3 \"$1\" && exit 0\n[ $seen = no ]\n",
        true,
    );
}

#[test]
fn recheck_keeps_a_lucky_pass_from_being_committed() {
    for jobs in ["1", "3"] {
        let sb = Sandbox::new();
        let original = numbers(10).into_bytes();
        sb.write("in.txt", &numbers(10), false);
        lucky_pass_script(&sb);
        let args = ["--unit", "line", "--recheck", "-j", jobs];
        let mut run = args.to_vec();
        run.extend(["--oracle", "lucky.sh", "in.txt"]);
        let out = sb.reduce(&run);
        assert_exit(&out, 0);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("failed the re-check"), "{err}");
        assert_eq!(sb.read("in.reduced.txt"), b"3\n7\n", "-j {jobs}");
        assert_invariants(
            &sb,
            "lucky.sh",
            "in.txt",
            &original,
            "in.reduced.txt",
            &args,
        );
    }
}

#[test]
fn without_recheck_a_lucky_pass_fails_the_final_check_with_exit_1() {
    let sb = Sandbox::new();
    sb.write("in.txt", &numbers(10), false);
    lucky_pass_script(&sb);
    let out = sb.reduce(&[
        "--unit", "line", "-j", "1", "--oracle", "lucky.sh", "in.txt",
    ]);
    assert_exit(&out, 1);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no longer interesting") && err.contains("--recheck"),
        "{err}"
    );
    assert_eq!(sb.read("in.txt"), numbers(10).as_bytes());
    sb.assert_no_temp_left();
}

#[test]
fn recheck_counts_the_retest_and_keeps_parallel_results_identical() {
    let sb = Sandbox::new();
    sb.fixture("lines");
    let base = [
        "--unit",
        "line",
        "--algo",
        "ddmin",
        "--oracle",
        "needs-2-and-7.sh",
    ];
    let run = |extra: &[&str], stats: &str| {
        let mut args = base.to_vec();
        args.extend(extra);
        args.extend(["numbers.txt", "-o", "out.txt", "--stats-json", stats, "-q"]);
        assert_exit(&sb.reduce(&args), 0);
        (sb.read("out.txt"), crate::util::stats(&sb, stats))
    };
    let (plain, p) = run(&["-j", "1"], "plain.json");
    let (serial, s) = run(&["-j", "1", "--recheck"], "serial.json");
    let (parallel, _) = run(&["-j", "4", "--recheck"], "parallel.json");
    assert_eq!(plain, b"2\n7\n");
    assert_eq!(serial, plain);
    assert_eq!(parallel, plain);
    let successes = p["successes"].as_u64().unwrap();
    assert!(successes > 0);
    assert_eq!(s["successes"], p["successes"]);
    assert_eq!(
        s["oracle_calls"].as_u64().unwrap(),
        p["oracle_calls"].as_u64().unwrap() + successes,
        "each success is re-tested once, and counted"
    );
    let original = sb.read("numbers.txt");
    assert_invariants(
        &sb,
        "needs-2-and-7.sh",
        "numbers.txt",
        &original,
        "out.txt",
        &["--unit", "line", "--algo", "ddmin", "--recheck"],
    );
}

#[test]
fn an_oracle_that_needs_files_beside_the_input_is_diagnosed() {
    let sb = Sandbox::new();
    let original = numbers(8).into_bytes();
    sb.write("in.txt", &numbers(8), false);
    sb.write("ref.txt", "2\n", false);
    // Reads ref.txt from its working directory.
    sb.write(
        "relative.sh",
        "#!/bin/sh\n[ -e ref.txt ] && grep -qx \"$(cat ref.txt)\" \"$1\" && grep -qx 7 \"$1\"\n",
        true,
    );
    let out = sb.reduce(&["--oracle", "relative.sh", "in.txt"]);
    assert_exit(&out, 3);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("passes on")
            && err.contains("not in a fresh temporary directory")
            && err.contains("absolute paths")
            && err.contains("--copy FILE"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert_eq!(sb.read("in.txt"), original);
    sb.assert_no_temp_left();

    // The fix the message names works.
    let args = ["--unit", "line", "--copy", "ref.txt"];
    let mut run = args.to_vec();
    run.extend(["--oracle", "relative.sh", "in.txt", "-q"]);
    assert_exit(&sb.reduce(&run), 0);
    assert_eq!(sb.read("in.reduced.txt"), b"2\n7\n");
    assert_invariants(
        &sb,
        "relative.sh",
        "in.txt",
        &original,
        "in.reduced.txt",
        &args,
    );
}

#[test]
fn the_diagnosis_run_cannot_change_the_input() {
    let sb = Sandbox::new();
    sb.write("in.txt", &numbers(8), false);
    sb.write("ref.txt", "", false);
    // Appends to the file it checks, and needs ref.txt beside it.
    sb.write(
        "vandal.sh",
        "#!/bin/sh\necho vandalized >> \"$1\"\n[ -e ref.txt ] && grep -qx 2 \"$1\"\n",
        true,
    );
    // Truncates the file it checks and never passes.
    sb.write("wrecker.sh", "#!/bin/sh\n: > \"$1\"\nexit 1\n", true);
    for (script, says) in [("vandal.sh", "passes on"), ("wrecker.sh", "mktemp -d")] {
        let out = sb.reduce(&["--oracle", script, "in.txt"]);
        assert_exit(&out, 3);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(says) && err.contains("original content was restored"),
            "{script}: {err}"
        );
        assert_eq!(sb.read("in.txt"), numbers(8).as_bytes(), "{script}");
        sb.assert_no_temp_left();
    }
}

#[test]
fn an_oracle_that_accepts_an_empty_file_is_refused_unless_allow_empty() {
    let sb = Sandbox::new();
    let original = numbers(8).into_bytes();
    sb.write("in.txt", &numbers(8), false);
    // Accepts anything without a 5, the empty file included.
    sb.write("no-5.sh", "#!/bin/sh\n! grep -qx 5 \"$1\"\n", true);
    sb.write("small.txt", "1\n2\n3\n", false);
    let out = sb.reduce(&["--oracle", "no-5.sh", "small.txt"]);
    assert_exit(&out, 3);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("too permissive")
            && err.contains("an empty file")
            && err.contains("--allow-empty"),
        "{err}"
    );
    assert!(!sb.path().join("small.reduced.txt").exists());
    // Rejects the empty file but accepts a lone newline.
    sb.write("non-empty.sh", "#!/bin/sh\ntest -s \"$1\"\n", true);
    let out = sb.reduce(&["--oracle", "non-empty.sh", "in.txt"]);
    assert_exit(&out, 3);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("only a newline"), "{err}");
    assert!(!sb.path().join("in.reduced.txt").exists());
    sb.assert_no_temp_left();

    let args = ["--unit", "line", "--allow-empty"];
    let mut run = args.to_vec();
    run.extend(["--oracle", "non-empty.sh", "in.txt", "-o", "any.txt", "-q"]);
    assert_exit(&sb.reduce(&run), 0);
    assert_eq!(sb.read("any.txt").len(), 2, "one line is left");
    assert_invariants(&sb, "non-empty.sh", "in.txt", &original, "any.txt", &args);
}

#[test]
fn with_workers_for_both_the_empty_file_probes_run_beside_the_baseline() {
    let sb = Sandbox::new();
    let original = numbers(8).into_bytes();
    sb.write("in.txt", &numbers(8), false);
    // A run on the original waits for a probe to have started (a file
    // holding no line but an empty one): after the baseline, no probe
    // would ever start, and the original would not be interesting.
    sb.write(
        "after-probe.sh",
        r#"#!/bin/sh
d="$(dirname "$0")"
if ! grep -q . "$1"; then touch "$d/probed"; exit 1; fi
i=0
while [ ! -e "$d/probed" ]; do i=$((i+1)); [ $i -gt 400 ] && exit 1; sleep 0.05; done
grep -qx 2 "$1" && grep -qx 7 "$1"
"#,
        true,
    );
    let args = ["--unit", "line", "-j", "4"];
    let mut run = args.to_vec();
    run.extend([
        "--oracle",
        "after-probe.sh",
        "in.txt",
        "-o",
        "out.txt",
        "-q",
    ]);
    assert_exit(&sb.reduce(&run), 0);
    assert_eq!(sb.read("out.txt"), b"2\n7\n");
    assert_invariants(&sb, "after-probe.sh", "in.txt", &original, "out.txt", &args);
}

#[test]
fn a_probe_beside_the_baseline_is_stopped_at_the_timeout_the_baseline_sets() {
    let sb = Sandbox::new();
    sb.write("in.txt", &numbers(8), false);
    // On a file holding no line but an empty one the oracle hangs for
    // 20 s; the baseline's runs take milliseconds, so the timeout is
    // the shortest one (1 s).
    sb.write(
        "hangs-on-empty.sh",
        r#"#!/bin/sh
d="$(dirname "$0")"
if ! grep -q . "$1"; then
  sh -c 'sleep 20; touch "$1"' reduce-it-probe-marker "$d/finished"
  exit 1
fi
grep -qx 2 "$1" && grep -qx 7 "$1"
"#,
        true,
    );
    let out = sb.reduce(&[
        "--unit",
        "line",
        "-j",
        "4",
        "--oracle",
        "hangs-on-empty.sh",
        "in.txt",
        "-o",
        "out.txt",
        "--stats-json",
        "s.json",
        "-q",
    ]);
    assert_exit(&out, 0);
    assert_eq!(sb.read("out.txt"), b"2\n7\n");
    let s: serde_json::Value = serde_json::from_slice(&sb.read("s.json")).unwrap();
    assert_eq!(s["timeouts"], 0, "no test of the reduction timed out: {s}");
    // Had the run waited for the probe, it would have finished.
    assert!(!sb.path().join("finished").exists());
    crate::util::assert_no_process("reduce-it-probe-marker");
    sb.assert_no_temp_left();
}

#[test]
fn what_a_test_leaves_running_dies_before_the_next_test_starts() {
    let sb = Sandbox::new();
    let original = numbers(8).into_bytes();
    sb.write("in.txt", &numbers(8), false);
    // Every test writes how many leftovers are alive as it starts, then
    // leaves one behind: a process in a session of its own that would
    // live 30 s, handed to reduce (the subreaper) when the script exits,
    // as the top of a fork bomb is once the script's `timeout` killed
    // the processes above it.
    sb.write(
        "leaver.sh",
        "#!/bin/sh\nd=\"$(dirname \"$0\")\"\n\
         pgrep -f reduce-it-leftover-marker | wc -l >> \"$d/alive\"\n\
         setsid sh -c 'sleep 30; :' reduce-it-leftover-marker &\n\
         grep -qx 2 \"$1\" && grep -qx 7 \"$1\"\n",
        true,
    );
    // One test at a time: no empty-file probes beside the baseline.
    let args = [
        "--unit",
        "line",
        "--algo",
        "ddmin",
        "-j",
        "1",
        "--allow-empty",
    ];
    let mut run = args.to_vec();
    run.extend(["--oracle", "leaver.sh", "in.txt", "-q"]);
    assert_exit(&sb.reduce(&run), 0);
    crate::util::assert_no_process("reduce-it-leftover-marker");
    let alive = String::from_utf8(sb.read("alive")).unwrap();
    assert!(alive.lines().count() > 5, "{alive}");
    assert!(
        alive.lines().all(|n| n.trim() == "0"),
        "leftovers of earlier tests were alive: {alive}"
    );
    assert_eq!(sb.read("in.reduced.txt"), b"2\n7\n");
    assert_invariants(
        &sb,
        "leaver.sh",
        "in.txt",
        &original,
        "in.reduced.txt",
        &args,
    );
    // The helpers ran the script directly, outside reduce.
    crate::util::kill_processes("reduce-it-leftover-marker");
}

#[test]
fn a_fork_bomb_in_sessions_of_its_own_dies_with_the_run() {
    let sb = Sandbox::new();
    let original = numbers(8).into_bytes();
    sb.write("in.txt", &numbers(8), false);
    // Every process of the bomb starts a copy of itself in a new session
    // every 20 ms (so a group kill misses it) until its tree has started
    // 48, then sleeps a minute: bounded, so that a run that fails to kill
    // it leaves some dozens of sleepers, not a dead machine. Tests of the
    // final candidate (two lines) start one, the last of them just before
    // the run ends, while its bomb still forks.
    sb.write(
        "reduce-it-bomb.sh",
        "#!/bin/sh\nwhile [ \"$(wc -l < \"$1\")\" -lt 48 ]; do\n\
         echo >> \"$1\"\nsetsid \"$0\" \"$1\" &\nsleep 0.02\ndone\nsleep 60\n",
        true,
    );
    sb.write(
        "bomber.sh",
        "#!/bin/sh\nd=\"$(dirname \"$0\")\"\n\
         grep -qx 2 \"$1\" && grep -qx 7 \"$1\" || exit 1\n\
         if [ \"$(wc -l < \"$1\")\" -eq 2 ]; then\n\
         c=$(mktemp \"$d/count.XXXXXX\")\nsetsid \"$d/reduce-it-bomb.sh\" \"$c\" &\nsleep 0.1\nfi\n",
        true,
    );
    let args = ["--unit", "line", "--algo", "ddmin", "-j", "1"];
    let mut run = args.to_vec();
    run.extend(["--oracle", "bomber.sh", "in.txt", "-q"]);
    assert_exit(&sb.reduce(&run), 0);
    crate::util::assert_no_process("reduce-it-bomb");
    assert_eq!(sb.read("in.reduced.txt"), b"2\n7\n");
    assert_invariants(
        &sb,
        "bomber.sh",
        "in.txt",
        &original,
        "in.reduced.txt",
        &args,
    );
    // The helpers ran the script directly, outside reduce: their bombs
    // stop forking at 48, so killing what is found ends once none is left.
    while !crate::util::kill_processes("reduce-it-bomb")
        .trim()
        .is_empty()
    {}
}

#[test]
fn a_background_child_dies_with_its_test_and_a_setsid_daemon_with_the_run() {
    let sb = Sandbox::new();
    let original = numbers(8).into_bytes();
    sb.write("in.txt", &numbers(8), false);
    // Every test leaves a child in its group that would write `late` after
    // 1 s, and a daemon that leaves the group and would write `finished`
    // after 30 s. A child the group kill missed is either still running
    // when the run ends (if its test was less than 1 s before) or has
    // written `late`; a daemon is only found finished if reduce waited for
    // it instead of killing it with the run.
    sb.write(
        "spawner.sh",
        "#!/bin/sh\nd=\"$(dirname \"$0\")\"\n\
         sh -c 'sleep 1; echo late >> \"$1\"' reduce-it-child-marker \"$d/late\" &\n\
         setsid sh -c 'sleep 30; echo done >> \"$1\"' reduce-it-daemon-marker \"$d/finished\" &\n\
         sleep 0.1\ngrep -qx 2 \"$1\" && grep -qx 7 \"$1\"\n",
        true,
    );
    let args = ["--unit", "line", "--algo", "ddmin", "-j", "1"];
    let mut run = args.to_vec();
    run.extend(["--oracle", "spawner.sh", "in.txt", "-q"]);
    let out = sb.reduce(&run);
    assert_exit(&out, 0);
    let daemon_finished = || sb.path().join("finished").exists();
    assert!(!daemon_finished(), "reduce waited for the daemons");
    assert!(
        !sb.path().join("late").exists(),
        "a test's background child outlived the test"
    );
    crate::util::assert_no_process("reduce-it-child-marker");
    crate::util::assert_no_process("reduce-it-daemon-marker");
    assert_eq!(sb.read("in.reduced.txt"), b"2\n7\n");
    // With -v the daemons hold the output pipes open: the run must not wait for them.
    sb.write("small.txt", "2\n7\n9\n", false);
    let out = sb.reduce(&[
        "-v",
        "--unit",
        "line",
        "--oracle",
        "spawner.sh",
        "small.txt",
    ]);
    assert_exit(&out, 0);
    assert!(!daemon_finished(), "reduce waited for the daemons");
    assert_eq!(sb.read("small.reduced.txt"), b"2\n7\n");
    crate::util::assert_no_process("reduce-it-daemon-marker");
    assert_invariants(
        &sb,
        "spawner.sh",
        "in.txt",
        &original,
        "in.reduced.txt",
        &args,
    );
    // The helpers ran the script directly, outside reduce: clean up after them.
    crate::util::kill_processes("reduce-it-child-marker");
    crate::util::kill_processes("reduce-it-daemon-marker");
}

#[test]
fn a_test_that_ignores_sigterm_is_killed_after_the_grace_period() {
    let sb = Sandbox::new();
    let original = b"2\n5\n7\n9\n".to_vec();
    sb.write("in.txt", "2\n5\n7\n9\n", false);
    // Without line 5 the test hangs, deaf to SIGTERM, in a grandchild
    // too, which writes `finished` if it lives out its 100 s (only if
    // reduce waited for it instead of killing it after the grace period).
    sb.write(
        "deaf.sh",
        "#!/bin/sh\ntrap '' TERM\nd=\"$(dirname \"$0\")\"\nif ! grep -qx 5 \"$1\"; then\n  \
         sh -c \"trap '' TERM; sleep 100; echo done >> '$d/finished'\" reduce-it-deaf-marker\nfi\n\
         grep -qx 2 \"$1\" && grep -qx 7 \"$1\"\n",
        true,
    );
    let args = ["--unit", "line", "--timeout", "1", "-j", "2"];
    let mut run = args.to_vec();
    run.extend([
        "--oracle",
        "deaf.sh",
        "in.txt",
        "--stats-json",
        "s.json",
        "-q",
    ]);
    let out = sb.reduce(&run);
    assert_exit(&out, 0);
    assert!(
        !sb.path().join("finished").exists(),
        "reduce waited for the deaf test to end"
    );
    assert_eq!(sb.read("in.reduced.txt"), b"2\n5\n7\n");
    let s = crate::util::stats(&sb, "s.json");
    assert!(s["timeouts"].as_u64().unwrap() >= 1, "{s}");
    crate::util::assert_no_process("reduce-it-deaf-marker");
    assert_invariants(&sb, "deaf.sh", "in.txt", &original, "in.reduced.txt", &args);
    crate::util::kill_processes("reduce-it-deaf-marker");
}

#[test]
fn gigabytes_of_oracle_output_are_not_kept() {
    let sb = Sandbox::new();
    let original = b"1\n2\n7\n9\n".to_vec();
    sb.write("in.txt", "1\n2\n7\n9\n", false);
    sb.write(
        "loud.sh",
        "#!/bin/sh\nhead -c 200000000 /dev/zero\nhead -c 20000000 /dev/zero >&2\n\
         grep -qx 2 \"$1\" && grep -qx 7 \"$1\"\n",
        true,
    );
    // A data segment of 100 MB is far more than reduce needs, and far less
    // than the output: a reduce that kept the output would die.
    const LIMIT: u64 = 100 << 20;
    let hog = sb.command_with_memory_limit("python3", &["-c", "b = bytearray(200_000_000)"], LIMIT);
    assert!(!hog.status.success(), "the memory limit does not bite");
    let args = ["--unit", "line"];
    let out = sb.reduce_with_memory_limit(
        &[
            "--unit", "line", "-j", "2", "--oracle", "loud.sh", "in.txt", "-q",
        ],
        LIMIT,
    );
    assert_exit(&out, 0);
    assert_eq!(sb.read("in.reduced.txt"), b"2\n7\n");
    // -v shows the output, but only its first 64 KiB per stream and test.
    let out = sb.reduce_with_memory_limit(
        &[
            "-v", "--unit", "line", "--oracle", "loud.sh", "in.txt", "-o", "v.txt", "-j", "1",
        ],
        LIMIT,
    );
    assert_exit(&out, 0);
    assert!(
        out.stderr.len() < 20 * 2 * 64 * 1024,
        "{} bytes of stderr",
        out.stderr.len()
    );
    assert_eq!(sb.read("v.txt"), b"2\n7\n");
    assert_invariants(&sb, "loud.sh", "in.txt", &original, "in.reduced.txt", &args);
}

#[test]
fn an_oracle_that_rewrites_its_directory_cannot_disturb_the_run() {
    let sb = Sandbox::new();
    let original = numbers(8).into_bytes();
    sb.write("in.txt", &numbers(8), false);
    // Checks, then scribbles over the candidate, fills its directory with
    // files and a read-only subdirectory, and removes its TMPDIR.
    sb.write(
        "messy.sh",
        "#!/bin/sh\ngrep -qx 2 \"$1\" && grep -qx 7 \"$1\"\nstatus=$?\n\
         echo garbage > \"$1\"\nfor i in 1 2 3; do echo junk > junk$i; done\n\
         mkdir -p ro/sub && touch ro/sub/f && chmod 500 ro/sub ro\nrm -rf .tmp\nexit $status\n",
        true,
    );
    let args = ["--unit", "line", "-j", "2"];
    let mut run = args.to_vec();
    run.extend(["--oracle", "messy.sh", "in.txt", "-q"]);
    assert_exit(&sb.reduce(&run), 0);
    assert_eq!(sb.read("in.reduced.txt"), b"2\n7\n");
    assert_invariants(
        &sb,
        "messy.sh",
        "in.txt",
        &original,
        "in.reduced.txt",
        &args,
    );
}

#[test]
fn an_oracle_that_cannot_be_started_is_refused_with_exit_4_and_says_why() {
    let sb = Sandbox::new();
    sb.write("in.txt", &numbers(8), false);
    sb.write(
        "bad-interpreter.sh",
        "#!/nonexistent/bin/sh\nexit 0\n",
        true,
    );
    sb.write("no-shebang.sh", "exit 0\n", true);
    for (script, message) in [
        (
            "bad-interpreter.sh",
            "its interpreter `/nonexistent/bin/sh`",
        ),
        ("no-shebang.sh", "starting with #!"),
    ] {
        let out = sb.reduce(&["--oracle", script, "in.txt"]);
        assert_exit(&out, 4);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{script}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(!sb.path().join("in.reduced.txt").exists());
    }
    assert_eq!(sb.read("in.txt"), numbers(8).as_bytes());
    sb.assert_no_temp_left();
}

#[test]
fn a_machine_whose_dev_null_is_a_regular_file_is_refused_with_one_line() {
    let sb = Sandbox::new();
    sb.write("in.txt", &numbers(8), false);
    sb.write("keep.sh", "#!/bin/sh\ngrep -qx 2 \"$1\"\n", true);
    let fake = sb.write("fake-null", "", false);
    // A private mount namespace: the file covers /dev/null for `reduce`
    // alone (the tests run as root), never for the host.
    let mut command = crate::util::quiet("unshare");
    command
        .args(["-m", "--propagation", "private", "sh", "-c"])
        .arg("mount --bind \"$0\" /dev/null && exec \"$@\"")
        .arg(&fake)
        .arg(env!("CARGO_BIN_EXE_reduce"))
        .args(["--oracle", "keep.sh", "in.txt"])
        .current_dir(sb.path())
        .env("TMPDIR", sb.tmp());
    let out = crate::util::run_quietly(&mut command);
    assert_exit(&out, 4);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/dev/null is not a character device"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(!sb.path().join("in.reduced.txt").exists());
    sb.assert_no_temp_left();
    use std::os::unix::fs::FileTypeExt;
    let host = std::fs::metadata("/dev/null").unwrap().file_type();
    assert!(host.is_char_device(), "the host's /dev/null was touched");
}

/// Whether `/dev/shm` is what `reduce` takes for test directories when
/// `TMPDIR` is unset: a writable tmpfs, not mounted noexec, with 1 GiB free.
fn dev_shm_is_roomy_tmpfs() -> bool {
    let mounts = std::fs::read_to_string("/proc/mounts").unwrap_or_default();
    let Some(options) = mounts.lines().find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        (fields.len() > 3 && fields[1] == "/dev/shm" && fields[2] == "tmpfs").then(|| fields[3])
    }) else {
        return false;
    };
    let free = crate::util::quiet("df")
        .args(["--output=avail", "-B1", "/dev/shm"])
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .nth(1)?
                .trim()
                .parse::<u64>()
                .ok()
        })
        .unwrap_or(0);
    let writable = tempfile::tempdir_in("/dev/shm").is_ok();
    !options.split(',').any(|o| o == "noexec" || o == "ro") && free >= 1 << 30 && writable
}

#[test]
fn without_tmpdir_tests_run_in_dev_shm_when_it_is_a_roomy_tmpfs_and_leave_nothing_there() {
    let sb = Sandbox::new();
    let log = sb.path().join("dirs.log");
    sb.write(
        "check.sh",
        &format!(
            "#!/bin/sh\nprintf '%s %s\\n' \"$(pwd)\" \"$TMPDIR\" >> {}\ngrep -q 7 \"$1\"\n",
            log.display()
        ),
        true,
    );
    sb.write("numbers.txt", &numbers(12), false);
    let out = crate::util::run_quietly(
        sb.command(&[
            "--unit",
            "line",
            "--oracle",
            "check.sh",
            "numbers.txt",
            "-q",
            "-j",
            "2",
        ])
        .env_remove("TMPDIR"),
    );
    assert_exit(&out, 0);
    assert_eq!(sb.read("numbers.reduced.txt"), b"7\n");
    let expected = if dev_shm_is_roomy_tmpfs() {
        std::path::PathBuf::from("/dev/shm")
    } else {
        std::path::PathBuf::from("/tmp")
    };
    let lines = std::fs::read_to_string(&log).unwrap();
    // The baseline's by-hand probe may run beside the input; every test
    // proper runs in a fresh directory under the expected place, with its
    // own TMPDIR inside it, and none of them is left.
    let test_dirs: Vec<(&str, &str)> = lines
        .lines()
        .filter_map(|l| l.split_once(' '))
        .filter(|(cwd, _)| std::path::Path::new(cwd) != sb.path())
        .collect();
    assert!(test_dirs.len() > 3, "too few tests logged: {lines}");
    for (cwd, tmpdir) in test_dirs {
        let cwd = std::path::Path::new(cwd);
        assert_eq!(
            cwd.parent(),
            Some(expected.as_path()),
            "test ran in {cwd:?}"
        );
        assert!(std::path::Path::new(tmpdir).starts_with(cwd));
        assert!(!cwd.exists(), "{cwd:?} was left behind");
    }
    let original = numbers(12);
    assert_invariants(
        &sb,
        "check.sh",
        "numbers.txt",
        original.as_bytes(),
        "numbers.reduced.txt",
        &["--unit", "line"],
    );
}

#[test]
fn an_oracle_keeping_its_cache_in_the_shared_directory_starts_cold_once_and_leaves_nothing() {
    let sb = Sandbox::new();
    let original = numbers(12);
    sb.write("in.txt", &original, false);
    // Its cache starts cold when the directory is new (mkdir is atomic:
    // tests run two at once), and, under `reduce`, a process that left the
    // test's group goes on writing into the test's directory after the
    // test ends.
    sb.write(
        "cached.sh",
        "#!/bin/sh\nc=\"${REDUCE_CACHE_DIR:-$(mktemp -d)}/cache\"\n\
         if mkdir \"$c\" 2>/dev/null && [ -n \"$COLD\" ]; then echo cold >> \"$COLD\"; fi\n\
         echo x > \"$c/entry.$$\"\n\
         [ -z \"$REDUCE_CACHE_DIR\" ] || setsid sh -c 'i=0; while [ $i -lt 300 ]; do : > \"w$i\"; i=$((i+1)); done' >/dev/null 2>&1 &\n\
         grep -qx 2 \"$1\" && grep -qx 7 \"$1\"\n",
        true,
    );
    let cold = sb.path().join("cold.log");
    let args = ["--unit", "line", "-j", "2"];
    let mut run = args.to_vec();
    run.extend(["--oracle", "cached.sh", "in.txt", "--stats-json", "s.json"]);
    let out = sb.reduce_env(&run, &[("COLD", cold.to_str().unwrap())]);
    assert_exit(&out, 0);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("cannot remove") && !err.contains("not empty"),
        "{err}"
    );
    let s = crate::util::stats(&sb, "s.json");
    let tests = s["phases"].as_array().unwrap().iter();
    let tests: u64 = tests.map(|p| p["tests"].as_u64().unwrap()).sum();
    assert!(tests > 10, "{s}");
    assert_eq!(crate::util::lines_in(&cold), 1, "cold starts");
    assert_invariants(
        &sb,
        "cached.sh",
        "in.txt",
        original.as_bytes(),
        "in.reduced.txt",
        &args,
    );
}

#[test]
fn an_oracle_leaving_megabytes_in_its_tmpdir_is_told_once_how_to_keep_them() {
    let sb = Sandbox::new();
    sb.write("in.txt", &numbers(8), false);
    sb.write(
        "big.sh",
        "#!/bin/sh\nhead -c 5000000 /dev/zero > \"$TMPDIR/blob\"\ngrep -qx 2 \"$1\"\n",
        true,
    );
    let out = sb.reduce(&["--unit", "line", "--oracle", "big.sh", "in.txt"]);
    assert_exit(&out, 0);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("REDUCE_CACHE_DIR").count(), 2, "{err}");
    assert_eq!(err.matches("leaves more than").count(), 1, "{err}");
    sb.assert_no_temp_left();
}
