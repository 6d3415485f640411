//! One run of the `reduce` command, from its settings to the written result.
//!
//! Reads the input (`crate::input`), checks that the oracle can be trusted
//! (`crate::checks`), runs the plan's stages through the reduce loop while
//! saving every improvement (`crate::stages`), checks the result again and
//! reports (`crate::report`). Errors carry their context here, at the edge;
//! oracle crashes and timeouts are verdicts handled by the loop. A run
//! writing a result file keeps a journal beside it (`crate::journal`), which
//! the same command resumes from.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result};

use crate::checks;
use crate::engine::{Limits, StopReason};
use crate::exit::{self, failure};
use crate::fileset::{FileSet, Grain};
use crate::history::History;
use crate::input::Input;
use crate::interfaces::{Formatter, Messages, StepLog};
use crate::journal::{self, Journal, Resumed};
use crate::multi::{pool_plan, run_set};
use crate::oracle::{
    Formatting, ScriptOracle, dev_null_problem, kill_strays, program_problem, remove_leftover_dirs,
    resolve_script,
};
use crate::output::{Destination, write_stdout};
use crate::pipeline::Plan;
use crate::progress::{Printer, Progress};
use crate::proposals::Passes;
use crate::report;
use crate::settings::{Judge, Settings};
use crate::stages::{Reduced, Stages};

/// Which signal stopped the run, if any (set by the handlers in `main`).
#[derive(Default)]
pub struct Signals {
    pub interrupted: Arc<AtomicBool>,
    pub last_signal: Arc<AtomicUsize>,
}

/// Runs the reduction `settings` describe; returns the exit code.
pub fn run(settings: &Settings, signals: &Signals) -> Result<i32> {
    // From the first test on, whatever escaped its group dies with the run.
    let _strays = KillStraysOnDrop;
    if settings.each {
        let script = usable_oracle(settings)?;
        let one = |case: &Settings| run_one(case, signals);
        return crate::each::run(settings, &script, &signals.interrupted, &one);
    }
    run_one(settings, signals)
}

/// Runs the reduction of one test case (a file, standard input, or a set
/// of files reduced together); returns the exit code.
fn run_one(settings: &Settings, signals: &Signals) -> Result<i32> {
    let started = Instant::now();
    // Before and after the live display, lines go plainly to stderr;
    // during it, the oracle's go above it.
    let printer = Printer::stderr();
    let say = |line: &str| {
        if !settings.quiet {
            printer.say(&format!("{line}\n"));
        }
    };
    // Everything that can be checked before the first test is checked now.
    let script = usable_oracle(settings)?;
    let input = Input::read(settings)?;
    let earlier = EarlierRun::find(settings, &input, &script)?;
    if let Some(line) = earlier.resuming_line() {
        say(&line);
    }
    let plan = plan_of(settings, &input)?;
    if let Some(warning) = report::parse_errors(&plan, &input) {
        say(&warning);
    }
    let Some(oracle) = checks::trusted_oracle(settings, &script, &input, &signals.interrupted)?
    else {
        say("reduce: interrupted before the reduction started");
        return Ok(interrupted_code(signals));
    };
    if print_or_say_the_builtin(settings, &oracle, &say)? {
        return Ok(exit::OK);
    }

    let destination = &input.destination;
    destination.prepare(&input.source)?;
    say(&report::start_line(
        settings,
        &input,
        &plan,
        oracle.timeout(),
    ));
    let quiet = settings.quiet || settings.verbose;
    let mut progress = Progress::new(quiet, plan.units().len(), input.source.len() as u64);
    let live: Arc<dyn Messages> = Arc::new(progress.printer());
    let oracle = oracle.with_messages(Arc::clone(&live));
    let journal = earlier.start(Arc::clone(&live))?;
    let history = start_history(settings, &input, &*live)?;
    let passes = Passes::new(settings, &oracle, &*live, Some(&*signals.interrupted));
    let formatting = settings.strategy.tuning.format.uses_formatter().then(|| {
        let command = settings.format_with.as_deref();
        Formatting::new(&oracle, command, Some(&*signals.interrupted))
    });
    let stages = Stages {
        settings,
        lang: input.lang,
        oracle: &oracle,
        destination,
        limits: limits(settings, started, signals),
        journal: journal.as_ref(),
        messages: &*live,
        steps: history.as_ref().map(|h| h as &dyn StepLog),
        passes: &passes,
        formatter: formatting.as_ref().map(|f| f as &dyn Formatter),
    };
    let mut reduced = match &input.files {
        Some(set) => run_set(&stages, set, &input.source, &mut progress, earlier.resumed)?,
        None => stages.run_stages(&plan, &input.source, &mut progress, earlier.resumed, None)?,
    };
    progress.finish();
    if let Some(warning) = report::recheck_failures(reduced.carried.recheck_failures) {
        say(&warning);
    }

    let fault = reduced.carried.fault.clone();
    let ended = !matches!(reduced.reason, StopReason::Interrupted | StopReason::Fault);
    let flaky = final_check(settings, &oracle, &input, &mut reduced)?;
    let reason = reduced.reason;
    write_result(destination, &reduced, &say)?;
    let mut run = report::run_report(settings, &input, &plan, reduced, started);
    run.memory_limit = oracle.memory_limit().map(|m| (m.bytes(), m.hits()));
    report::write_stats(settings, &run)?;
    say(&report::summary(&run, destination, reason));
    match (journal, ended) {
        (Some(journal), true) => journal.remove()?,
        (Some(journal), false) => say(&format!(
            "reduce: run the same command again to resume (journal: {})",
            journal.path().display()
        )),
        (None, _) => {}
    }
    if let Some(cause) = flaky {
        return Err(report::flaky_failure(cause, destination));
    }
    exit_code(reason, fault, signals)
}

/// With `--run`: writes its script instead of reducing (`--print-oracle`;
/// returns true), or says the crash `--same-crash` keeps.
fn print_or_say_the_builtin(
    settings: &Settings,
    oracle: &ScriptOracle,
    say: &dyn Fn(&str),
) -> Result<bool> {
    let Some(builtin) = oracle.builtin() else {
        return Ok(false);
    };
    if settings.print_oracle {
        write_stdout(builtin.script().as_bytes())?;
        return Ok(true);
    }
    if let Some(signature) = builtin.signature() {
        say(&format!("reduce: keeping the crash {signature}"));
    }
    Ok(false)
}

/// The oracle's script, made absolute (`/bin/sh` for `--run`'s command),
/// once it and the machine can run tests: an executable script, and a
/// `/dev/null` that is a character device (every oracle misbehaves without
/// one); else exit 4.
fn usable_oracle(settings: &Settings) -> Result<PathBuf> {
    if let Some(problem) = dev_null_problem() {
        return Err(failure(
            exit::ORACLE_UNUSABLE,
            format!("reduce cannot run tests: {problem}"),
        ));
    }
    match &settings.oracle {
        Judge::Script(path) => {
            resolve_script(path).map_err(|e| failure(exit::ORACLE_UNUSABLE, format!("{e:#}")))
        }
        // The built-in oracle's command runs through the shell (or
        // directly, when simple): its program must be there.
        Judge::Run(spec) => {
            let cwd = std::env::current_dir().context("cannot read the current directory")?;
            // --print-oracle only writes the script.
            let problem = match settings.print_oracle {
                true => None,
                false => program_problem(&spec.command, &cwd),
            };
            match problem {
                Some(problem) => Err(failure(
                    exit::ORACLE_UNUSABLE,
                    format!("reduce cannot run tests: --run's {problem}"),
                )),
                None => Ok(PathBuf::from("/bin/sh")),
            }
        }
    }
}

/// Writes the final result: not when the run stopped while replaying a
/// journal (the output holds the earlier run's smaller result, which the
/// journal still names); after a fault, whose cause may keep the result
/// from being written again, a failure is only said (a result file
/// already holds every improvement).
fn write_result(destination: &Destination, reduced: &Reduced, say: &dyn Fn(&str)) -> Result<()> {
    if reduced.output_ahead {
        say(
            "reduce: stopped before the replay reached the earlier run's result; the output keeps that result",
        );
    } else if reduced.reason != StopReason::Fault {
        destination.finish(&reduced.bytes)?;
    } else if let Err(e) = destination.finish(&reduced.bytes) {
        say(&format!("reduce: {e:#}"));
    }
    Ok(())
}

/// How a run that stopped for `reason` exits.
fn exit_code(
    reason: StopReason,
    fault: Option<crate::interfaces::Fault>,
    signals: &Signals,
) -> Result<i32> {
    match (reason, fault) {
        (StopReason::Fault, Some(fault)) => Err(failure(
            exit::FAULT,
            format!("{}; the output holds the best result so far", fault.cause),
        )),
        (StopReason::Interrupted, _) => Ok(interrupted_code(signals)),
        _ => Ok(exit::OK),
    }
}

/// When the reduce loop stops early.
fn limits(settings: &Settings, started: Instant, signals: &Signals) -> Limits {
    Limits {
        max_tests: settings.max_tests,
        deadline: settings.max_time.map(|d| started + d),
        interrupt: Some(Arc::clone(&signals.interrupted)),
        fault_patience: settings.fault_patience,
        flaky: None,
    }
}

/// `--history`'s directory, with the original saved in it.
fn start_history<'m>(
    settings: &Settings,
    input: &Input,
    messages: &'m dyn Messages,
) -> Result<Option<History<'m>>> {
    settings
        .history
        .as_ref()
        .map(|dir| {
            let name = std::path::Path::new(&input.file_name);
            History::start(dir, name, &input.source, messages)
        })
        .transpose()
}

/// The result tested once more, unless the run was interrupted or
/// faulted; when it (or a re-test during the run) failed, why, and the
/// last result that passed twice becomes the run's.
fn final_check(
    settings: &Settings,
    oracle: &ScriptOracle,
    input: &Input,
    reduced: &mut Reduced,
) -> Result<Option<&'static str>> {
    let flaky = match reduced.reason {
        StopReason::Flaky => Some("it failed a re-test during the run"),
        StopReason::Interrupted | StopReason::Fault => None,
        _ => {
            let patience = settings
                .fault_patience
                .unwrap_or(crate::engine::DEFAULT_FAULT_PATIENCE);
            checks::still_interesting(oracle, &reduced.bytes, patience)?
        }
    };
    if flaky.is_some() {
        keep_confirmed(reduced, settings, input);
    }
    Ok(flaky)
}

/// Makes the last result that passed the oracle twice the run's result,
/// after the best failed a re-test (its unit count is counted afresh).
fn keep_confirmed(reduced: &mut Reduced, settings: &Settings, input: &Input) {
    reduced.bytes = reduced
        .confirmed
        .take()
        .unwrap_or_else(|| input.source.clone());
    let plan = match &input.files {
        Some(set) => pool_plan(&settings.strategy, set, &reduced.bytes, Grain::Items),
        None => Plan::new(&settings.strategy, input.lang, reduced.bytes.clone()),
    };
    reduced.units = plan.map_or(0, |plan| plan.units().len());
    reduced.reason = StopReason::Flaky;
}

/// The plan of the run's first stage: the input's, or, for several
/// files, the pool of their top-level items.
fn plan_of(settings: &Settings, input: &Input) -> Result<Plan> {
    match &input.files {
        Some(set) => pool_plan(&settings.strategy, set, &input.source, Grain::Items),
        None => Plan::new(&settings.strategy, input.lang, input.source.clone()),
    }
}

/// What an earlier run of the same command left: where the journal goes
/// (none without a result file or with the cache off), the run's hash, and
/// what the journal kept unless `--fresh`.
struct EarlierRun {
    path: Option<PathBuf>,
    hash: String,
    resumed: Option<Resumed>,
}

impl EarlierRun {
    fn find(settings: &Settings, input: &Input, script: &std::path::Path) -> Result<Self> {
        let path = input.destination.journal_path().filter(|_| settings.cache);
        let beside = input.files.as_ref().map(FileSet::identity);
        let beside = beside.as_deref().unwrap_or_default();
        let hash = journal::run_hash(settings, &input.source, beside, input.lang, script);
        let resumed = match &path {
            Some(path) if !settings.fresh => journal::load(path, &hash)?,
            _ => None,
        };
        Ok(EarlierRun {
            path,
            hash,
            resumed,
        })
    }

    /// The first line of a resumed run.
    fn resuming_line(&self) -> Option<String> {
        let (resumed, path) = self.resumed.as_ref().zip(self.path.as_ref())?;
        let best = resumed
            .best
            .map_or("none yet".to_string(), |(size, _)| format!("{size} bytes"));
        Some(format!(
            "reduce: resuming from {}: {} verdicts, best {best}",
            path.display(),
            resumed.verdicts.len()
        ))
    }

    /// Starts writing the journal, going on after the earlier run's.
    fn start(&self, messages: Arc<dyn Messages>) -> Result<Option<Journal>> {
        self.path
            .as_ref()
            .map(|path| Journal::start(path, &self.hash, self.resumed.is_some(), messages))
            .transpose()
    }
}

/// The exit code for the signal that interrupted the run.
fn interrupted_code(signals: &Signals) -> i32 {
    match signals.last_signal.load(Ordering::SeqCst) as i32 {
        libc::SIGHUP => exit::SIGHUP,
        libc::SIGTERM => exit::SIGTERM,
        _ => exit::SIGINT,
    }
}

/// Kills the run's test processes that escaped their process group, when dropped.
struct KillStraysOnDrop;

impl Drop for KillStraysOnDrop {
    fn drop(&mut self) {
        kill_strays();
        // Test directories a stray kept writing in can go now.
        for (dir, e) in remove_leftover_dirs() {
            Printer::stderr().say(&format!(
                "reduce: cannot remove the test directory {}: {e}\n",
                dir.display()
            ));
        }
    }
}
