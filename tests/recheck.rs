//! `--recheck` re-tests every success before it counts, whichever
//! scheduler asked for the candidate: the serial one, tests ahead at
//! `-j 4`, waves, a proposal, an outside reducer, an include inlined in a
//! set of files (issue 44). Each oracle here passes a candidate the first
//! time it sees it and never again, and the run must end where an honest
//! oracle would have it end.

use crate::multi::sandbox_with;
use crate::oracle::lucky_pass_script;
use crate::util::{Sandbox, assert_exit, assert_invariants, stats};

/// `flaky.sh`: passes a file holding `KEEP`, and a file reading `X` only
/// the first time it sees one.
fn flaky_x(sb: &Sandbox) {
    sb.write(
        "flaky.sh",
        "#!/bin/sh\ngrep -q KEEP \"$1\" && exit 0\n[ \"$(cat \"$1\")\" = X ] || exit 1\n\
         seen=\"$(dirname \"$0\")/seen-x\"\n[ -e \"$seen\" ] && exit 1\ntouch \"$seen\"\n",
        true,
    );
    sb.write("in.txt", "a\nb\nKEEP\nc\nd\n", false);
}

/// Runs `args` on `in.txt` with `flaky.sh`: the output, and the stats.
fn run_flaky(sb: &Sandbox, args: &[&str]) -> (Vec<u8>, serde_json::Value) {
    let mut all = args.to_vec();
    all.extend(["--oracle", "flaky.sh", "in.txt", "--stats-json", "s.json"]);
    let out = sb.reduce(&all);
    assert_exit(&out, 0);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("failed the re-check"), "{args:?}: {err}");
    (sb.read("in.reduced.txt"), stats(sb, "s.json"))
}

#[test]
fn a_proposal_that_passes_once_is_rechecked_and_the_run_ends_at_keep() {
    for jobs in ["1", "4"] {
        let sb = Sandbox::new();
        flaky_x(&sb);
        sb.write("propose.sh", "#!/bin/sh\necho X\n", true);
        let args = ["--recheck", "-j", jobs, "--propose-with", "./propose.sh"];
        let (result, s) = run_flaky(&sb, &args);
        assert_eq!(result, b"KEEP\n", "-j {jobs}");
        let proposed = s["phases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "propose-with")
            .expect("the proposal was judged");
        assert_eq!(proposed["successes"], 0, "{proposed}");
        assert_eq!(proposed["tests"], 2, "the test and its re-test: {proposed}");
    }
}

#[test]
fn an_outside_reducers_result_that_passes_once_is_rechecked_and_refused() {
    let sb = Sandbox::new();
    flaky_x(&sb);
    // Rewrites its file to `X`: smaller than the best, passes once.
    sb.write("to-x.sh", "#!/bin/sh\necho X > \"$1\"\n", true);
    let (result, s) = run_flaky(&sb, &["--recheck", "--reduce-with", "./to-x.sh"]);
    assert_eq!(result, b"KEEP\n");
    let phases = s["phases"].as_array().unwrap();
    let outside = phases.iter().find(|p| p["name"] == "reduce-with").unwrap();
    assert_eq!(outside["successes"], 0, "{outside}");
}

/// `lucky.sh` (line 7 is always needed; a candidate without line 3 passes
/// the first time it is seen only) and twelve numbered lines.
fn lucky_lines(sb: &Sandbox) {
    lucky_pass_script(sb);
    let numbers: String = (0..12).map(|i| format!("{i}\n")).collect();
    sb.write("in.txt", &numbers, false);
}

#[test]
fn the_policies_candidates_are_rechecked_serially_ahead_and_in_waves() {
    for setting in [
        &["-j", "1"][..],
        &["-j", "4", "--wave", "1"],
        &["-j", "4", "--wave", "4"],
    ] {
        let sb = Sandbox::new();
        lucky_lines(&sb);
        let original = sb.read("in.txt");
        let mut args = vec!["--unit", "line", "--recheck"];
        args.extend(setting);
        let mut run = args.clone();
        run.extend(["--oracle", "lucky.sh", "in.txt", "--stats-json", "s.json"]);
        let out = sb.reduce(&run);
        assert_exit(&out, 0);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("failed the re-check"), "{setting:?}: {err}");
        assert_eq!(sb.read("in.reduced.txt"), b"3\n7\n", "{setting:?}");
        let s = stats(&sb, "s.json");
        let calls = s["oracle_calls"].as_u64().unwrap();
        let successes = s["successes"].as_u64().unwrap();
        assert!(calls >= 2 * successes, "{setting:?}: re-tests are counted");
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
fn an_include_inlined_in_a_set_is_rechecked_before_it_counts() {
    let sb = sandbox_with("multi-c");
    // The set's check, and a candidate without util.h (the header
    // inlined) passes the first time it is seen only.
    sb.write(
        "once-inlined.sh",
        "#!/bin/sh\nhere=$(cd \"$(dirname \"$0\")\" && pwd)\n\"$here/check.sh\" \"$@\" || exit 1\n\
         d=${1:-.}\n[ -d \"$d\" ] || d=$(dirname \"$d\")\n[ -e \"$d/util.h\" ] && exit 0\n\
         key=$(cat \"$d\"/*.c | cksum | cut -d' ' -f1)\nmkdir -p \"$here/seen\"\n\
         [ -e \"$here/seen/$key\" ] && exit 1\ntouch \"$here/seen/$key\"\n",
        true,
    );
    let out = sb.reduce(&[
        "--recheck",
        "--oracle",
        "once-inlined.sh",
        "src",
        "-o",
        "out",
        "--stats-json",
        "s.json",
        "-q",
    ]);
    assert_exit(&out, 0);
    assert!(
        sb.path().join("out/util.h").exists(),
        "the header was inlined on one lucky test"
    );
    let s = stats(&sb, "s.json");
    let inlined: Vec<&serde_json::Value> = s["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["name"].as_str().unwrap().starts_with("inline"))
        .collect();
    assert!(!inlined.is_empty(), "no inlining was tried: {s}");
    for phase in inlined {
        assert_eq!(phase["successes"], 0, "{phase}");
    }
}
