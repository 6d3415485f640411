//! The built-in oracles (issue 38): `--run` judged by `--same-crash` and
//! `--expect-*` through the binary, on real targets (a C program built
//! with AddressSanitizer that has two bugs, a Python program that raises),
//! `--print-oracle`'s script, and bad values refused with one line.

use std::fs;

use crate::util::{Sandbox, assert_exit, quiet, run_quietly, stats, succeeds_quietly};

/// The invariants of a run with a built-in oracle: the input untouched,
/// the result no larger, and a second run with the same `args` on the
/// result (named like the input) passes its checks on it, so the result
/// still passes the oracle, and changes nothing.
fn assert_run_invariants(sb: &Sandbox, args: &[&str], input: &str, original: &[u8], output: &str) {
    let result = sb.read(output);
    assert_eq!(sb.read(input), original, "the input was modified");
    assert!(result.len() <= original.len(), "the result grew");
    fs::create_dir_all(sb.path().join("second-run")).unwrap();
    fs::write(sb.path().join("second-run").join(input), &result).unwrap();
    let second_input = format!("second-run/{input}");
    let mut second = args.to_vec();
    second.extend([second_input.as_str(), "-o", "second-run/out", "-q"]);
    let out = sb.reduce(&second);
    assert_exit(&out, 0);
    assert_eq!(
        sb.read("second-run/out"),
        result,
        "a second run changed the result"
    );
    fs::remove_dir_all(sb.path().join("second-run")).unwrap();
    sb.assert_no_temp_left();
}

/// The two-bug target built with AddressSanitizer in the sandbox, and its
/// crash input.
pub(crate) fn two_bugs() -> Sandbox {
    let sb = Sandbox::new();
    sb.fixture("two-bugs");
    assert!(succeeds_quietly(
        std::process::Command::new("gcc")
            .args([
                "-fsanitize=address",
                "-g",
                "-O0",
                "target.c",
                "-o",
                "target"
            ])
            .current_dir(sb.path())
    ));
    sb
}

/// The stderr of the two-bug target run on `file`.
pub(crate) fn report(sb: &Sandbox, file: &str) -> String {
    let out = run_quietly(
        quiet(sb.path().join("target"))
            .arg(file)
            .current_dir(sb.path()),
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const SAME_CRASH: [&str; 3] = ["--same-crash", "--run", "./target {}"];

#[test]
fn same_crash_ends_on_the_original_bug_where_any_crash_slides_to_the_other() {
    let sb = two_bugs();
    let original = sb.read("crash.bin");
    assert!(report(&sb, "crash.bin").contains("heap-buffer-overflow"));
    let mut args = SAME_CRASH.to_vec();
    args.extend(["crash.bin", "-o", "same.bin", "--stats-json", "s.json"]);
    let out = sb.reduce(&args);
    assert_exit(&out, 0);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "keeping the crash AddressSanitizer: heap-buffer-overflow in copy_name < parse < main"
        ),
        "{err}"
    );
    let same = report(&sb, "same.bin");
    assert!(
        same.contains("heap-buffer-overflow") && same.contains("in copy_name"),
        "{same}"
    );
    // No deletion is left, and the bytes the overflow copies are zeros.
    // The name's length went down with its bytes to the 9 the overflow of
    // an 8-byte buffer needs (the `lengths` pass).
    assert_eq!(sb.read("same.bin"), [&b"N\x09"[..], &[0; 9]].concat());
    assert_eq!(stats(&sb, "s.json")["algo"], "auto");
    assert_run_invariants(&sb, &SAME_CRASH, "crash.bin", &original, "same.bin");

    // Any AddressSanitizer report will do: the reduction slides to the
    // null read, which two bytes show.
    let naive = [
        "--run",
        "./target {}",
        "--expect-stderr",
        "ERROR: AddressSanitizer",
    ];
    let mut args = naive.to_vec();
    args.extend(["crash.bin", "-o", "naive.bin", "-q"]);
    assert_exit(&sb.reduce(&args), 0);
    let slid = report(&sb, "naive.bin");
    assert!(
        slid.contains("SEGV") && slid.contains("in lookup"),
        "{slid}"
    );
    assert_eq!(sb.read("naive.bin").len(), 2);
    assert_run_invariants(&sb, &naive, "crash.bin", &original, "naive.bin");
}

#[test]
fn the_printed_oracle_given_to_oracle_reduces_to_the_same_result() {
    let sb = two_bugs();
    let mut args = SAME_CRASH.to_vec();
    args.extend(["crash.bin", "--print-oracle"]);
    let out = sb.reduce(&args);
    assert_exit(&out, 0);
    let script = String::from_utf8(out.stdout).unwrap();
    assert!(
        script.starts_with("#!/bin/sh\n") && script.contains("copy_name"),
        "{script}"
    );
    assert!(
        !sb.path().join("crash.reduced.bin").exists(),
        "--print-oracle reduced"
    );
    sb.write("check.sh", &script, true);
    let mut args = SAME_CRASH.to_vec();
    args.extend(["crash.bin", "-o", "builtin.bin", "-q"]);
    assert_exit(&sb.reduce(&args), 0);
    let out = sb.reduce(&[
        "--oracle",
        "check.sh",
        "crash.bin",
        "-o",
        "script.bin",
        "-q",
    ]);
    assert_exit(&out, 0);
    assert_eq!(sb.read("script.bin"), sb.read("builtin.bin"));
    assert!(sb.oracle_accepts("check.sh", &sb.path().join("script.bin"), "crash.bin"));
    // The other bug is not the crash it keeps.
    sb.write("other.bin", "VV", false);
    assert!(!sb.oracle_accepts("check.sh", &sb.path().join("other.bin"), "crash.bin"));
}

#[test]
fn same_crash_keeps_a_python_exception_by_type_and_innermost_frame() {
    let sb = Sandbox::new();
    sb.fixture("python-exception");
    let original = sb.read("input.txt");
    let run = format!("python3 {}/prog.py {{}}", sb.path().display());
    let args = ["--same-crash", "--run", run.as_str()];
    let mut first = args.to_vec();
    first.extend(["input.txt", "-o", "out.txt"]);
    let out = sb.reduce(&first);
    assert_exit(&out, 0);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "keeping the crash Python KeyError in prog.py:10 in lookup < prog.py:24 in main"
        ),
        "{err}"
    );
    let result = String::from_utf8(sb.read("out.txt")).unwrap();
    // A line with an empty key is the smallest that raises it there.
    assert_eq!(result, "=");
    let ran = run_quietly(
        quiet("python3")
            .args(["prog.py", "out.txt"])
            .current_dir(sb.path()),
    );
    assert!(String::from_utf8_lossy(&ran.stderr).contains("KeyError"));
    assert_run_invariants(&sb, &args, "input.txt", &original, "out.txt");
}

#[test]
fn same_crash_refuses_an_original_that_shows_no_crash() {
    let sb = Sandbox::new();
    sb.write("in.txt", "fine\n", false);
    let out = sb.reduce(&["--same-crash", "--run", "cat {}", "in.txt"]);
    assert_exit(&out, 3);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("shows no crash") && err.trim_end().lines().count() == 1,
        "{err}"
    );
    sb.assert_no_temp_left();
}

/// Reduces `text` with `args` (a `--run` and its expectations) and checks
/// the result is `want`, then the invariants.
fn reduces_to(args: &[&str], text: &str, want: &str) {
    let sb = Sandbox::new();
    sb.write("in.txt", text, false);
    let mut first = args.to_vec();
    first.extend(["in.txt", "-o", "out.txt"]);
    let out = sb.reduce(&first);
    assert_exit(&out, 0);
    assert_eq!(
        String::from_utf8(sb.read("out.txt")).unwrap(),
        want,
        "{args:?}"
    );
    assert_run_invariants(&sb, args, "in.txt", text.as_bytes(), "out.txt");
}

const TEXT: &str = "alpha beta\ngamma bug delta\nepsilon\n";

#[test]
fn expect_exit_keeps_what_exits_with_the_code_even_through_a_launcher() {
    let args = [
        "--run",
        "grep -q bug {} && exit 3; exit 0",
        "--expect-exit",
        "3",
        "--launcher",
        "env",
        "-j",
        "2",
    ];
    reduces_to(&args, TEXT, "bug");
}

#[test]
fn expect_signal_keeps_what_a_signal_kills() {
    let args = [
        "--run",
        "grep -q bug {} && kill -SEGV $$; exit 0",
        "--expect-signal",
        "SIGSEGV",
    ];
    reduces_to(&args, TEXT, "bug");
}

#[test]
fn expect_stdout_reads_the_candidate_on_stdin_without_a_placeholder() {
    let args = ["--run", "cat", "--expect-stdout", "^gamma b.g"];
    reduces_to(&args, TEXT, "gamma bug");
}

#[test]
fn expect_stderr_matches_the_commands_stderr_only() {
    let args = ["--run", "cat {} >&2", "--expect-stderr", "beta\\s+gamma"];
    reduces_to(&args, TEXT, "beta\ngamma");
    let sb = Sandbox::new();
    sb.write("in.txt", TEXT, false);
    let out = sb.reduce(&["--run", "cat {}", "--expect-stderr", "bug", "in.txt"]);
    assert_exit(&out, 3);
}

#[test]
fn expect_timeout_keeps_what_hangs() {
    let args = [
        "--run",
        "grep -q bug {} && sleep 10; exit 0",
        "--expect-timeout",
        "--timeout",
        "0.3",
    ];
    reduces_to(&args, "a bug\n", "bug\n");
}

#[test]
fn bad_expectations_are_refused_with_one_line_and_exit_2() {
    let sb = Sandbox::new();
    sb.write("in.txt", TEXT, false);
    sb.write("check.sh", "#!/bin/sh\necho ran >> ran.txt\nexit 0\n", true);
    let cases: [(&[&str], &str); 10] = [
        (
            &["--run", "cat {}", "--expect-stdout", "(unclosed"],
            "--expect-stdout (unclosed: not a regular expression",
        ),
        (
            &["--run", "cat {}", "--expect-stderr", "a{2,1}"],
            "--expect-stderr a{2,1}: not a regular expression",
        ),
        (
            &["--run", "cat {}", "--expect-signal", "SIGNOPE"],
            "--expect-signal SIGNOPE: unknown signal",
        ),
        (
            &["--run", "cat {}", "--expect-exit", "300"],
            "--expect-exit 300: not an exit status",
        ),
        (&["--run", "cat {}"], "--run needs what to expect"),
        (
            &["--run", "cat {}", "--expect-timeout"],
            "--expect-timeout needs --timeout",
        ),
        (
            &["--run", "cat {}", "--same-crash", "--signature-frames", "0"],
            "--signature-frames must be at least 1",
        ),
        (
            &["--oracle", "check.sh", "--expect-exit", "1"],
            "--expect-exit goes with --run CMD",
        ),
        (
            &["--oracle", "check.sh", "--run", "cat {}", "--same-crash"],
            "either --oracle SCRIPT or --run CMD, not both",
        ),
        (&["--same-crash"], "no test given"),
    ];
    for (flags, said) in cases {
        let mut args = flags.to_vec();
        args.push("in.txt");
        let out = sb.reduce(&args);
        assert_exit(&out, 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said), "{flags:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{flags:?}: {err}");
    }
    assert!(!sb.path().join("ran.txt").exists(), "a test ran");
}

#[test]
fn a_directory_is_judged_through_its_copy_as_the_placeholder() {
    let sb = Sandbox::new();
    fs::create_dir(sb.path().join("proj")).unwrap();
    sb.write("proj/a.txt", "one\ntwo bug three\n", false);
    sb.write("proj/b.txt", "x\ny\n", false);
    let args = ["--run", "grep -rq bug {}", "--expect-exit", "0"];
    let mut first = args.to_vec();
    first.extend(["proj", "-q"]);
    assert_exit(&sb.reduce(&first), 0);
    assert_eq!(sb.read("proj.reduced/a.txt"), b"bug");
    assert!(!sb.path().join("proj.reduced/b.txt").exists());
    assert_eq!(sb.read("proj/b.txt"), b"x\ny\n", "the input was modified");
    // A second run on the result changes nothing.
    let mut second = args.to_vec();
    second.extend(["proj.reduced", "-o", "again", "-q"]);
    assert_exit(&sb.reduce(&second), 0);
    assert_eq!(sb.read("again/a.txt"), b"bug");
    sb.assert_no_temp_left();
}
