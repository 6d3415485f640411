//! What a run tells when it is over: the one-line summary on stderr, the
//! recheck failures, and the counters and timings of `--stats-json`.

use std::time::Instant;

use anyhow::{Context, Result};

use crate::engine::StopReason;
use crate::fileset::per_file;
use crate::input::Input;
use crate::output::{Destination, write_atomically};
use crate::pipeline::Plan;
use crate::settings::Settings;
use crate::stages::Reduced;
use crate::stats::{RunReport, self_cpu_seconds};

/// The run's report, from the plan of its first stage and what the stages left.
pub(crate) fn run_report(
    settings: &Settings,
    input: &Input,
    plan: &Plan,
    reduced: Reduced,
    started: Instant,
) -> RunReport {
    let files = input
        .files
        .as_ref()
        .map_or_else(Vec::new, |set| per_file(set, &reduced.bytes));
    // A set's sizes are its files' (the archive's markers are not counted).
    let (bytes_before, bytes_after) = if files.is_empty() {
        (input.source.len() as u64, reduced.bytes.len() as u64)
    } else {
        (
            files.iter().map(|f| f.1).sum(),
            files.iter().filter_map(|f| f.2).sum(),
        )
    };
    RunReport {
        algo: plan.algo_name(),
        phases: reduced.carried.phases,
        units_before: plan.units().len(),
        units_after: reduced.units,
        bytes_before,
        bytes_after,
        wall_seconds: started.elapsed().as_secs_f64(),
        jobs: settings.jobs,
        wave: settings.wave,
        unit: plan.unit().name().to_string(),
        language: input.lang.name().to_string(),
        parse_errors: plan.parse_errors().unwrap_or(0),
        blocks_fallback: plan.fell_back_to_blocks().is_some(),
        stop_reason: reduced.reason.name().to_string(),
        reducer_cpu_seconds: self_cpu_seconds(),
        memory_limit: None,
        retests: reduced.retests,
        restart: reduced.restart,
        files,
    }
}

/// The error of a run whose result failed a re-test: the oracle is flaky,
/// and the output holds the last result that passed twice.
pub(crate) fn flaky_failure(cause: &str, destination: &Destination) -> anyhow::Error {
    anyhow::anyhow!(
        "the result is no longer interesting ({cause}): the oracle is flaky \
         (--recheck re-tests every success before committing it); {} holds the last \
         result that passed twice",
        destination.describe()
    )
}

/// Writes `report` as JSON where `--stats-json` says, if it does.
pub(crate) fn write_stats(settings: &Settings, report: &RunReport) -> Result<()> {
    if let Some(path) = &settings.stats_json {
        let text = serde_json::to_string_pretty(&report.to_json())?;
        write_atomically(path, text.as_bytes())
            .with_context(|| format!("cannot write --stats-json {}", path.display()))?;
    }
    Ok(())
}

/// The warning for candidates that passed once and failed the re-check
/// (`--recheck`), if there were any.
pub(crate) fn recheck_failures(n: u64) -> Option<String> {
    (n > 0).then(|| {
        format!(
            "reduce: {n} candidate{} passed once but failed the re-check and {} not committed: the oracle is flaky",
            if n == 1 { "" } else { "s" },
            if n == 1 { "was" } else { "were" },
        )
    })
}

/// The last line of a run: sizes before and after, tests, time, where the result is.
pub(crate) fn summary(report: &RunReport, destination: &Destination, reason: StopReason) -> String {
    let note = match reason {
        StopReason::Finished => String::new(),
        StopReason::MaxTests | StopReason::MaxTime => {
            format!(
                " (stopped by --{}; the result may not be minimal)",
                reason.name()
            )
        }
        StopReason::Interrupted => " (interrupted; the result is the best so far)".to_string(),
        StopReason::Fault => {
            " (stopped: tests could not run; the result is the best so far, not a minimal one)"
                .to_string()
        }
        StopReason::Flaky => {
            " (stopped: the oracle is flaky; the result is the last one that passed twice)"
                .to_string()
        }
    };
    let mut files = String::new();
    for (path, before, after) in &report.files {
        files.push_str(&match after {
            Some(after) => format!("reduce:   {path}: {before} → {after} bytes\n"),
            None => format!("reduce:   {path}: {before} bytes → deleted\n"),
        });
    }
    format!(
        "{files}reduce: {} → {} bytes ({:.1}%), {} → {} units, {} tests, {} cache hits, {:.1}s; result in {}{note}{}{}",
        report.bytes_before,
        report.bytes_after,
        crate::progress::percent(report.bytes_after, report.bytes_before),
        report.units_before,
        report.units_after,
        report.oracle_calls(),
        report.cache_hits(),
        report.wall_seconds,
        destination.describe(),
        restart_note(report),
        memory_note(report),
    )
}

/// What `--restart` gained, for the summary.
fn restart_note(report: &RunReport) -> String {
    let Some(r) = &report.restart else {
        return String::new();
    };
    let tests = report.oracle_calls().saturating_sub(r.tests_before);
    let rounds = format!(
        "{} restart{}",
        r.restarts,
        if r.restarts == 1 { "" } else { "s" }
    );
    if (report.units_after, report.bytes_after) < (r.units_before, r.bytes_before) {
        format!(
            "; --restart ({rounds}, {tests} tests) gained {} units, {} bytes",
            r.units_before.saturating_sub(report.units_after),
            r.bytes_before as i64 - report.bytes_after as i64,
        )
    } else {
        format!("; --restart ({rounds}, {tests} tests) gained nothing")
    }
}

/// The tests `--memory-limit` stopped, for the summary.
fn memory_note(report: &RunReport) -> String {
    match report.memory_limit {
        Some((bytes, hits)) if hits > 0 => format!(
            "; {hits} test{} ran out of memory under --memory-limit {}",
            if hits == 1 { "" } else { "s" },
            crate::oracle::size_name(bytes)
        ),
        _ => String::new(),
    }
}

/// The first line of a run, once the oracle is trusted: what is reduced,
/// how, and with which timeout.
pub(crate) fn start_line(
    settings: &Settings,
    input: &Input,
    plan: &Plan,
    timeout: std::time::Duration,
) -> String {
    let jobs = settings.jobs;
    let waves = match settings.wave {
        1 => String::new(),
        w => format!(", waves of {w}"),
    };
    format!(
        "reduce: {} ({} bytes, {} {}s), algorithm {}, {} job{}{waves}, timeout {:.1}s",
        if let Some(set) = &input.files {
            format!(
                "{} files in {}",
                set.members.len() + set.kept.len(),
                set.base.display()
            )
        } else if settings.reads_stdin() {
            "standard input".to_string()
        } else {
            settings.input.display().to_string()
        },
        input.source.len(),
        plan.units().len(),
        plan.unit().name(),
        plan.algo_name(),
        jobs,
        if jobs == 1 { "" } else { "s" },
        timeout.as_secs_f64(),
    )
}

/// The warning for an input that does not parse cleanly, if it does not.
pub(crate) fn parse_errors(plan: &Plan, input: &Input) -> Option<String> {
    if let Some(share) = plan.fell_back_to_blocks() {
        return Some(format!(
            "reduce: {:.0}% of the input lies in parse errors ({}); reducing it as text blocks",
            share * 100.0,
            input.lang.name()
        ));
    }
    let errors = plan.parse_errors().filter(|&e| e > 0)?;
    Some(format!(
        "reduce: the input has {errors} parse error{} ({}); reducing anyway",
        if errors == 1 { "" } else { "s" },
        input.lang.name()
    ))
}
