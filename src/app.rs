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

use anyhow::Result;

use crate::checks;
use crate::exit::{self, failure};
use crate::fileset::Grain;
use crate::input::Input;
use crate::interfaces::Messages;
use crate::journal::{self, Journal, Resumed};
use crate::multi::{pool_plan, run_set};
use crate::oracle::{kill_strays, resolve_script};
use crate::pipeline::Plan;
use crate::progress::{Printer, Progress};
use crate::reducer::{Limits, StopReason};
use crate::report;
use crate::settings::Settings;
use crate::stages::Stages;

/// Which signal stopped the run, if any (set by the handlers in `main`).
#[derive(Default)]
pub struct Signals {
    pub interrupted: Arc<AtomicBool>,
    pub last_signal: Arc<AtomicUsize>,
}

/// Runs the reduction `settings` describe; returns the exit code.
pub fn run(settings: &Settings, signals: &Signals) -> Result<i32> {
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
    let script = resolve_script(&settings.oracle)
        .map_err(|e| failure(exit::ORACLE_UNUSABLE, format!("{e:#}")))?;
    let input = Input::read(settings)?;
    let earlier = EarlierRun::find(settings, &input, &script)?;
    if let Some(line) = earlier.resuming_line() {
        say(&line);
    }
    let plan = plan_of(settings, &input)?;
    if let Some(warning) = report::parse_errors(&plan, &input) {
        say(&warning);
    }
    // From here on processes run: whatever escaped their groups dies with the run.
    let _strays = KillStraysOnDrop;
    let Some(oracle) = checks::trusted_oracle(settings, &script, &input, &signals.interrupted)?
    else {
        say("reduce: interrupted before the reduction started");
        return Ok(interrupted_code(signals));
    };

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
    let stages = Stages {
        settings,
        lang: input.lang,
        oracle: &oracle,
        destination,
        limits: Limits {
            max_tests: settings.max_tests,
            deadline: settings.max_time.map(|d| started + d),
            interrupt: Some(Arc::clone(&signals.interrupted)),
            fault_patience: settings.fault_patience,
        },
        journal: journal.as_ref(),
        messages: &*live,
    };
    let reduced = match &input.files {
        Some(set) => run_set(&stages, set, &input.source, &mut progress)?,
        None => stages.run_stages(&plan, &input.source, &mut progress, earlier.resumed, None)?,
    };
    progress.finish();
    if let Some(warning) = report::recheck_failures(reduced.reducer.recheck_failures) {
        say(&warning);
    }

    let reason = reduced.reason;
    let fault = reduced.reducer.fault.clone();
    let ended = !matches!(reason, StopReason::Interrupted | StopReason::Fault);
    if ended {
        let patience = settings
            .fault_patience
            .unwrap_or(crate::reducer::DEFAULT_FAULT_PATIENCE);
        checks::still_interesting(&oracle, &reduced.bytes, destination, patience)?;
    }
    if reason != StopReason::Fault {
        destination.finish(&reduced.bytes)?;
    } else if let Err(e) = destination.finish(&reduced.bytes) {
        // The cause of the fault may keep the result from being written
        // again; a result file already holds every improvement.
        say(&format!("reduce: {e:#}"));
    }
    let run = report::run_report(settings, &input, &plan, reduced, started);
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
    exit_code(reason, fault, signals)
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
        let hash = journal::run_hash(settings, &input.source, input.lang, script);
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
    }
}
