//! Interruption, limits and refusals through the binary (issue 6).

use std::process::Stdio;

use crate::util::{
    Sandbox, assert_exit, assert_invariants, assert_no_process, assert_no_process_soon,
    kill_processes, lines_in, signal_delivered, wait_for,
};

fn slow_case(sb: &Sandbox, marker: &str) -> Vec<u8> {
    slow_case_with(sb, "slow.sh", "", "0.2", marker)
}

/// Writes `in.txt` (60 lines) and an oracle `script` that appends a line to
/// `calls` when it starts, runs `prelude`, sleeps `seconds` in a process
/// whose command line holds `marker`, and wants lines 7 and 31; returns
/// the input.
fn slow_case_with(
    sb: &Sandbox,
    script: &str,
    prelude: &str,
    seconds: &str,
    marker: &str,
) -> Vec<u8> {
    let text: String = (0..60).map(|i| format!("{i}\n")).collect();
    sb.write("in.txt", &text, false);
    let calls = sb.path().join("calls");
    sb.write(
        script,
        &format!(
            "#!/bin/sh\necho >> {}\n{prelude}sh -c 'sleep {seconds}' {marker}\ngrep -qx 7 \"$1\" && grep -qx 31 \"$1\"\n",
            calls.display()
        ),
        true,
    );
    text.into_bytes()
}

/// Waits until the sandbox's oracle has started `calls` times (it appends
/// a line to `calls` each time).
fn wait_for_calls(sb: &Sandbox, calls: usize) {
    let counter = sb.path().join("calls");
    wait_for(&format!("{calls} oracle calls"), || {
        lines_in(&counter) >= calls
    });
}

/// Runs `reduce ARGS` in the sandbox, sends `signal` once its oracle has
/// started `calls` times, and returns its output once it stops, which it
/// must do without starting more than two further tests (the ones that
/// may have been starting as the signal came, at `-j 2`).
fn run_and_signal(sb: &Sandbox, args: &[&str], calls: usize, signal: i32) -> std::process::Output {
    let counter = sb.path().join("calls");
    let _ = std::fs::remove_file(&counter);
    let child = sb.spawn_reduce(args);
    wait_for_calls(sb, calls);
    // SAFETY: sending a signal to our own child process.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    let at_signal = lines_in(&counter);
    let out = child.wait_with_output().unwrap();
    let at_exit = lines_in(&counter);
    assert!(
        at_exit <= at_signal + 2,
        "tests went on after the signal: {at_signal} started before it, {at_exit} at the end"
    );
    out
}

/// Starts a slow reduction, sends `signal` after a while, returns (exit code, stderr).
fn interrupt(sb: &Sandbox, signal: i32) -> (Option<i32>, String) {
    let args = [
        "--algo", "ddmin", "--unit", "line", "-j", "2", "--oracle", "slow.sh", "in.txt",
    ];
    // The checks of the original run it three times; then tests run.
    let out = run_and_signal(sb, &args, 5, signal);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn assert_nothing_left(sb: &Sandbox, marker: &str) {
    crate::util::assert_no_process(marker);
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
fn sigint_at_one_job_stops_the_running_test_without_waiting_for_its_end() {
    let sb = Sandbox::new();
    let marker = "reduce-fixture-one-job-sigint-marker";
    let calls = sb.path().join("calls");
    let finished = sb.path().join("finished");
    // The checks of the original run it three times; the first test after
    // them runs for a minute, unless stopped, then says it finished.
    let prelude = format!(
        "if [ \"$(wc -l < {calls})\" -gt 3 ]; then sh -c 'sleep 60' {marker}; echo >> {finished}; fi\n",
        calls = calls.display(),
        finished = finished.display()
    );
    slow_case_with(&sb, "slow.sh", &prelude, "0", marker);
    let args = [
        "--algo",
        "ddmin",
        "--unit",
        "line",
        "-j",
        "1",
        "--timeout",
        "300",
        "--oracle",
        "slow.sh",
        "in.txt",
    ];
    let out = run_and_signal(&sb, &args, 4, libc::SIGINT);
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !finished.exists(),
        "the run waited for the running test to end"
    );
    assert_nothing_left(&sb, marker);
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
fn a_second_sigint_while_stopping_kills_the_running_tests_and_exits_at_once() {
    let sb = Sandbox::new();
    let marker = "reduce-fixture-second-sigint-marker";
    // Deaf to SIGTERM, so the first SIGINT's clean stop waits in its grace
    // period; the second one must not leave these tests running.
    let text = slow_case_with(&sb, "deaf.sh", "trap '' TERM\n", "1", marker);
    let child = sb.spawn_reduce(&[
        "--algo", "ddmin", "--unit", "line", "-j", "2", "--oracle", "deaf.sh", "in.txt",
    ]);
    // The checks of the original run it three times; then tests run.
    wait_for_calls(&sb, 5);
    for _ in 0..2 {
        // SAFETY: sending a signal to our own child process.
        unsafe {
            libc::kill(child.id() as i32, libc::SIGINT);
        }
        // Two signals sent at once may arrive as one.
        wait_for("SIGINT delivered", || {
            signal_delivered(child.id(), libc::SIGINT)
        });
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    // The tests were sent SIGKILL; they may take a moment to be gone.
    assert_no_process_soon(marker);
    assert_eq!(sb.read("in.txt"), text);
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
        // A directory is a set of files; an empty one holds none.
        (
            &["--oracle", "needs-2-and-7.sh", "tmp"],
            2,
            "holds no file to reduce",
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
                "--lang",
                "bytes",
                "--algo",
                "hdd",
            ],
            2,
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

#[test]
fn more_bad_inputs_and_flags_are_refused_with_one_line_naming_the_fix() {
    let sb = Sandbox::new();
    sb.fixture("lines");
    std::fs::write(
        sb.path().join("blob.bin"),
        b"\x7fELF\x02\x01\x01\0\0\0\x03\x00>\x00",
    )
    .unwrap();
    std::fs::write(sb.path().join("blob.c"), b"int x;\0\0\x01\x02").unwrap();
    let cases: [(&[&str], i32, &[&str]); 5] = [
        (
            &["--oracle", "needs-2-and-7.sh", "--lang", "c", "blob.bin"],
            1,
            &["looks binary", "not c", "--lang bytes"],
        ),
        (
            &["--oracle", "needs-2-and-7.sh", "--lang", "json", "blob.bin"],
            1,
            &["looks binary", "not json", "--lang bytes"],
        ),
        (
            &["--oracle", "needs-2-and-7.sh", "blob.c"],
            1,
            &["looks binary", "as its extension says", "--lang bytes"],
        ),
        (
            &[
                "--oracle",
                "needs-2-and-7.sh",
                "numbers.txt",
                "--check-flaky",
                "0",
            ],
            2,
            &["--check-flaky must be at least 1"],
        ),
        (
            &[
                "--oracle",
                "needs-2-and-7.sh",
                "numbers.txt",
                "-o",
                "/proc/out.txt",
            ],
            1,
            &["cannot write the result to /proc/out.txt", "not writable"],
        ),
    ];
    for (args, code, messages) in cases {
        let out = sb.reduce(args);
        assert_exit(&out, code);
        let err = String::from_utf8_lossy(&out.stderr);
        for m in messages {
            assert!(err.contains(m), "{args:?}: {err}");
        }
        assert!(err.starts_with("reduce: error: "), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "not one line: {err}");
    }
    sb.assert_no_temp_left();
}

#[test]
fn an_output_in_a_read_only_directory_is_refused_before_the_first_test() {
    use std::os::unix::fs::PermissionsExt;
    let sb = Sandbox::new();
    sb.fixture("lines");
    sb.write(
        "count.sh",
        "#!/bin/sh\necho x >> \"$(dirname \"$0\")/calls\"\ngrep -qx 2 \"$1\"\n",
        true,
    );
    let ro = sb.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    // root writes anywhere: /proc refuses new files even to root.
    let root = std::fs::write(ro.join("probe"), "").is_ok();
    let target = if root { "/proc/out.txt" } else { "ro/out.txt" };
    let out = sb.reduce(&["--oracle", "count.sh", "numbers.txt", "-o", target]);
    assert_exit(&out, 1);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is not writable"), "{err}");
    assert!(
        !sb.path().join("calls").exists(),
        "the oracle ran before the output was checked"
    );
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn an_input_over_the_size_limit_is_refused_before_anything_runs() {
    let sb = Sandbox::new();
    sb.fixture("lines");
    sb.write(
        "count.sh",
        "#!/bin/sh\necho x >> \"$(dirname \"$0\")/calls\"\ngrep -qx 2 \"$1\"\n",
        true,
    );
    let limit = [("REDUCE_MAX_INPUT", "10")];
    let out = sb.reduce_env(&["--oracle", "count.sh", "numbers.txt"], &limit);
    assert_exit(&out, 1);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("numbers.txt is 16 bytes, more than the 10 bytes reduce accepts")
            && err.contains("REDUCE_MAX_INPUT"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    // Standard input is read only up to the limit.
    let mut child = sb
        .command(&["--oracle", "count.sh", "-"])
        .env("REDUCE_MAX_INPUT", "1000")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // More than the limit, and more than a pipe holds: reduce must not wait for the end.
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(&vec![b'x'; 1 << 20]);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_exit(&out, 1);
    assert!(String::from_utf8_lossy(&out.stderr).contains("more than the 1000 bytes"));
    let out = sb.reduce_env(
        &["--oracle", "count.sh", "numbers.txt"],
        &[("REDUCE_MAX_INPUT", "lots")],
    );
    assert_exit(&out, 2);
    assert!(!sb.path().join("calls").exists(), "the oracle ran");
    sb.assert_no_temp_left();
}

#[test]
fn invalid_utf8_text_is_reduced_and_latin1_c_is_still_c() {
    let sb = Sandbox::new();
    // Latin-1 bytes (invalid UTF-8), no NUL.
    let text: &[u8] = b"caf\xe9 1\nna\xefve 2\nKEEP \xff\xfe\nlast \xe0 line\n";
    std::fs::write(sb.path().join("latin1.txt"), text).unwrap();
    sb.write("keep.sh", "#!/bin/sh\ngrep -q KEEP \"$1\"\n", true);
    for (args, language) in [(&[][..], "bytes"), (&["--lang", "text"][..], "text")] {
        let mut run = args.to_vec();
        run.extend([
            "--oracle",
            "keep.sh",
            "latin1.txt",
            "-o",
            "out.txt",
            "-q",
            "--stats-json",
            "s.json",
        ]);
        let out = sb.reduce(&run);
        assert_exit(&out, 0);
        let s = crate::util::stats(&sb, "s.json");
        assert_eq!(s["language"], language);
        assert_eq!(sb.read("out.txt").trim_ascii_end(), b"KEEP");
        assert_invariants(&sb, "keep.sh", "latin1.txt", text, "out.txt", args);
    }
    let c: &[u8] = b"/* caf\xe9 */\nint keep(void) { return 1; }\nint other(void) { return 2; }\n";
    std::fs::write(sb.path().join("latin1.c"), c).unwrap();
    sb.write(
        "keep-c.sh",
        "#!/bin/sh\ngrep -q 'keep(void)' \"$1\"\n",
        true,
    );
    let out = sb.reduce(&[
        "--lang",
        "c",
        "--oracle",
        "keep-c.sh",
        "latin1.c",
        "--stats-json",
        "c.json",
        "-q",
    ]);
    assert_exit(&out, 0);
    assert_eq!(crate::util::stats(&sb, "c.json")["language"], "c");
    assert_invariants(
        &sb,
        "keep-c.sh",
        "latin1.c",
        c,
        "latin1.reduced.c",
        &["--lang", "c"],
    );
}

/// A script that needs lines 2 and 7 and leaves a marked child running in its group.
fn marked_script(sb: &Sandbox, marker: &str) {
    sb.write(
        "marked.sh",
        &format!(
            "#!/bin/sh\nsh -c 'sleep 30' {marker} &\ngrep -qx 2 \"$1\" && grep -qx 7 \"$1\"\n"
        ),
        true,
    );
}

#[test]
fn nothing_is_left_behind_after_success_refusal_or_oracle_error() {
    let marker = "reduce-it-left-behind-marker";
    let sb = Sandbox::new();
    marked_script(&sb, marker);
    sb.write("bad-interpreter.sh", "#!/nonexistent/sh\n", true);
    let original = b"1\n2\n3\n7\n8\n".to_vec();
    sb.write("in.txt", "1\n2\n3\n7\n8\n", false);
    sb.write("boring.txt", "1\n2\n3\n", false);
    let check = |what: &str, input: &str, content: &[u8]| {
        assert_eq!(sb.read(input), content, "{what}: the input changed");
        sb.assert_no_temp_left();
        assert_no_process(marker);
    };

    // Success.
    let out = sb.reduce(&["--unit", "line", "--oracle", "marked.sh", "in.txt", "-q"]);
    assert_exit(&out, 0);
    check("success", "in.txt", &original);
    // The original is not interesting.
    let out = sb.reduce(&["--oracle", "marked.sh", "boring.txt"]);
    assert_exit(&out, 3);
    check("not interesting", "boring.txt", b"1\n2\n3\n");
    assert!(!sb.path().join("boring.reduced.txt").exists());
    // The oracle cannot run.
    let out = sb.reduce(&["--oracle", "bad-interpreter.sh", "boring.txt"]);
    assert_exit(&out, 4);
    check("oracle error", "boring.txt", b"1\n2\n3\n");

    // --in-place: the input becomes the result, the original is kept beside it.
    std::fs::copy(sb.path().join("in.txt"), sb.path().join("place.txt")).unwrap();
    let out = sb.reduce(&[
        "--unit",
        "line",
        "--in-place",
        "--oracle",
        "marked.sh",
        "place.txt",
        "-q",
    ]);
    assert_exit(&out, 0);
    assert_eq!(sb.read("place.txt"), b"2\n7\n");
    check("--in-place", "place.txt.orig", &original);
    // --in-place refused: nothing is touched and no backup is made.
    let out = sb.reduce(&["--in-place", "--oracle", "marked.sh", "boring.txt"]);
    assert_exit(&out, 3);
    check("--in-place refused", "boring.txt", b"1\n2\n3\n");
    assert!(!sb.path().join("boring.txt.orig").exists());

    assert_invariants(
        &sb,
        "marked.sh",
        "in.txt",
        &original,
        "in.reduced.txt",
        &["--unit", "line"],
    );
    kill_processes(marker); // left by the helpers' direct runs of the script
}

#[test]
fn a_signal_during_the_baseline_stops_at_once_and_cleans_up() {
    let marker = "reduce-it-baseline-signal-marker";
    let sb = Sandbox::new();
    sb.write("in.txt", "1\n2\n", false);
    sb.write(
        "slow.sh",
        &format!(
            "#!/bin/sh\necho >> {}\nsh -c 'sleep 30' {marker}\ngrep -qx 2 \"$1\"\n",
            sb.path().join("calls").display()
        ),
        true,
    );
    for (signal, code) in [(libc::SIGTERM, 143), (libc::SIGINT, 130)] {
        // Signalled once the first run of the original has started.
        let out = run_and_signal(&sb, &["--oracle", "slow.sh", "in.txt"], 1, signal);
        assert_exit(&out, code);
        assert!(
            String::from_utf8_lossy(&out.stderr)
                .contains("interrupted before the reduction started")
        );
        assert_eq!(sb.read("in.txt"), b"1\n2\n");
        assert!(!sb.path().join("in.reduced.txt").exists());
        sb.assert_no_temp_left();
        assert_no_process(marker);
    }
}
