//! Interruption, limits and refusals through the binary (issue 6).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{Sandbox, assert_exit};

fn slow_case(sb: &Sandbox, marker: &str) -> Vec<u8> {
    let text: String = (0..60).map(|i| format!("{i}\n")).collect();
    sb.write("in.txt", &text, false);
    sb.write(
        "slow.sh",
        &format!(
            "#!/bin/sh\nsh -c 'sleep 0.2' {marker}\ngrep -qx 7 \"$1\" && grep -qx 31 \"$1\"\n"
        ),
        true,
    );
    text.into_bytes()
}

/// Starts a slow reduction, sends `signal` after a while, returns (exit code, stderr).
fn interrupt(sb: &Sandbox, signal: i32) -> (Option<i32>, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_reduce"))
        .args([
            "--algo", "ddmin", "--unit", "line", "-j", "2", "--oracle", "slow.sh", "in.txt",
        ])
        .current_dir(sb.path())
        .env("TMPDIR", sb.tmp())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: sending a signal to our own child process.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    let started = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "stopping took too long"
    );
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn assert_nothing_left(sb: &Sandbox, marker: &str) {
    let ps = Command::new("pgrep").args(["-f", marker]).output().unwrap();
    assert!(
        ps.stdout.is_empty(),
        "processes left: {}",
        String::from_utf8_lossy(&ps.stdout)
    );
    sb.assert_no_temp_left();
}

#[test]
fn sigint_stops_with_130_and_leaves_an_interesting_result() {
    let sb = Sandbox::new();
    let original = slow_case(&sb, "reduce-fixture-sigint-marker");
    let (code, err) = interrupt(&sb, libc::SIGINT);
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    assert_eq!(sb.read("in.txt"), original);
    let out = sb.path().join("in.reduced.txt");
    assert!(out.exists(), "no result was saved: {err}");
    assert!(sb.oracle_accepts("slow.sh", &out, "in.txt"));
    assert_nothing_left(&sb, "reduce-fixture-sigint-marker");
}

#[test]
fn sigterm_stops_with_143_and_sighup_with_129() {
    for (signal, code) in [(libc::SIGTERM, 143), (libc::SIGHUP, 129)] {
        let sb = Sandbox::new();
        let marker = format!("reduce-fixture-signal-{signal}-marker");
        let original = slow_case(&sb, &marker);
        let (got, err) = interrupt(&sb, signal);
        assert_eq!(got, Some(code), "{err}");
        assert_eq!(sb.read("in.txt"), original);
        assert_nothing_left(&sb, &marker);
    }
}

#[test]
fn max_tests_stops_cleanly_with_exit_0_and_says_the_result_may_not_be_minimal() {
    let sb = Sandbox::new();
    sb.fixture("lines");
    let out = sb.reduce(&[
        "--algo",
        "ddmin",
        "--unit",
        "line",
        "--max-tests",
        "3",
        "--oracle",
        "needs-2-and-7.sh",
        "numbers.txt",
        "--stats-json",
        "s.json",
    ]);
    assert_exit(&out, 0);
    assert!(String::from_utf8_lossy(&out.stderr).contains("may not be minimal"));
    let s: serde_json::Value = serde_json::from_slice(&sb.read("s.json")).unwrap();
    assert_eq!(s["stop_reason"], "max-tests");
    assert!(s["oracle_calls"].as_u64().unwrap() <= 3);
    assert!(sb.oracle_accepts(
        "needs-2-and-7.sh",
        &sb.path().join("numbers.reduced.txt"),
        "numbers.txt"
    ));
}

#[test]
fn bad_inputs_and_flags_are_refused_with_one_clear_line() {
    let sb = Sandbox::new();
    sb.fixture("lines");
    sb.write("empty.txt", "", false);
    let cases: [(&[&str], i32, &str); 8] = [
        (
            &["--oracle", "needs-2-and-7.sh", "missing.txt"],
            1,
            "cannot read the input missing.txt",
        ),
        (
            &["--oracle", "needs-2-and-7.sh", "tmp"],
            1,
            "is a directory",
        ),
        (
            &["--oracle", "needs-2-and-7.sh", "empty.txt"],
            1,
            "is empty",
        ),
        (
            &[
                "--oracle",
                "needs-2-and-7.sh",
                "numbers.txt",
                "--timeout",
                "0",
            ],
            2,
            "--timeout must be a positive",
        ),
        (
            &["--oracle", "needs-2-and-7.sh", "numbers.txt", "-j", "0"],
            2,
            "at least 1",
        ),
        (
            &[
                "--oracle",
                "needs-2-and-7.sh",
                "numbers.txt",
                "--algo",
                "magic",
            ],
            2,
            "possible values",
        ),
        (
            &[
                "--oracle",
                "needs-2-and-7.sh",
                "numbers.txt",
                "--inner",
                "magic",
            ],
            2,
            "possible values",
        ),
        (
            &[
                "--oracle",
                "needs-2-and-7.sh",
                "numbers.txt",
                "--algo",
                "hdd",
            ],
            1,
            "needs a parse tree",
        ),
    ];
    for (args, code, message) in cases {
        let out = sb.reduce(args);
        assert_exit(&out, code);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{args:?}: {err}");
    }
    sb.assert_no_temp_left();
}
