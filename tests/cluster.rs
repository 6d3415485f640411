//! Oracle tests run through a launcher (`--launcher`), as on a cluster: a
//! simulated slow scheduler here, and a real one-node Slurm cluster in the
//! tests marked `ignore` (run by `.ci/run` after
//! `scripts/slurm-single-node.sh` has started the cluster).

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::util::{Sandbox, assert_exit, assert_invariants, assert_no_process, run_quietly, stats};

fn fixture_path(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/cluster")
        .join(name)
        .display()
        .to_string()
}

/// Reduces `lines.txt` with `--launcher launcher` at `jobs`; returns the
/// output and the stats.
fn reduce_through(sb: &Sandbox, launcher: &str, jobs: &str, out: &str) -> serde_json::Value {
    let stats_file = format!("{out}.json");
    let args = [
        "--algo",
        "ddmin",
        "--unit",
        "line",
        "--launcher",
        launcher,
        "-j",
        jobs,
        "--oracle",
        "check.sh",
        "lines.txt",
        "-o",
        out,
        "-q",
        "--stats-json",
        &stats_file,
    ];
    let run = sb.reduce(&args);
    assert_exit(&run, 0);
    stats(sb, &stats_file)
}

#[test]
fn a_simulated_slow_cluster_at_32_jobs_commits_what_one_job_commits() {
    let sb = Sandbox::new();
    sb.fixture("cluster");
    // The fixture's launcher with shorter waits than its defaults (10 ms
    // and up to 60 more at random, against 50 and 200): enough for tests
    // started in one order to finish in another at 32 jobs.
    let launcher = sb.write(
        "launch.sh",
        &format!(
            "#!/bin/sh\nLAUNCH_LATENCY_MS=10 LAUNCH_JITTER_MS=60 exec {} \"$@\"\n",
            fixture_path("slow-launcher.sh")
        ),
        true,
    );
    let launcher = launcher.display().to_string();
    let one = reduce_through(&sb, &launcher, "1", "one.txt");
    let many = reduce_through(&sb, &launcher, "32", "many.txt");
    assert_eq!(sb.read("one.txt"), b"13\n58\n91\n");
    assert_eq!(sb.read("many.txt"), sb.read("one.txt"));
    let successes = |s: &serde_json::Value| s["phases"][0]["successes"].clone();
    assert_eq!(successes(&many), successes(&one), "the same steps commit");
    let original = sb.read("lines.txt");
    let args = ["--algo", "ddmin", "--unit", "line", "--launcher", &launcher];
    assert_invariants(&sb, "check.sh", "lines.txt", &original, "many.txt", &args);
}

#[test]
fn a_launcher_that_cannot_be_found_is_named_in_the_refusal() {
    let sb = Sandbox::new();
    sb.fixture("cluster");
    let out = sb.reduce(&[
        "--launcher",
        "/nonexistent/launch --",
        "--oracle",
        "check.sh",
        "lines.txt",
    ]);
    assert_exit(&out, 3);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/launch --"), "{err}");
    assert!(err.contains("exit code 127"), "{err}");
}

#[test]
fn the_launcher_gets_the_oracle_and_the_candidate_in_the_test_directory() {
    let sb = Sandbox::new();
    sb.fixture("cluster");
    // A launcher that records how it was called, then runs the test.
    let log = sb.path().join("calls.log");
    let launcher = sb.write(
        "record.sh",
        &format!(
            "#!/bin/sh\necho \"$# $(basename \"$1\") $(basename \"$2\") $(dirname \"$2\" | grep -c \"^$(pwd)$\")\" >> {}\nexec \"$@\"\n",
            log.display()
        ),
        true,
    );
    let launcher = format!("{} ", launcher.display());
    reduce_through(&sb, &launcher, "2", "out.txt");
    let calls = String::from_utf8(sb.read("calls.log")).unwrap();
    assert!(calls.lines().count() > 3);
    for line in calls.lines() {
        assert_eq!(
            line, "2 check.sh lines.txt 1",
            "args: script, candidate in cwd"
        );
    }
}

const SRUN: &str = "srun --quiet -N1 -n1 --";

/// The queue's jobs named `job_name` (the script the launcher runs): the
/// cluster tests run at the same time, so each looks at its own jobs only.
fn squeue(job_name: &str) -> String {
    let out = run_quietly(Command::new("squeue").args(["-h", "-n", job_name]));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The states (`RUNNING`, `COMPLETING`, ...) of the queue's jobs named
/// `job_name`, one per job.
fn job_states(job_name: &str) -> Vec<String> {
    let out = run_quietly(Command::new("squeue").args(["-h", "-n", job_name, "-o", "%T"]));
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Asserts that no job named `job_name` still runs or waits to run, then
/// that the queue empties of them. A job that ended or was cancelled is
/// listed as COMPLETING until its node has cleaned up after it, which takes
/// Slurm a moment after `srun` has returned: that state alone is allowed
/// to linger, for at most half a minute.
fn assert_jobs_gone(job_name: &str) {
    let states = job_states(job_name);
    assert!(
        states.iter().all(|state| state == "COMPLETING"),
        "jobs still active: {states:?}"
    );
    for _ in 0..150 {
        if job_states(job_name).is_empty() {
            return;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    panic!("no job left in the queue: {}", squeue(job_name));
}

#[test]
#[ignore = "needs a Slurm cluster: scripts/slurm-single-node.sh, then cargo test -- --ignored slurm"]
fn slurm_through_srun_gives_the_local_result() {
    let sb = Sandbox::new();
    sb.fixture("cluster");
    let local = reduce_through(&sb, "exec", "2", "local.txt");
    let slurm = reduce_through(&sb, SRUN, "8", "slurm.txt");
    assert_eq!(sb.read("slurm.txt"), sb.read("local.txt"));
    assert_eq!(
        slurm["phases"][0]["successes"],
        local["phases"][0]["successes"]
    );
    let original = sb.read("lines.txt");
    let args = ["--algo", "ddmin", "--unit", "line", "--launcher", SRUN];
    assert_invariants(&sb, "check.sh", "lines.txt", &original, "slurm.txt", &args);
    assert_jobs_gone("check.sh");
}

#[test]
#[ignore = "needs a Slurm cluster: scripts/slurm-single-node.sh, then cargo test -- --ignored slurm"]
fn slurm_jobs_of_an_interrupted_run_are_cancelled() {
    let sb = Sandbox::new();
    sb.fixture("cluster");
    // Candidates (smaller than the original) sleep on the cluster. The
    // script's name, which Slurm takes as the job name, is this run's own:
    // jobs an aborted earlier run left sleeping are not this run's.
    let slow = format!("slow-{}.sh", std::process::id());
    let sleeper = format!("reduce-slurm-sleeper-{}", std::process::id());
    sb.write(
        &slow,
        &format!(
            "#!/bin/sh\n[ \"$(wc -l < \"$1\")\" -lt 100 ] && exec sleep 300 {sleeper}\nexit 0\n"
        ),
        true,
    );
    let mut child = sb.spawn_reduce(&[
        "--launcher",
        SRUN,
        "-j",
        "4",
        "--oracle",
        &slow,
        "lines.txt",
    ]);
    // Wait until the candidates' jobs run on the cluster.
    let mut running = 0;
    for _ in 0..100 {
        std::thread::sleep(Duration::from_millis(200));
        running = squeue(&slow).lines().count();
        if running >= 4 {
            break;
        }
    }
    assert!(
        running >= 4,
        "four jobs should be running: {}",
        squeue(&slow)
    );
    // SAFETY: sending a signal to our own child process.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert_jobs_gone(&slow);
    assert_no_process(&sleeper);
    sb.assert_no_temp_left();
}
