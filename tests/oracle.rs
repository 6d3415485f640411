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
    let ps = std::process::Command::new("pgrep")
        .args(["-f", "reduce-fixture-hang-marker"])
        .output()
        .unwrap();
    assert!(
        ps.stdout.is_empty(),
        "a timed-out test left processes: {}",
        String::from_utf8_lossy(&ps.stdout)
    );
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
    let ps = std::process::Command::new("pgrep")
        .args(["-f", "reduce-fixture-slow-marker"])
        .output()
        .unwrap();
    assert!(
        ps.stdout.is_empty(),
        "cancelled tests left processes: {}",
        String::from_utf8_lossy(&ps.stdout)
    );
    sb.assert_no_temp_left();
}
