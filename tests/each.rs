//! `--each` (issue 45): a crash directory in one command. The files are
//! grouped by crash signature, one reproducer per group is reduced from
//! its smallest file, a crash met while reducing that no file had becomes
//! a group of its own, and `report.json` says what became of every file;
//! without `--same-crash` every file is reduced on its own.

use std::fs;

use crate::builtin::{report, two_bugs};
use crate::util::{Sandbox, assert_exit, succeeds_quietly};

const EACH: [&str; 4] = ["--same-crash", "--run", "./target {}", "--each"];

/// `report.json` of the output directory `dir`.
fn report_json(sb: &Sandbox, dir: &str) -> serde_json::Value {
    serde_json::from_slice(&sb.read(&format!("{dir}/report.json"))).unwrap()
}

/// The group of `report` whose signature contains `what`.
fn group<'a>(report: &'a serde_json::Value, what: &str) -> &'a serde_json::Value {
    let groups = report["groups"].as_array().unwrap();
    let found = groups
        .iter()
        .find(|g| g["signature"].as_str().unwrap().contains(what));
    found.unwrap_or_else(|| panic!("no group {what}: {report}"))
}

/// The two-bug sandbox with a corpus in `crashes/`: `files` as (name, bytes).
fn corpus(files: &[(&str, &[u8])]) -> Sandbox {
    let sb = two_bugs();
    fs::create_dir(sb.path().join("crashes")).unwrap();
    for (name, bytes) in files {
        fs::write(sb.path().join("crashes").join(name), bytes).unwrap();
    }
    sb
}

/// The four-bug target (fixtures/four-bugs) built with AddressSanitizer,
/// beside its forty crash files in `crashes/`.
fn four_bugs() -> Sandbox {
    let sb = Sandbox::new();
    sb.fixture("four-bugs");
    let mut gcc = std::process::Command::new("gcc");
    gcc.args([
        "-fsanitize=address",
        "-g",
        "-O0",
        "target.c",
        "-o",
        "target",
    ]);
    assert!(succeeds_quietly(gcc.current_dir(sb.path())));
    sb
}

/// Reduces `crashes/` with `--each` into `dir`; returns the report.
fn reduce_each(sb: &Sandbox, dir: &str) -> serde_json::Value {
    let mut args = EACH.to_vec();
    args.extend(["crashes", "-o", dir, "-q"]);
    assert_exit(&sb.reduce(&args), 0);
    report_json(sb, dir)
}

/// Every group's reproducer shows its group's crash, is no larger than
/// the group's smallest file, and is what a second `--each` run on the
/// reproducers gives again.
fn assert_reproducers(sb: &Sandbox, dir: &str, report_of_run: &serde_json::Value) {
    fs::create_dir(sb.path().join("again")).unwrap();
    for g in report_of_run["groups"].as_array().unwrap() {
        let path = format!("{dir}/{}", g["reproducer"].as_str().unwrap());
        let signature = g["signature"].as_str().unwrap();
        let kind = signature.split(" in ").next().unwrap();
        assert!(report(sb, &path).contains(kind.trim_start_matches("AddressSanitizer: ")));
        assert!(
            g["bytes_after"].as_u64() <= g["bytes_before"].as_u64(),
            "{g}"
        );
        assert_eq!(
            sb.read(&path).len() as u64,
            g["bytes_after"].as_u64().unwrap()
        );
        let name = g["reproducer"].as_str().unwrap();
        fs::copy(sb.path().join(&path), sb.path().join("again").join(name)).unwrap();
    }
    let mut args = EACH.to_vec();
    args.extend(["again", "-o", "again-out", "-q"]);
    assert_exit(&sb.reduce(&args), 0);
    for g in report_json(sb, "again-out")["groups"].as_array().unwrap() {
        let name = g["reproducer"].as_str().unwrap();
        assert_eq!(
            sb.read(&format!("again-out/{name}")),
            sb.read(&format!("{dir}/{name}")),
            "a second run changed {name}"
        );
    }
    sb.assert_no_temp_left();
}

#[test]
fn a_crash_directory_is_grouped_by_signature_and_each_group_reduced_from_its_smallest_file() {
    let crash = fs::read("fixtures/two-bugs/crash.bin").unwrap();
    let longer = [&crash[..], b"and more"].concat();
    let sb = corpus(&[
        ("a1.bin", &crash),
        ("a2.bin", &longer),
        ("b1.bin", b"xxV\x07yy\x00"),
        ("none.bin", b"hello\x00"),
    ]);
    let r = reduce_each(&sb, "out");
    assert_eq!(r["groups"].as_array().unwrap().len(), 2, "{r}");
    let overflow = group(&r, "heap-buffer-overflow in copy_name");
    assert_eq!(overflow["inputs"], serde_json::json!(["a1.bin", "a2.bin"]));
    assert_eq!(overflow["bytes_before"], crash.len());
    // The one-file run's result (tests/builtin.rs), from the smallest file.
    let reproducer = format!("out/{}", overflow["reproducer"].as_str().unwrap());
    assert_eq!(sb.read(&reproducer), [&b"N\x09"[..], &[0; 9]].concat());
    let null_read = group(&r, "SEGV in lookup");
    assert_eq!(null_read["inputs"], serde_json::json!(["b1.bin"]));
    assert_eq!(null_read["found_while_reducing"], false);
    assert_eq!(r["not_reproducible"], serde_json::json!(["none.bin"]));
    // The total counts the triage's four runs and every group's.
    let groups: u64 = r["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["executions"].as_u64().unwrap())
        .sum();
    assert_eq!(r["executions"].as_u64().unwrap(), groups + 4, "{r}");
    let sarif: serde_json::Value = serde_json::from_slice(&sb.read("out/report.sarif")).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), 2);
    assert_reproducers(&sb, "out", &r);
}

#[test]
fn a_crash_met_while_reducing_that_no_file_had_becomes_a_group_of_its_own() {
    let crash = fs::read("fixtures/two-bugs/crash.bin").unwrap();
    let sb = corpus(&[("a1.bin", &crash)]);
    let r = reduce_each(&sb, "out");
    let null_read = group(&r, "SEGV in lookup");
    assert_eq!(null_read["found_while_reducing"], true, "{r}");
    assert_eq!(null_read["inputs"], serde_json::json!([]));
    // Reduced as the file it came from was, byte by byte: two bytes.
    assert_eq!(null_read["bytes_after"], 2, "{r}");
    assert_reproducers(&sb, "out", &r);
    // The same command again finds every group done: no group runs again.
    let again = reduce_each(&sb, "out");
    assert_eq!(again["groups"], r["groups"]);
    assert_eq!(again["executions"], r["executions"]);
}

#[test]
fn without_same_crash_every_file_is_reduced_on_its_own_where_it_is_in_the_corpus() {
    let sb = Sandbox::new();
    sb.fixture("lines");
    fs::create_dir_all(sb.path().join("cases/sub")).unwrap();
    fs::write(sb.path().join("cases/one.txt"), "1\n2\n3\n7\n").unwrap();
    fs::write(sb.path().join("cases/sub/two.txt"), "7\n8\n2\n9\n").unwrap();
    let args = ["--oracle", "needs-2-and-7.sh", "--each", "cases", "-q"];
    assert_exit(&sb.reduce(&args), 0);
    assert_eq!(sb.read("cases.reduced/one.txt"), b"2\n7\n");
    assert_eq!(sb.read("cases.reduced/sub/two.txt"), b"7\n2\n");
    let r = report_json(&sb, "cases.reduced");
    assert_eq!(r["groups"].as_array().unwrap().len(), 2, "{r}");
    assert_eq!(
        sb.read("cases/one.txt"),
        b"1\n2\n3\n7\n",
        "the input was modified"
    );
}

#[test]
fn each_refuses_what_writes_one_file_beside_one_result() {
    let sb = Sandbox::new();
    sb.fixture("lines");
    for flag in [
        &["--stats-json", "s.json"][..],
        &["--in-place"],
        &["-o", "-"],
    ] {
        let mut args = vec!["--oracle", "needs-2-and-7.sh", "--each", "numbers.txt"];
        args.extend(flag);
        let out = sb.reduce(&args);
        assert_exit(&out, 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--each") && err.contains(flag[0]), "{err}");
    }
}

#[test]
fn a_crash_directory_of_four_bugs_gives_one_reproducer_per_bug_at_its_smallest() {
    let sb = four_bugs();
    let r = reduce_each(&sb, "out");
    let groups = r["groups"].as_array().unwrap();
    let names = |v: &serde_json::Value| -> Vec<String> {
        let list = v.as_array().unwrap().iter();
        list.map(|n| n.as_str().unwrap().to_string()).collect()
    };
    let mut listed = names(&r["not_reproducible"]);
    // The files of each bug (named by it), its signature, and its smallest
    // input: the heap overflow's needs its length byte rewritten to 1.
    let bugs = [
        ("stack-", "stack-buffer-overflow in show_text", 23),
        ("heap-", "heap-buffer-overflow in read_index", 7),
        ("uaf-", "heap-use-after-free in use_slots", 10),
        ("null-", "SEGV in read_values", 7),
    ];
    for (prefix, signature, smallest) in bugs {
        let of_bug: Vec<_> = groups
            .iter()
            .filter(|g| g["signature"].as_str().unwrap().contains(signature))
            .collect();
        assert_eq!(of_bug.len(), 1, "{signature}: {r}");
        let inputs = names(&of_bug[0]["inputs"]);
        assert!(inputs.iter().all(|i| i.starts_with(prefix)), "{inputs:?}");
        assert_eq!(of_bug[0]["bytes_after"], smallest, "{signature}: {r}");
        listed.extend(inputs);
    }
    listed.sort();
    let mut files: Vec<String> = fs::read_dir(sb.path().join("crashes"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    assert_eq!(files.len(), 40);
    assert_eq!(listed, files, "every file listed once");
    let heap = group(&r, "heap-buffer-overflow");
    let reproducer = sb.read(&format!("out/{}", heap["reproducer"].as_str().unwrap()));
    assert_eq!(reproducer[..6], *b"CHK1I\x01");
    assert_reproducers(&sb, "out", &r);
}

#[test]
fn bad_input_gets_one_line_and_leaves_no_output() {
    let sb = four_bugs();
    fs::create_dir(sb.path().join("empty")).unwrap();
    fs::create_dir(sb.path().join("fine")).unwrap();
    fs::write(sb.path().join("fine/ok.bin"), "CHK1").unwrap();
    fs::copy(sb.path().join("target"), sb.path().join("plain")).unwrap();
    let mode = std::os::unix::fs::PermissionsExt::from_mode(0o644);
    fs::set_permissions(sb.path().join("plain"), mode).unwrap();
    let cases = [
        ("./target {}", "empty", 1, "empty holds no file"),
        (
            "./target {}",
            "fine",
            3,
            "no file of the corpus shows a crash",
        ),
        ("./plain {}", "crashes", 4, "./plain is not executable"),
    ];
    let output = sb.path().join("out");
    for (command, dir, code, says) in cases {
        let run = ["--same-crash", "--run", command, "--each", dir, "-o", "out"];
        let out = sb.reduce(&[&run[..], &["-q"]].concat());
        assert_exit(&out, code);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says) && err.lines().count() == 1, "{err}");
        assert!(!output.exists(), "{dir}: partial output");
    }
    // Without -q the file is counted not reproducible first.
    let out = sb.reduce(&["--same-crash", "--run", "./target {}", "--each", "fine"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("1 files, 0 crash signatures, 1 not reproducible"),
        "{err}"
    );
}

#[test]
fn max_time_bounds_the_whole_corpus_and_the_same_command_goes_on() {
    let crash = fs::read("fixtures/two-bugs/crash.bin").unwrap();
    let sb = corpus(&[("a1.bin", &crash), ("b1.bin", b"xxV\x07yy\x00")]);
    let mut args = EACH.to_vec();
    args.extend(["crashes", "-o", "out", "-q", "--max-time", "1ms"]);
    assert_exit(&sb.reduce(&args), 0);
    // Out of time after the grouping: each group's smallest file as it is.
    let r = report_json(&sb, "out");
    for g in r["groups"].as_array().unwrap() {
        assert_eq!(g["outcome"], "not started (--max-time)", "{r}");
        let file = format!("crashes/{}", g["inputs"][0].as_str().unwrap());
        let reproducer = format!("out/{}", g["reproducer"].as_str().unwrap());
        assert_eq!(sb.read(&reproducer), sb.read(&file));
    }
    // The same command without the limit reduces them.
    let again = reduce_each(&sb, "out");
    let overflow = group(&again, "heap-buffer-overflow in copy_name");
    assert_eq!(overflow["outcome"], "reduced", "{again}");
    let reproducer = format!("out/{}", overflow["reproducer"].as_str().unwrap());
    assert_eq!(sb.read(&reproducer), [&b"N\x09"[..], &[0; 9]].concat());
    assert_eq!(group(&again, "SEGV in lookup")["bytes_after"], 2);
}
