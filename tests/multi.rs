//! Several files as one test case: a directory or a list of files, reduced
//! with real oracles (gcc across a header and two sources, make, a Python
//! lint reading JSON), and the refusals of what cannot be a set.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;

use crate::util::{Sandbox, assert_exit, stats, succeeds_quietly};

/// Copies the tree `from` to `to` (modes kept).
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A sandbox holding `fixtures/<name>`'s tree.
pub(crate) fn sandbox_with(name: &str) -> Sandbox {
    let sb = Sandbox::new();
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name);
    copy_tree(&src, sb.path());
    sb
}

/// Every file under `dir`, by relative path, with its bytes.
fn tree_of(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(rel, fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn total(tree: &BTreeMap<String, Vec<u8>>) -> usize {
    tree.values().map(Vec::len).sum()
}

/// Whether the oracle accepts a copy of the tree `dir`, run in it with `$1`
/// the copy (or `first` in it), as `reduce` runs it.
fn oracle_accepts_tree(sb: &Sandbox, oracle: &str, dir: &Path, first: Option<&str>) -> bool {
    let test = tempfile::tempdir_in(sb.tmp()).unwrap();
    let root = test.path().join("copy");
    copy_tree(dir, &root);
    let arg = first.map_or(root.clone(), |f| root.join(f));
    succeeds_quietly(
        Command::new(sb.path().join(oracle))
            .arg(arg)
            .current_dir(&root),
    )
}

/// Reduces the set `inputs` of the sandbox into `out`, then checks what
/// every run keeps: exit 0, the inputs untouched, the result accepted by
/// the oracle and no larger, a second run on it changing nothing, `-j 2`
/// giving the `-j 1` result, and nothing left behind. Returns the result
/// tree and the stats.
fn reduce_set(
    sb: &Sandbox,
    inputs: &[&str],
    first: Option<&str>,
    extra: &[&str],
) -> (BTreeMap<String, Vec<u8>>, serde_json::Value) {
    let originals: Vec<_> = inputs
        .iter()
        .map(|i| tree_or_file(&sb.path().join(i)))
        .collect();
    let run = |out: &str, jobs: &str, set: &[&str]| {
        let mut args = vec!["--oracle", "check.sh", "-j", jobs, "-o", out, "-q"];
        args.extend(["--stats-json", "s.json"]);
        args.extend(extra);
        args.extend(set);
        let done = sb.reduce(&args);
        assert_exit(&done, 0);
        tree_of(&sb.path().join(out))
    };
    let result = run("out", "1", inputs);
    let s = stats(sb, "s.json");
    for (input, original) in inputs.iter().zip(&originals) {
        assert_eq!(
            &tree_or_file(&sb.path().join(input)),
            original,
            "an input changed"
        );
    }
    let before: usize = originals.iter().map(total).sum();
    assert!(total(&result) <= before, "the result grew");
    assert!(
        oracle_accepts_tree(sb, "check.sh", &sb.path().join("out"), first),
        "the result is not interesting"
    );
    assert_eq!(run("out-j2", "2", inputs), result, "-j 2 differs from -j 1");
    // A second run on the result (as a directory) changes nothing.
    if first.is_none() {
        assert_eq!(
            run("again", "1", &["out"]),
            result,
            "a second run changed the result"
        );
    }
    sb.assert_no_temp_left();
    let stray: Vec<_> = fs::read_dir(sb.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains("reduce-new"))
        .collect();
    assert!(stray.is_empty(), "scratch directories left: {stray:?}");
    (result, s)
}

fn tree_or_file(p: &Path) -> BTreeMap<String, Vec<u8>> {
    if p.is_dir() {
        tree_of(p)
    } else {
        BTreeMap::from([(String::new(), fs::read(p).unwrap())])
    }
}

#[test]
fn a_c_program_in_three_files_inlines_the_header_into_its_one_includer_and_drops_the_unrelated_file()
 {
    let sb = sandbox_with("multi-c");
    let (result, s) = reduce_set(&sb, &["src"], None, &[]);
    let names: Vec<&str> = result.keys().map(String::as_str).collect();
    assert_eq!(names, ["main.c"], "util.h is inlined: {result:?}");
    let main = String::from_utf8_lossy(&result["main.c"]);
    assert!(
        !main.contains("\"util.h\""),
        "the directive is gone: {main}"
    );
    assert!(
        main.contains("format") && main.contains("log_message"),
        "main.c keeps the header's format attribute and the call: {main}"
    );
    assert!(result["main.c"].len() < 300, "{result:?}");
    // Per-file stats: the unrelated file and the header are reported deleted.
    let files = s["files"].as_array().unwrap();
    for gone in ["stats.c", "util.h"] {
        let file = files.iter().find(|f| f["path"] == gone).unwrap();
        assert!(file["bytes_after"].is_null(), "{file}");
    }
    let inlined = s["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["name"].as_str().unwrap().starts_with("inline"))
        .map(|p| p["successes"].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(inlined, 1, "one inlining: {s}");
    assert_eq!(s["bytes_after"].as_u64().unwrap() as usize, total(&result));
}

#[test]
fn a_list_of_files_is_reduced_together_with_the_first_file_as_the_oracles_argument() {
    let sb = sandbox_with("multi-c");
    let inputs = ["src/main.c", "src/util.h", "src/stats.c"];
    let (result, _) = reduce_set(&sb, &inputs, Some("main.c"), &[]);
    assert!(
        result.contains_key("main.c") && result.len() == 1,
        "the header inlined, the unrelated file gone: {result:?}"
    );
    // Without -o, the result goes to reduced/ in the files' directory.
    let mut args = vec!["--oracle", "check.sh", "-q", "-j", "1"];
    args.extend(inputs);
    assert_exit(&sb.reduce(&args), 0);
    assert_eq!(tree_of(&sb.path().join("src/reduced")), result);
}

#[test]
fn a_directory_with_a_makefile_keeps_the_build_and_leaves_excluded_files_untouched() {
    let sb = sandbox_with("multi-make");
    let (result, _) = reduce_set(&sb, &["project"], None, &["--exclude", "*.txt"]);
    assert_eq!(
        result["NOTES.txt"],
        sb.read("project/NOTES.txt"),
        "an excluded file is copied as it is"
    );
    assert!(
        result.contains_key("Makefile") && result.contains_key("main.c"),
        "{result:?}"
    );
    assert!(
        !result.contains_key("parse.c"),
        "parse.c is not needed: {result:?}"
    );
    // The default output of a directory is DIR.reduced/.
    assert_exit(
        &sb.reduce(&[
            "--oracle",
            "check.sh",
            "-q",
            "project",
            "--exclude",
            "*.txt",
        ]),
        0,
    );
    assert_eq!(tree_of(&sb.path().join("project.reduced")), result);
}

#[test]
fn a_c_file_and_the_json_configuration_a_python_lint_reads_are_reduced_together() {
    let sb = sandbox_with("multi-config");
    let (result, _) = reduce_set(&sb, &["app"], None, &[]);
    let json = String::from_utf8_lossy(&result["lint.json"]);
    assert!(
        json.contains("meter_report") && !json.contains("meter_reset"),
        "{json}"
    );
    assert!(!json.contains("compiler"), "{json}");
    let c = String::from_utf8_lossy(&result["meter.c"]);
    assert!(
        c.contains("meter_report") && !c.contains("meter_add"),
        "{c}"
    );
}

#[test]
fn in_place_on_a_directory_swaps_it_whole_and_keeps_the_original_as_dir_orig() {
    let sb = sandbox_with("multi-c");
    let original = tree_of(&sb.path().join("src"));
    fs::create_dir(sb.path().join("src/empty")).unwrap();
    let out = sb.reduce(&["--oracle", "check.sh", "-q", "-j", "1", "--in-place", "src"]);
    assert_exit(&out, 0);
    assert_eq!(tree_of(&sb.path().join("src.orig")), original);
    let now = tree_of(&sb.path().join("src"));
    assert!(
        !now.contains_key("stats.c") && now.keys().all(|k| !k.ends_with(".orig")),
        "the unneeded file is removed, no FILE.orig inside: {now:?}"
    );
    assert!(now["main.c"].len() < original["main.c"].len());
    assert!(
        sb.path().join("src/empty").is_dir(),
        "an empty directory stays"
    );
    assert!(oracle_accepts_tree(
        &sb,
        "check.sh",
        &sb.path().join("src"),
        None
    ));
    // A second run refuses to overwrite the saved original.
    let again = sb.reduce(&["--oracle", "check.sh", "-q", "--in-place", "src"]);
    assert!(!again.status.success());
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(err.contains("src.orig already exists"), "{err}");
}

#[test]
fn in_place_on_listed_files_keeps_each_original_as_file_orig() {
    let sb = sandbox_with("multi-c");
    let original = tree_of(&sb.path().join("src"));
    let mut args = vec!["--oracle", "check.sh", "-q", "-j", "1", "--in-place"];
    args.extend(["src/main.c", "src/util.h", "src/stats.c"]);
    assert_exit(&sb.reduce(&args), 0);
    let now = tree_of(&sb.path().join("src"));
    for (name, bytes) in &original {
        assert_eq!(&now[&format!("{name}.orig")], bytes);
    }
    assert!(!now.contains_key("stats.c"), "{now:?}");
}

/// Runs `reduce -j 2` on multi-c's `src` with `destination` (its output
/// flags) through an oracle that counts its tests, kills it once
/// `changed` holds and it ran 40 tests, and checks that no process or
/// test directory is left.
fn kill_mid_way(sb: &Sandbox, destination: &[&str], changed: impl Fn() -> bool) {
    let counter = counting_oracle(sb);
    let args = [
        &["--oracle", "counting.sh", "-q", "-j", "2"][..],
        destination,
        &["src"],
    ]
    .concat();
    let child = sb.spawn_reduce(&args);
    crate::util::wait_for("a saved improvement and more tests", || {
        changed() && crate::util::lines_in(&counter) >= 40
    });
    kill_and_clean(sb, child);
}

/// Writes `counting.sh`, multi-c's `check.sh` appending a line to the
/// file it returns each time it runs.
fn counting_oracle(sb: &Sandbox) -> std::path::PathBuf {
    let counter = sb.path().join("calls");
    let counting = format!(
        "#!/bin/sh\necho run >> {}\nexec {}/check.sh \"$@\"\n",
        counter.display(),
        sb.path().display()
    );
    sb.write("counting.sh", &counting, true);
    counter
}

/// Kills `child` with SIGKILL and removes what a killed run cannot: the
/// directories of the tests it had running; no process is left.
fn kill_and_clean(sb: &Sandbox, mut child: std::process::Child) {
    child.kill().unwrap();
    child.wait().unwrap();
    crate::util::assert_no_process_soon(&sb.path().display().to_string());
    for dir in fs::read_dir(sb.tmp()).unwrap() {
        fs::remove_dir_all(dir.unwrap().path()).unwrap();
    }
}

/// The verdicts `out.reduce-journal` holds (0 before it exists).
fn journaled_verdicts(sb: &Sandbox) -> usize {
    fs::read_to_string(sb.path().join("out.reduce-journal"))
        .map_or(0, |j| j.lines().filter(|l| l.starts_with("v ")).count())
}

/// multi-c's `src` reduced by `counting.sh` at `-j 1` into `ref`, without
/// a stop: the result, and how many times the oracle ran (the checks of
/// the original and of the result included).
fn uninterrupted(sb: &Sandbox) -> (BTreeMap<String, Vec<u8>>, usize) {
    let counter = counting_oracle(sb);
    let out = sb.reduce(&["--oracle", "counting.sh", "-j", "1", "-o", "ref", "src"]);
    assert_exit(&out, 0);
    let calls = crate::util::lines_in(&counter);
    fs::remove_file(counter).unwrap();
    (tree_of(&sb.path().join("ref")), calls)
}

#[test]
fn a_set_run_killed_at_any_moment_resumes_to_the_uninterrupted_tree_testing_only_what_its_journal_lacks()
 {
    let sb = sandbox_with("multi-c");
    let (reference, whole) = uninterrupted(&sb);
    let counter = sb.path().join("calls");
    let before = tree_of(&sb.path().join("src"));
    // -j 1's calls add up exactly; -j 2 resumes to -j 1's result too.
    for (jobs, part) in [("1", 2), ("2", 3)] {
        let args = ["--oracle", "counting.sh", "-j", jobs, "-o", "out", "src"];
        let child = sb.spawn_reduce(&args);
        let journaled = whole / part;
        crate::util::wait_for("the journal's verdicts", || {
            journaled_verdicts(&sb) >= journaled
        });
        kill_and_clean(&sb, child);
        let known = journaled_verdicts(&sb);
        fs::remove_file(&counter).unwrap();
        let out = sb.reduce(&args);
        assert_exit(&out, 0);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("reduce: resuming from "), "{err}");
        let result = tree_of(&sb.path().join("out"));
        assert_eq!(result, reference, "-j {jobs}: {err}");
        let calls = crate::util::lines_in(&counter);
        assert!(
            calls < whole,
            "-j {jobs} resumed: {calls} oracle runs; uninterrupted: {whole}"
        );
        if jobs == "1" {
            // The tests the journal lacks, the test in flight when killed
            // and one more that may have started before the kill landed.
            assert!(
                calls <= whole - known + 2,
                "resumed: {calls} oracle runs, {known} verdicts journaled; uninterrupted: {whole}"
            );
        }
        assert!(!sb.path().join("out.reduce-journal").exists(), "{err}");
        assert!(oracle_accepts_tree(
            &sb,
            "check.sh",
            &sb.path().join("out"),
            None
        ));
        assert!(total(&result) <= total(&before));
        assert_eq!(tree_of(&sb.path().join("src")), before, "the input changed");
        fs::remove_dir_all(sb.path().join("out")).unwrap();
    }
    // A second run on the result changes nothing.
    let again = sb.reduce(&["--oracle", "check.sh", "-q", "-o", "again", "ref"]);
    assert_exit(&again, 0);
    assert_eq!(tree_of(&sb.path().join("again")), reference);
    sb.assert_no_temp_left();
}

#[test]
fn a_set_run_stopped_by_sigterm_keeps_its_journal_and_fresh_starts_over_into_the_same_directory() {
    let sb = sandbox_with("multi-c");
    let (reference, whole) = uninterrupted(&sb);
    let args = ["--oracle", "counting.sh", "-o", "out", "src"];
    let child = sb.spawn_reduce(&args);
    crate::util::wait_for("the journal's verdicts", || {
        journaled_verdicts(&sb) >= whole / 2 && sb.path().join("out").exists()
    });
    // SAFETY: kill sends a signal to the child this test started.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let stopped = child.wait_with_output().unwrap();
    assert_exit(&stopped, 143);
    let err = String::from_utf8_lossy(&stopped.stderr);
    assert!(
        err.contains("run the same command again to resume"),
        "{err}"
    );
    assert!(sb.path().join("out.reduce-journal").exists());
    assert!(oracle_accepts_tree(
        &sb,
        "check.sh",
        &sb.path().join("out"),
        None
    ));
    // The interrupted run's output is no "non-empty -o" to refuse.
    let fresh = sb.reduce(&[&args[..], &["--fresh"]].concat());
    assert_exit(&fresh, 0);
    let err = String::from_utf8_lossy(&fresh.stderr);
    assert!(!err.contains("resuming"), "{err}");
    let result = tree_of(&sb.path().join("out"));
    assert_eq!(result, reference);
    assert!(!sb.path().join("out.reduce-journal").exists());
    assert!(oracle_accepts_tree(
        &sb,
        "check.sh",
        &sb.path().join("out"),
        None
    ));
    assert!(total(&result) <= total(&tree_of(&sb.path().join("src"))));
    let again = sb.reduce(&["--oracle", "check.sh", "-q", "-o", "again", "out"]);
    assert_exit(&again, 0);
    assert_eq!(tree_of(&sb.path().join("again")), result);
    sb.assert_no_temp_left();
}

#[test]
fn a_directory_reduced_in_place_and_killed_mid_way_is_whole_and_interesting() {
    let sb = sandbox_with("multi-c");
    let original = tree_of(&sb.path().join("src"));
    // stats.c goes in the first stage: the directory was swapped since.
    kill_mid_way(&sb, &["--in-place"], || {
        !sb.path().join("src/stats.c").exists()
    });
    let src = sb.path().join("src");
    assert!(
        oracle_accepts_tree(&sb, "check.sh", &src, None),
        "{:?}",
        tree_of(&src)
    );
    assert!(total(&tree_of(&src)) <= total(&original));
    assert_eq!(tree_of(&sb.path().join("src.orig")), original);
}

#[test]
fn what_cannot_be_a_set_of_files_is_refused_with_one_line_and_exit_2() {
    let sb = sandbox_with("multi-c");
    fs::create_dir(sb.path().join("empty")).unwrap();
    std::os::unix::fs::symlink("main.c", sb.path().join("src/link.c")).unwrap();
    let cases: [&[&str]; 5] = [
        &["src"],                            // a symlink inside
        &["empty"],                          // no files
        &["src/main.c", "src/main.c"],       // a file twice
        &["src/main.c", "-"],                // standard input among files
        &["src/main.c", "--exclude", "*.c"], // --exclude on one file
    ];
    for case in cases {
        let mut args = vec!["--oracle", "check.sh", "-q"];
        args.extend(case);
        let out = sb.reduce(&args);
        assert_exit(&out, 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{case:?}: {err}");
    }
    fs::remove_file(sb.path().join("src/link.c")).unwrap();
    let out = sb.reduce(&["--oracle", "check.sh", "-q", "src", "--exclude", "*"]);
    assert_exit(&out, 2);
    // The run-level flags that work on one file's text.
    for flag in [
        &["--history", "h"][..],
        &["--restart"],
        &["--reduce-with", "true"],
        &["--propose-with", "true"],
    ] {
        let mut args = vec!["--oracle", "check.sh", "-q", "src"];
        args.extend(flag);
        let out = sb.reduce(&args);
        assert_exit(&out, 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(flag[0]) && err.trim().lines().count() == 1,
            "{err}"
        );
    }
}

#[test]
fn an_oracle_that_accepts_no_files_or_empty_files_is_refused() {
    let sb = sandbox_with("multi-c");
    sb.write("any.sh", "#!/bin/sh\ntest -d \"$1\"\n", true);
    let out = sb.reduce(&["--oracle", "any.sh", "-q", "src"]);
    assert_exit(&out, 3);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no files"), "{err}");
    sb.write("files.sh", "#!/bin/sh\ntest -f \"$1\"/main.c\n", true);
    let out = sb.reduce(&["--oracle", "files.sh", "-q", "src"]);
    assert_exit(&out, 3);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("every file empty"), "{err}");
}

#[test]
fn a_launcher_is_handed_the_test_directory_and_gives_the_same_result() {
    let sb = sandbox_with("multi-c");
    let launcher = sb.write(
        "launch.sh",
        "#!/bin/sh\n# Counts its runs, then runs the test where it is.\necho run >> \"$(dirname \"$0\")/launched\"\nexec \"$@\"\n",
        true,
    );
    let launcher = launcher.display().to_string();
    let (result, _) = reduce_set(&sb, &["src"], None, &["--launcher", &launcher]);
    assert!(crate::util::lines_in(&sb.path().join("launched")) > 0);
    let plain = sb.reduce(&[
        "--oracle", "check.sh", "-q", "-j", "1", "-o", "plain", "src",
    ]);
    assert_exit(&plain, 0);
    assert_eq!(tree_of(&sb.path().join("plain")), result);
}

#[test]
fn a_run_killed_mid_way_leaves_a_whole_interesting_output_directory() {
    let sb = sandbox_with("multi-c");
    kill_mid_way(&sb, &["-o", "out"], || sb.path().join("out").exists());
    let out = sb.path().join("out");
    assert!(
        oracle_accepts_tree(&sb, "check.sh", &out, None),
        "{:?}",
        tree_of(&out)
    );
    assert!(total(&tree_of(&out)) <= total(&tree_of(&sb.path().join("src"))));
}
