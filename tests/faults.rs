//! Faults and resumed runs through the binary: a test that cannot run
//! (work directory full, gone or read-only, too many open files, a launcher
//! that fails) is never taken for a verdict, and a run killed at any moment
//! resumes to the uninterrupted run's result.
//!
//! Each fault is made to happen mid-run by the oracle itself, at a call it
//! counts, and only on a call whose verdict is "not interesting" (so no
//! improvement is being saved at that moment); every wait is for an event.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{
    Sandbox, assert_exit, assert_no_process_soon, lines_in, run_quietly, stats, wait_for,
};

/// Lines 0..80; the oracle wants 7, 31 and 64.
fn input() -> String {
    (0..80).map(|i| format!("{i}\n")).collect()
}

/// Writes `in.txt` and `check.sh`: appends a line to `calls` per run, wants
/// lines 7, 31 and 64, and when `hook` is not empty runs it once, on the
/// first not-interesting call after call `after` (with `$n` the call number).
fn case(sb: &Sandbox, after: usize, hook: &str) {
    sb.write("in.txt", &input(), false);
    let dir = sb.path().display();
    sb.write(
        "check.sh",
        &format!(
            "#!/bin/sh\necho >> {dir}/calls\nn=$(wc -l < {dir}/calls)\n\
             grep -qx 7 \"$1\" && grep -qx 31 \"$1\" && grep -qx 64 \"$1\"\nv=$?\n\
             if [ -n '{hook}' ] && [ $v -ne 0 ] && [ $n -gt {after} ] && [ ! -e {dir}/hooked ]; then\n\
             touch {dir}/hooked\n{hook}\nfi\nexit $v\n"
        ),
        true,
    );
}

const ARGS: [&str; 6] = ["--algo", "ddmin", "--unit", "line", "--oracle", "check.sh"];

/// The uninterrupted run's result (`-j 1`, in `ref.txt`) and how many
/// times it ran the oracle (the checks of the original included).
fn reference(sb: &Sandbox) -> (Vec<u8>, u64) {
    // The hook (see `case`) is for the runs after this one.
    let hooked = sb.write("hooked", "", false);
    let mut args = ARGS.to_vec();
    args.extend(["-j", "1", "in.txt", "-o", "ref.txt"]);
    assert_exit(&sb.reduce(&args), 0);
    let calls = lines_in(&sb.path().join("calls")) as u64;
    let _ = fs::remove_file(sb.path().join("calls"));
    fs::remove_file(hooked).unwrap();
    (sb.read("ref.txt"), calls)
}

/// `ARGS` with `extra`, on `in.txt`, into `out.txt`.
fn args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = ARGS.to_vec();
    args.extend_from_slice(extra);
    args.extend(["in.txt", "-o", "out.txt"]);
    args
}

fn journal(sb: &Sandbox) -> PathBuf {
    sb.path().join("out.txt.reduce-journal")
}

/// After a run stopped by a fault: exit 5 naming `cause`, the input
/// untouched, an interesting output, the journal kept, nothing called minimal.
fn assert_stopped_by(sb: &Sandbox, out: &std::process::Output, cause: &str) {
    assert_exit(out, 5);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(cause), "the cause is not named: {err}");
    assert!(err.contains("not a minimal one"), "{err}");
    assert_eq!(sb.read("in.txt"), input().as_bytes());
    assert!(sb.oracle_accepts("check.sh", &sb.path().join("out.txt"), "in.txt"));
    assert!(journal(sb).exists(), "the journal must be kept: {err}");
}

/// Runs `args` again once the fault is gone: it resumes and ends with the
/// uninterrupted result, removing the journal; nothing is left behind.
fn assert_resumes_to(sb: &Sandbox, args: &[&str], reference: &[u8], temp: &Path) {
    let out = sb.reduce(args);
    assert_exit(&out, 0);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("reduce: resuming from "), "{err}");
    assert_eq!(sb.read("out.txt"), reference, "{err}");
    assert!(!journal(sb).exists());
    assert_eq!(sb.read("in.txt"), input().as_bytes());
    let left: Vec<_> = fs::read_dir(temp).unwrap().collect();
    assert!(left.is_empty(), "left in {}: {left:?}", temp.display());
    assert_no_process_soon(&sb.path().display().to_string());
}

/// A small tmpfs mounted for one test, unmounted when dropped; `None` when
/// this process may not mount one (not root, or in a container without
/// the right).
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(sb: &Sandbox, size: &str) -> Option<Tmpfs> {
        let dir = sb.path().join("wd");
        fs::create_dir(&dir).unwrap();
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            return None;
        }
        let out = run_quietly(Command::new("mount").args([
            "-t",
            "tmpfs",
            "-o",
            &format!("size={size}"),
            "tmpfs",
            dir.to_str().unwrap(),
        ]));
        out.status.success().then_some(Tmpfs(dir))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        run_quietly(Command::new("umount").arg("-l").arg(&self.0));
    }
}

#[test]
fn a_work_directory_that_fills_up_mid_run_stops_it_with_exit_5_and_the_same_command_resumes() {
    let sb = Sandbox::new();
    let Some(wd) = Tmpfs::mount(&sb, "256k") else {
        eprintln!("skipped: cannot mount a tmpfs (needs root)");
        return;
    };
    let w = wd.0.display().to_string();
    // With the candidate gone first, removing the test's directory frees
    // nothing: the next candidate cannot be written.
    case(
        &sb,
        20,
        &format!("rm -f \"$1\"; dd if=/dev/zero of={w}/filler bs=4k 2>/dev/null"),
    );
    let (reference, _) = reference(&sb);
    let args = args(&["-j", "1", "--work-dir", &w, "--fault-patience", "1"]);
    let out = sb.reduce(&args);
    assert_stopped_by(&sb, &out, &format!("the work directory {w} is full"));
    fs::remove_file(wd.0.join("filler")).unwrap();
    assert_resumes_to(&sb, &args, &reference, &wd.0);
}

#[test]
fn a_work_directory_removed_mid_run_stops_it_with_exit_5_and_the_same_command_resumes() {
    let sb = Sandbox::new();
    let wd = sb.path().join("wd");
    fs::create_dir(&wd).unwrap();
    let w = wd.display().to_string();
    case(&sb, 20, &format!("rm -rf {w}"));
    let (reference, _) = reference(&sb);
    let args = args(&["-j", "1", "--work-dir", &w, "--fault-patience", "1"]);
    let out = sb.reduce(&args);
    assert_stopped_by(
        &sb,
        &out,
        &format!("the work directory {w} no longer exists"),
    );
    fs::create_dir(&wd).unwrap();
    assert_resumes_to(&sb, &args, &reference, &wd);
}

#[test]
fn a_work_directory_made_read_only_mid_run_stops_it_with_exit_5_and_the_same_command_resumes() {
    let sb = Sandbox::new();
    let Some(wd) = Tmpfs::mount(&sb, "1m") else {
        eprintln!("skipped: cannot mount a tmpfs (needs root)");
        return;
    };
    let w = wd.0.display().to_string();
    case(&sb, 20, &format!("mount -o remount,ro {w}"));
    let (reference, _) = reference(&sb);
    let args = args(&["-j", "1", "--work-dir", &w, "--fault-patience", "1"]);
    let out = sb.reduce(&args);
    assert_stopped_by(&sb, &out, "is read-only or not writable");
    assert!(
        run_quietly(Command::new("mount").args(["-o", "remount,rw", &w]))
            .status
            .success()
    );
    // The test that made it read-only could not have its directory removed.
    for dir in fs::read_dir(&wd.0).unwrap() {
        fs::remove_dir_all(dir.unwrap().path()).unwrap();
    }
    assert_resumes_to(&sb, &args, &reference, &wd.0);
}

#[test]
fn too_few_open_files_mid_run_stop_it_with_exit_5_and_the_same_command_resumes() {
    let sb = Sandbox::new();
    // The oracle lowers reduce's own limit on open files (its parent's).
    case(&sb, 20, "prlimit --pid $PPID --nofile=3:3");
    let (reference, _) = reference(&sb);
    let args = args(&["-j", "1", "--fault-patience", "1"]);
    let out = sb.reduce(&args);
    assert_stopped_by(&sb, &out, "too many open files");
    // Without a file descriptor reduce could not remove its tests' directories.
    for dir in fs::read_dir(sb.tmp()).unwrap() {
        fs::remove_dir_all(dir.unwrap().path()).unwrap();
    }
    assert_resumes_to(&sb, &args, &reference, &sb.tmp());
}

/// Writes `launch.sh`: counts its runs in `launches`; from the fourth on
/// (after the checks of the original), exits 125 without running the test
/// on every run `fails` says (a shell condition on `$n`).
fn launcher(sb: &Sandbox, fails: &str) -> String {
    let dir = sb.path().display();
    sb.write(
        "launch.sh",
        &format!(
            "#!/bin/sh\necho >> {dir}/launches\nn=$(wc -l < {dir}/launches)\n\
             if [ $n -gt 3 ] && {fails}; then exit 125; fi\nexec \"$@\"\n"
        ),
        true,
    )
    .display()
    .to_string()
}

#[test]
fn tests_a_launcher_fails_to_start_are_retried_and_the_result_is_the_uninterrupted_one() {
    let sb = Sandbox::new();
    case(&sb, 0, "");
    let (reference, calls) = reference(&sb);
    let launch = launcher(&sb, "[ $((n % 3)) -eq 0 ]");
    let args = args(&["-j", "2", "--launcher", &launch, "--stats-json", "s.json"]);
    let out = sb.reduce(&args);
    assert_exit(&out, 0);
    assert_eq!(sb.read("out.txt"), reference);
    let launches = lines_in(&sb.path().join("launches")) as u64;
    // Failed launches are not oracle calls (speculation may add some).
    let counted = stats(&sb, "s.json")["oracle_calls"].as_u64().unwrap();
    assert!(
        launches > calls && counted < launches - 3,
        "{counted}, {launches}"
    );
    assert!(!journal(&sb).exists());
    sb.assert_no_temp_left();
}

#[test]
fn a_launcher_that_keeps_failing_stops_the_run_with_exit_5() {
    let sb = Sandbox::new();
    case(&sb, 0, "");
    let launch = launcher(&sb, "[ $n -gt 8 ]");
    let args = args(&["-j", "2", "--launcher", &launch, "--fault-patience", "1"]);
    let out = sb.reduce(&args);
    assert_stopped_by(&sb, &out, "could not run a test (exit status 125)");
    sb.assert_no_temp_left();
}

/// Starts `args`, kills `reduce` with SIGKILL once the oracle has been
/// called `calls` times, and cleans up what a killed run cannot: the
/// directories of the tests it had running.
fn kill_at(sb: &Sandbox, args: &[&str], calls: usize) {
    let mut child = sb.spawn_reduce(args);
    let counter = sb.path().join("calls");
    wait_for("the oracle calls", || lines_in(&counter) >= calls);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_no_process_soon(&sb.path().display().to_string());
    for dir in fs::read_dir(sb.tmp()).unwrap() {
        fs::remove_dir_all(dir.unwrap().path()).unwrap();
    }
}

#[test]
fn a_run_killed_at_any_moment_resumes_to_the_uninterrupted_result_without_testing_again() {
    let sb = Sandbox::new();
    case(&sb, 0, "");
    let (reference, calls) = reference(&sb);
    let whole = calls as usize;
    for quarter in 1..=3 {
        // -j 2 resumes to -j 1's result too; -j 1's calls add up exactly.
        let jobs = if quarter == 2 { "2" } else { "1" };
        let args = args(&["-j", jobs]);
        let _ = fs::remove_file(sb.path().join("calls"));
        kill_at(&sb, &args, quarter * whole / 4);
        assert!(journal(&sb).exists());
        assert_resumes_to(&sb, &args, &reference, &sb.tmp());
        let total = lines_in(&sb.path().join("calls"));
        if jobs == "1" {
            // The checks again, the test in flight when killed, and one
            // more that may have started before the kill landed.
            assert!(
                total <= whole + 3 + 2,
                "killed and resumed: {total} oracle runs; uninterrupted: {whole}"
            );
        }
        fs::remove_file(sb.path().join("out.txt")).unwrap();
    }
}

#[test]
fn a_run_with_waves_killed_mid_way_resumes_to_what_one_job_with_the_same_wave_gives() {
    let sb = Sandbox::new();
    case(&sb, 0, "");
    let wave = |jobs: &'static str| {
        let mut a = args(&["-j", jobs, "--wave", "4"]);
        a[1] = "drdd";
        a
    };
    let one = wave("1");
    assert_exit(&sb.reduce(&one), 0);
    let reference = sb.read("out.txt");
    let whole = lines_in(&sb.path().join("calls"));
    fs::remove_file(sb.path().join("out.txt")).unwrap();
    fs::remove_file(sb.path().join("calls")).unwrap();
    let four = wave("4");
    kill_at(&sb, &four, whole / 2);
    assert!(journal(&sb).exists());
    assert_resumes_to(&sb, &four, &reference, &sb.tmp());
}

#[test]
fn a_journal_of_other_options_is_refused_naming_fresh_which_starts_over() {
    let sb = Sandbox::new();
    case(&sb, 0, "");
    let (reference, calls) = reference(&sb);
    kill_at(&sb, &args(&["-j", "2"]), calls as usize / 2);
    let other = args(&["-j", "2", "--recheck"]);
    let out = sb.reduce(&other);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--fresh"));
    let mut fresh = args(&["-j", "2"]);
    fresh.push("--fresh");
    let out = sb.reduce(&fresh);
    assert_exit(&out, 0);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("resuming"));
    assert_eq!(sb.read("out.txt"), reference);
    assert!(!journal(&sb).exists());
}
