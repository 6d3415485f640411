//! One run of the `reduce` command, from validated options to the written result.
//!
//! Reads the input, cuts it into units (a parse tree or flat units), checks
//! that the oracle finds the original interesting, runs the chosen policies
//! through the reduce loop while saving every improvement, checks the final
//! result again and reports. Errors carry their context here, at the edge;
//! oracle crashes and timeouts are verdicts handled by the loop.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::cli::{Algo, Cli, LangArg, UnitArg};
use crate::configuration::Configuration;
use crate::interfaces::{Observer, Oracle, Watch};
use crate::oracle::{
    Exit, ScriptOracle, default_timeout, default_work_dir, kill_strays, resolve_script,
};
use crate::output::{Destination, default_output, write_atomically};
use crate::pipeline::{self, Plan};
use crate::progress::Progress;
use crate::reducer::{Carried, Limits, Reducer, StopReason};
use crate::stats::{PhaseStats, RunReport};
use crate::units::Units;

/// Exit codes (documented in `--help` and the README).
pub mod exit {
    pub const OK: i32 = 0;
    pub const ERROR: i32 = 1;
    pub const USAGE: i32 = 2;
    pub const NOT_INTERESTING: i32 = 3;
    pub const ORACLE_UNUSABLE: i32 = 4;
    pub const SIGHUP: i32 = 129;
    pub const SIGINT: i32 = 130;
    pub const SIGTERM: i32 = 143;
}

/// The largest input accepted by default (`REDUCE_MAX_INPUT` changes it).
pub const DEFAULT_MAX_INPUT: u64 = 256 << 20;
/// The environment variable that sets the largest input, in bytes.
pub const MAX_INPUT_VAR: &str = "REDUCE_MAX_INPUT";
/// How long the baseline runs of the original may take without `--timeout`.
const BASELINE_TIMEOUT: Duration = Duration::from_secs(300);

/// An error that maps to a specific exit code.
#[derive(Debug)]
pub struct Failure {
    pub code: i32,
    pub message: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

fn failure(code: i32, message: impl Into<String>) -> anyhow::Error {
    Failure {
        code,
        message: message.into(),
    }
    .into()
}

/// Which signal stopped the run, if any (set by the handlers in `main`).
#[derive(Default)]
pub struct Signals {
    pub interrupted: Arc<AtomicBool>,
    pub last_signal: Arc<std::sync::atomic::AtomicUsize>,
}

/// Runs the command; returns the exit code.
pub fn run(cli: Cli, signals: &Signals) -> Result<i32> {
    if cli.list_algos {
        print!("{}", pipeline::list_algos());
        return Ok(exit::OK);
    }
    let started = Instant::now();
    let input_arg = cli.input.clone().expect("clap requires INPUT");
    let oracle_arg = cli.oracle.clone().expect("clap requires --oracle");
    let from_stdin = input_arg.as_os_str() == "-";

    // Everything that can be checked before the first test is checked now.
    let script = resolve_script(&oracle_arg)
        .map_err(|e| failure(exit::ORACLE_UNUSABLE, format!("{e:#}")))?;
    let source = read_input(&input_arg, from_stdin, max_input_bytes()?)?;
    let destination = destination(&cli, &input_arg, from_stdin)?;
    destination.check_writable()?;
    if let Some(t) = cli.timeout
        && !(t > 0.0 && t.is_finite())
    {
        return Err(failure(
            exit::USAGE,
            format!("--timeout must be a positive number of seconds, not {t}"),
        ));
    }
    if cli.jobs == Some(0) {
        return Err(failure(exit::USAGE, "-j/--jobs must be at least 1"));
    }
    if cli.check_flaky == 0 {
        return Err(failure(
            exit::USAGE,
            "--check-flaky must be at least 1 (1 = run the original once)",
        ));
    }
    if !(cli.p0 > 0.0 && cli.p0 < 1.0) {
        return Err(failure(
            exit::USAGE,
            format!("--p0 must be strictly between 0 and 1, not {}", cli.p0),
        ));
    }
    if !(cli.sigma > 0.0 && cli.sigma <= 1.0) {
        return Err(failure(
            exit::USAGE,
            format!("--sigma must be in (0, 1], not {}", cli.sigma),
        ));
    }
    let max_time = cli
        .max_time
        .as_deref()
        .map(parse_duration)
        .transpose()
        .map_err(|e| failure(exit::USAGE, format!("{e:#}")))?;
    if source.is_empty() {
        bail!(
            "the input {} is empty: there is nothing to reduce",
            input_arg.display()
        );
    }
    for f in &cli.copy {
        if !f.is_file() {
            bail!("--copy {}: no such file", f.display());
        }
    }
    if let Some(w) = &cli.work_dir
        && !w.is_dir()
    {
        bail!("--work-dir {}: no such directory", w.display());
    }
    if cli.launcher.as_deref().is_some_and(|l| l.trim().is_empty()) {
        bail!("--launcher is empty: give the command prefix, e.g. 'srun --quiet -N1 -n1 --'");
    }

    let file_name = if from_stdin {
        std::ffi::OsString::from("input")
    } else {
        input_arg
            .file_name()
            .context("the input path has no file name")?
            .to_os_string()
    };
    let lang = choose_language(&cli, &input_arg, &source)?;
    check_memory(
        source.len() as u64,
        estimate_memory(&cli, lang, source.len() as u64),
        available_memory(),
    )?;
    let plan = Plan::new(&cli, lang, source.clone())?;
    let units = plan.units();

    let quiet = cli.quiet;
    let say = |line: &str| {
        if !quiet {
            eprintln!("{line}");
        }
    };
    if let Some(errors) = plan.parse_errors()
        && errors > 0
    {
        say(&format!(
            "reduce: the input has {errors} parse error{} ({}); reducing anyway",
            if errors == 1 { "" } else { "s" },
            lang.name()
        ));
    }

    // The baseline: the original must be interesting, every time.
    let copies: Vec<PathBuf> = cli
        .copy
        .iter()
        .map(|p| absolute(p))
        .collect::<Result<_>>()?;
    let work_dir = match &cli.work_dir {
        Some(dir) => Some(absolute(dir)?),
        // A launcher's tests may run elsewhere: they need a shared
        // filesystem, which only the user can name.
        None if cli.launcher.is_none() => default_work_dir(),
        None => None,
    };
    let probe_timeout = cli
        .timeout
        .map_or(BASELINE_TIMEOUT, Duration::from_secs_f64);
    let probe = ScriptOracle::new(script.clone(), file_name.clone(), probe_timeout)
        .with_work_dir(work_dir.clone())
        .with_extra_files(copies.clone())
        .with_launcher(cli.launcher.clone())
        .with_verbose(cli.verbose);
    // From here on processes run: whatever escaped their groups dies with the run.
    let _strays = KillStraysOnDrop;
    let cancel = Watch::Flag(&signals.interrupted);
    let unusable = |e: anyhow::Error| failure(exit::ORACLE_UNUSABLE, format!("{e:#}"));
    let jobs = cli
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // Up to `jobs` baseline runs at once: at -j 2 the two default runs
    // cost the wall time of one.
    let mut verdicts = Vec::new();
    let mut slowest = Duration::ZERO;
    let runs = cli.check_flaky as usize;
    'baseline: while verdicts.len() < runs {
        let batch = (runs - verdicts.len()).min(jobs);
        for result in run_at_once(&probe, &vec![&source[..]; batch], cancel) {
            let (exit, took) = result.map_err(unusable)?;
            if exit == Exit::Cancelled {
                say("reduce: interrupted before the reduction started");
                return Ok(interrupted_code(signals));
            }
            if exit.interesting() {
                slowest = slowest.max(took);
            }
            verdicts.push(exit);
            if exit == Exit::Timeout {
                break 'baseline; // another run would only wait as long again
            }
        }
    }
    let passes = verdicts.iter().filter(|e| e.interesting()).count();
    if passes > 0 && passes < verdicts.len() {
        return Err(failure(exit::NOT_INTERESTING, flaky_message(&verdicts)));
    }
    if passes == 0 {
        // Does it pass beside the input, where the user tried it?
        let by_hand = if from_stdin || verdicts[0] == Exit::Timeout {
            None
        } else {
            run_by_hand(&probe, &input_arg, &source, cancel)?
        };
        if by_hand.as_ref().is_some_and(|b| b.exit == Exit::Cancelled) {
            say("reduce: interrupted before the reduction started");
            return Ok(interrupted_code(signals));
        }
        let recipe = not_interesting_message(
            &script,
            &input_arg,
            &file_name,
            verdicts[0],
            from_stdin,
            cli.launcher.as_deref(),
        );
        return Err(failure(
            exit::NOT_INTERESTING,
            explain_not_interesting(recipe, by_hand.as_ref(), &input_arg),
        ));
    }
    let timeout = match cli.timeout {
        Some(secs) => Duration::from_secs_f64(secs),
        None => default_timeout(slowest, cli.launcher.is_some()),
    };
    let oracle = probe.with_timeout(timeout);

    // An oracle that accepts (almost) nothing would reduce to nothing. Both
    // probes run at once: a hanging oracle costs one timeout, not two.
    if !cli.allow_empty {
        let probes: [(&[u8], &str); 2] = [
            (b"", "an empty file"),
            (b"\n", "a file holding only a newline"),
        ];
        let tried: Vec<_> = probes
            .iter()
            .filter(|(bytes, _)| *bytes != source.as_slice())
            .collect();
        let inputs: Vec<&[u8]> = tried.iter().map(|(bytes, _)| *bytes).collect();
        let exits = run_at_once(&oracle, &inputs, cancel);
        for ((_, what), result) in tried.into_iter().zip(exits) {
            let (exit, _) = result.map_err(unusable)?;
            if exit == Exit::Cancelled {
                say("reduce: interrupted before the reduction started");
                return Ok(interrupted_code(signals));
            }
            if exit.interesting() {
                return Err(failure(
                    exit::NOT_INTERESTING,
                    format!(
                        "the oracle is too permissive: it accepts {what}, so the result would be (nearly) empty. \
                         Make it check for the bug itself (e.g. grep for the error message), \
                         or pass --allow-empty if an empty result is what you want"
                    ),
                ));
            }
        }
    }

    destination.prepare(&source)?;
    say(&format!(
        "reduce: {} ({} bytes, {} {}s), algorithm {}, {} job{}, timeout {:.1}s",
        if from_stdin {
            "standard input".to_string()
        } else {
            input_arg.display().to_string()
        },
        source.len(),
        units.len(),
        plan.unit_name(),
        plan.algo_name(),
        jobs,
        if jobs == 1 { "" } else { "s" },
        timeout.as_secs_f64(),
    ));

    let mut progress = Progress::new(quiet || cli.verbose, units.len(), source.len() as u64);
    let oracle = oracle.with_messages(Arc::new(progress.printer()));
    let limits = Limits {
        max_tests: cli.max_tests,
        deadline: max_time.map(|d| started + d),
        interrupt: Some(Arc::clone(&signals.interrupted)),
    };
    let stages = Stages {
        cli: &cli,
        lang,
        oracle: &oracle,
        destination: &destination,
        jobs,
        limits,
    };
    let (bytes, units_after, reason, reducer) = stages.run(&plan, &source, &mut progress)?;
    progress.finish();
    if reducer.recheck_failures > 0 {
        let n = reducer.recheck_failures;
        say(&format!(
            "reduce: {n} candidate{} passed once but failed the re-check and {} not committed: the oracle is flaky",
            if n == 1 { "" } else { "s" },
            if n == 1 { "was" } else { "were" },
        ));
    }

    // The final check: the result must still be interesting.
    if reason != StopReason::Interrupted {
        let never = AtomicBool::new(false);
        let (exit, _) = oracle.run(&bytes, Watch::Flag(&never))?;
        if !exit.interesting() {
            destination.save(&bytes).ok();
            bail!(
                "the final result is no longer interesting ({exit}); the oracle is probably flaky \
                 (--recheck re-tests every success before committing it). \
                 The result was kept in {} for inspection",
                destination.describe()
            );
        }
    }
    destination.finish(&bytes)?;

    let report = RunReport {
        algo: plan.algo_name(),
        phases: reducer.phases,
        units_before: units.len(),
        units_after,
        bytes_before: source.len() as u64,
        bytes_after: bytes.len() as u64,
        wall_seconds: started.elapsed().as_secs_f64(),
        jobs,
        unit: plan.unit_name().to_string(),
        language: lang.name().to_string(),
        parse_errors: plan.parse_errors().unwrap_or(0),
        stop_reason: reason.name().to_string(),
        reducer_cpu_seconds: crate::stats::self_cpu_seconds(),
    };
    if let Some(path) = &cli.stats_json {
        let text = serde_json::to_string_pretty(&report.to_json())?;
        crate::output::write_atomically(path, text.as_bytes())
            .with_context(|| format!("cannot write --stats-json {}", path.display()))?;
    }
    say(&summary(&report, &destination, reason));
    Ok(match reason {
        StopReason::Interrupted => interrupted_code(signals),
        _ => exit::OK,
    })
}

/// The exit code for the signal that interrupted the run.
/// Runs `oracle` on every one of `inputs` at once, a thread each; the
/// results in the order of `inputs`.
fn run_at_once(
    oracle: &ScriptOracle,
    inputs: &[&[u8]],
    cancel: Watch<'_>,
) -> Vec<Result<(Exit, Duration)>> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = inputs
            .iter()
            .map(|&bytes| scope.spawn(move || oracle.run(bytes, cancel)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("an oracle thread panicked"))
            .collect()
    })
}

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

/// What every stage of a run shares (see [`Stages::run`]).
struct Stages<'a> {
    cli: &'a Cli,
    lang: pipeline::Lang,
    oracle: &'a dyn Oracle,
    destination: &'a Destination,
    jobs: usize,
    limits: Limits,
}

impl Stages<'_> {
    /// Reduces `source` as `plan` says, one stage per parse of the text:
    /// the default pipeline parses its result again after each round that
    /// changed it (see `Plan::reparses_between_rounds`), and the reducer's
    /// cache, counters and stats go on from stage to stage. Returns the
    /// result, its unit count, why the run stopped, and the reducer's state.
    fn run(
        &self,
        plan: &Plan,
        source: &[u8],
        progress: &mut Progress,
    ) -> Result<(Vec<u8>, u32, StopReason, Carried)> {
        let cli = self.cli;
        let mut reparsed: Option<Plan> = None;
        let mut carried = None;
        let mut stage_text = source.to_vec();
        // A round's tree phase runs while the last one changed something.
        let mut tree_phase = true;
        loop {
            let stage = reparsed.as_ref().unwrap_or(plan);
            let stage_units = stage.units();
            let mut observer = SaveAndShow {
                destination: self.destination,
                progress: &mut *progress,
                units: stage_units,
                save_error: None,
            };
            let filter = if cli.no_syntax_filter {
                None
            } else {
                stage.syntax_filter()
            };
            let mut reducer = Reducer::new(stage_units, self.oracle)
                .with_cache(!cli.no_cache)
                .with_jobs(self.jobs)
                .with_recheck(cli.recheck)
                .with_filter(filter)
                .with_limits(self.limits.clone());
            if let Some(c) = carried.take() {
                reducer = reducer.with_carried(c);
            }
            let full = Configuration::full(stage_units.len());
            let (mut result, mut reason, tree_changed) =
                stage.run_rounds(&mut reducer, full, &mut observer, tree_phase);
            tree_phase = tree_changed;
            let mut bytes = stage_units.render(&result);
            let again = reason == StopReason::Finished
                && stage.reparses_between_rounds()
                && bytes != stage_text;
            if !again && reason == StopReason::Finished {
                (result, reason) = stage.run_closing(&mut reducer, result, &mut observer);
                bytes = stage_units.render(&result);
            }
            if let Some(err) = observer.save_error.take() {
                return Err(err);
            }
            let state = reducer.into_carried();
            if !again {
                return Ok((bytes, result.len(), reason, state));
            }
            carried = Some(state);
            reparsed = Some(Plan::new(cli, self.lang, bytes.clone())?.for_a_later_round());
            stage_text = bytes;
        }
    }
}

/// Saves every improvement and keeps the display current.
struct SaveAndShow<'a> {
    destination: &'a Destination,
    progress: &'a mut Progress,
    units: &'a Units,
    save_error: Option<anyhow::Error>,
}

impl Observer for SaveAndShow<'_> {
    fn on_improved(&mut self, _config: &Configuration, bytes: &[u8]) {
        if self.save_error.is_none()
            && let Err(e) = self.destination.save(bytes)
        {
            self.save_error = Some(e);
        }
    }

    fn on_progress(&mut self, phase: &PhaseStats, current: &Configuration) {
        let bytes: u64 = if current.len() == self.units.len() {
            self.units.source().len() as u64
        } else {
            current
                .kept
                .runs()
                .iter()
                .map(|r| (self.units.span(r.end - 1).end - self.units.span(r.start).start) as u64)
                .sum()
        };
        self.progress.update(phase, current.len(), bytes);
        if phase.seconds > 0.0 {
            self.progress.phase_done(phase);
        }
    }
}

/// The largest input accepted: [`MAX_INPUT_VAR`] if set, else [`DEFAULT_MAX_INPUT`];
/// never more than unit offsets (`u32`) can address.
fn max_input_bytes() -> Result<u64> {
    let limit = match std::env::var(MAX_INPUT_VAR) {
        Ok(v) => v.trim().parse::<u64>().map_err(|_| {
            failure(
                exit::USAGE,
                format!("{MAX_INPUT_VAR}={v}: not a number of bytes"),
            )
        })?,
        Err(_) => DEFAULT_MAX_INPUT,
    };
    Ok(limit.min(u64::from(u32::MAX) - 1))
}

/// The error for an input over the size limit (`len`: its size, if known).
fn too_large(what: &str, len: Option<u64>, limit: u64) -> anyhow::Error {
    let size = len.map_or(String::new(), |l| format!(" is {},", human_size(l)));
    anyhow::anyhow!(
        "{what}{size} more than the {} reduce accepts: cut it down first (e.g. keep \
         the part that matters), or raise the limit with {MAX_INPUT_VAR}=<bytes> if there is \
         memory for it (see docs/reliability.md)",
        human_size(limit)
    )
}

/// A size for messages: `950 bytes`, `12.5 MB`.
fn human_size(bytes: u64) -> String {
    if bytes < 1 << 20 {
        format!("{bytes} bytes")
    } else {
        format!("{:.1} MB", bytes as f64 / (1 << 20) as f64)
    }
}

fn read_input(path: &Path, from_stdin: bool, limit: u64) -> Result<Vec<u8>> {
    if from_stdin {
        let mut buf = Vec::new();
        std::io::stdin()
            .take(limit + 1)
            .read_to_end(&mut buf)
            .context("cannot read the input from standard input")?;
        if buf.len() as u64 > limit {
            // Only `limit + 1` bytes were read: the real size is unknown.
            return Err(too_large("the input from standard input is", None, limit));
        }
        return Ok(buf);
    }
    let meta = std::fs::metadata(path)
        .with_context(|| format!("cannot read the input {}", path.display()))?;
    if meta.is_dir() {
        bail!("the input {} is a directory; give a file", path.display());
    }
    if meta.len() > limit {
        return Err(too_large(
            &format!("the input {}", path.display()),
            Some(meta.len()),
            limit,
        ));
    }
    std::fs::read(path).with_context(|| format!("cannot read the input {}", path.display()))
}

/// Whether a run on this input builds a parse tree (see `Plan::new`).
fn uses_tree(cli: &Cli, lang: pipeline::Lang) -> bool {
    matches!(lang, pipeline::Lang::Tree(_))
        && (matches!(cli.algo, Algo::Auto | Algo::Hdd | Algo::Perses | Algo::Tpdd)
            || matches!(cli.unit, None | Some(UnitArg::Token)))
}

/// A generous estimate of a run's peak memory, in bytes, from per-input-byte
/// costs measured on 50 MB inputs (docs/reliability.md): about 85 for a
/// parse tree, 62 for byte units, 13 for text tokens and 4 for lines.
pub fn estimate_memory(cli: &Cli, lang: pipeline::Lang, len: u64) -> u64 {
    use pipeline::Lang;
    let per_byte = if uses_tree(cli, lang) {
        100
    } else {
        match (cli.unit, lang) {
            (Some(UnitArg::Byte), _) | (None, Lang::Bytes) => 70,
            (Some(UnitArg::Line), _) => 8,
            _ => 20,
        }
    };
    len * per_byte
}

/// Available memory in bytes (`MemAvailable` in /proc/meminfo), if known.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Refuses a run that would need more memory than is available, rather than
/// let it be killed for running out.
pub fn check_memory(len: u64, needed: u64, available: Option<u64>) -> Result<()> {
    let Some(available) = available else {
        return Ok(());
    };
    if needed > available {
        bail!(
            "the input ({}) would need about {:.1} GB of memory, but {:.1} GB is available: \
             reduce it by lines first (--lang text --unit line needs about {:.1} GB), \
             or cut it down",
            human_size(len),
            needed as f64 / 1e9,
            available as f64 / 1e9,
            (len * 8) as f64 / 1e9,
        );
    }
    Ok(())
}

/// What running the oracle by hand on the input found.
struct ByHand {
    exit: Exit,
    /// The script changed the input, which was then restored.
    restored: bool,
}

/// Runs the oracle on the input itself, in its own directory, as the user
/// would by hand (`None` if it could not run). The input is restored should
/// the script change it.
fn run_by_hand(
    probe: &ScriptOracle,
    input: &Path,
    source: &[u8],
    cancel: Watch<'_>,
) -> Result<Option<ByHand>> {
    let input = absolute(input)?;
    let Some(dir) = input.parent() else {
        return Ok(None);
    };
    let Ok((exit, _)) = probe.run_by_hand(&input, dir, cancel) else {
        return Ok(None);
    };
    let restored = std::fs::read(&input).ok().as_deref() != Some(source);
    if restored {
        write_atomically(&input, source).with_context(|| {
            format!(
                "the oracle changed the input {} when run on it, and it could not be restored",
                input.display()
            )
        })?;
    }
    Ok(Some(ByHand { exit, restored }))
}

/// Why the original is not interesting: the recipe to check it by hand, or,
/// when the oracle passes beside the input, what it depends on there.
fn explain_not_interesting(recipe: String, by_hand: Option<&ByHand>, input: &Path) -> String {
    let input = absolute(input).unwrap_or_else(|_| input.to_path_buf());
    let dir = input.parent().unwrap_or(Path::new("/"));
    let mut message = match by_hand {
        Some(b) if b.exit.interesting() => format!(
            "the oracle passes on {} in {} but not in a fresh temporary directory: it probably \
             uses relative paths or files beside the input; use absolute paths in the script, \
             or --copy FILE to put the files it needs beside each candidate",
            input.display(),
            dir.display()
        ),
        _ => recipe,
    };
    if by_hand.is_some_and(|b| b.restored) {
        let sep = if message.ends_with('\n') { "" } else { " " };
        message.push_str(&format!(
            "{sep}(Run by hand on {}, the oracle changed it; its original content was restored.)",
            input.display()
        ));
    }
    message
}

fn flaky_message(verdicts: &[Exit]) -> String {
    let passes = verdicts.iter().filter(|e| e.interesting()).count();
    let list: Vec<String> = verdicts.iter().map(|e| e.to_string()).collect();
    format!(
        "the oracle is flaky: it passed {passes} of {} runs on the original input ({}). \
         Reducing with it would go astray; make it deterministic (fixed seeds, no timing, \
         a longer timeout inside the script), or run with --recheck and --check-flaky 1 \
         to reduce anyway",
        verdicts.len(),
        list.join(", ")
    )
}

fn destination(cli: &Cli, input: &Path, from_stdin: bool) -> Result<Destination> {
    Ok(match (&cli.output, cli.in_place) {
        (_, true) if from_stdin => bail!("--in-place needs an input file, not standard input"),
        (_, true) => Destination::InPlace(input.to_path_buf()),
        (Some(o), _) if o.as_os_str() == "-" => Destination::Stdout,
        (Some(o), _) => {
            if !from_stdin && same_file(o, input) {
                bail!(
                    "-o {} is the input itself; use --in-place to overwrite the input",
                    o.display()
                );
            }
            Destination::File(o.clone())
        }
        (None, _) if from_stdin => Destination::Stdout,
        (None, _) => Destination::File(default_output(input)),
    })
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

fn absolute(p: &Path) -> Result<PathBuf> {
    std::path::absolute(p).with_context(|| format!("cannot resolve {}", p.display()))
}

/// The input's language: `--lang`, else the extension, else text or bytes by content.
fn choose_language(cli: &Cli, input: &Path, source: &[u8]) -> Result<pipeline::Lang> {
    use pipeline::Lang;
    let lang = match cli.lang {
        Some(LangArg::C) => Lang::Tree(crate::languages::Language::named("c")),
        Some(LangArg::Json) => Lang::Tree(crate::languages::Language::named("json")),
        Some(LangArg::Text) => Lang::Text,
        Some(LangArg::Bytes) => Lang::Bytes,
        None => match crate::languages::Language::from_path(input) {
            Some(l) => Lang::Tree(l),
            None if crate::languages::looks_binary(source) => Lang::Bytes,
            None => Lang::Text,
        },
    };
    // Binary data (a NUL byte in the first 8 KB) is not C or JSON; invalid
    // UTF-8 alone is allowed (Latin-1 comments, fuzzed JSON strings).
    let head = &source[..source.len().min(8192)];
    if let Lang::Tree(_) = lang
        && let Some(at) = head.iter().position(|&b| b == 0)
    {
        bail!(
            "the input {} looks binary (a NUL byte at offset {at}), not {}{}: use --lang bytes",
            input.display(),
            lang.name(),
            if cli.lang.is_some() {
                " as --lang says"
            } else {
                " as its extension says"
            },
        );
    }
    if matches!(cli.algo, Algo::Hdd | Algo::Perses | Algo::Tpdd) && !matches!(lang, Lang::Tree(_)) {
        bail!(
            "--algo {} needs a parse tree, but the input is {} (use --lang c or --lang json, or a list algorithm)",
            format!("{:?}", cli.algo).to_lowercase(),
            lang.name()
        );
    }
    if matches!(lang, Lang::Bytes) && matches!(cli.unit, Some(UnitArg::Line | UnitArg::Token)) {
        // Allowed: the user knows the data is line- or token-structured.
    }
    Ok(lang)
}

/// Parses `90`, `90s`, `10m`, `2h`, `1.5h`.
pub fn parse_duration(text: &str) -> Result<Duration> {
    let t = text.trim();
    let (num, unit) = match t.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => (&t[..i], &t[i..]),
        None => (t, "s"),
    };
    let n: f64 = num
        .trim()
        .parse()
        .with_context(|| format!("--max-time {text}: not a duration (try 90s, 10m, 2h)"))?;
    let secs = match unit {
        "s" | "sec" | "secs" => n,
        "m" | "min" | "mins" => n * 60.0,
        "h" | "hr" | "hours" => n * 3600.0,
        _ => bail!("--max-time {text}: unknown unit `{unit}` (use s, m or h)"),
    };
    if !(secs > 0.0 && secs.is_finite()) {
        bail!("--max-time {text}: must be positive");
    }
    Ok(Duration::from_secs_f64(secs))
}

fn not_interesting_message(
    script: &Path,
    input: &Path,
    file_name: &std::ffi::OsStr,
    exit: Exit,
    from_stdin: bool,
    launcher: Option<&str>,
) -> String {
    let name = file_name.to_string_lossy();
    let (launch, launcher_note) = match launcher {
        Some(l) => (
            format!("{l} "),
            format!(
                "Every test runs through the launcher `{l}`{}.\n",
                if exit == Exit::Code(127) {
                    " (exit code 127: the launcher, or a command the script runs, was not found)"
                } else {
                    ""
                }
            ),
        ),
        None => (String::new(), String::new()),
    };
    let source = if from_stdin {
        "the input from standard input".to_string()
    } else {
        input.display().to_string()
    };
    let copy_from = if from_stdin {
        "<your input>".to_string()
    } else {
        shell_quote(
            &absolute(input)
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
        )
    };
    format!(
        "the original input is not interesting: the oracle {} gave {exit} on {source}.\n\
         The oracle runs in a fresh temporary directory holding only the candidate (named {name}),\n\
         so relative paths and files beside the input are not there (use absolute paths, or --copy FILE).\n\
         {launcher_note}\
         Try the following to reproduce the check by hand:\n\n  \
         dir=$(mktemp -d) && cp {copy_from} \"$dir\"/{name_q} && cd \"$dir\" && {launch}{script_q} \"$dir\"/{name_q}; echo \"exit code: $?\"\n",
        script.display(),
        name_q = shell_quote(&name),
        script_q = shell_quote(&script.display().to_string()),
    )
}

fn shell_quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,".contains(c))
        && !s.is_empty()
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

fn summary(report: &RunReport, destination: &Destination, reason: StopReason) -> String {
    let note = match reason {
        StopReason::Finished => String::new(),
        StopReason::MaxTests | StopReason::MaxTime => {
            format!(
                " (stopped by --{}; the result may not be minimal)",
                reason.name()
            )
        }
        StopReason::Interrupted => " (interrupted; the result is the best so far)".to_string(),
    };
    format!(
        "reduce: {} → {} bytes ({:.1}%), {} → {} units, {} tests, {} cache hits, {:.1}s; result in {}{note}",
        report.bytes_before,
        report.bytes_after,
        crate::progress::percent(report.bytes_after, report.bytes_before),
        report.units_before,
        report.units_after,
        report.oracle_calls(),
        report.cache_hits(),
        report.wall_seconds,
        destination.describe(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_accept_seconds_minutes_and_hours() {
        assert_eq!(parse_duration("90").unwrap(), Duration::from_secs(90));
        assert_eq!(parse_duration("90s").unwrap(), Duration::from_secs(90));
        assert_eq!(parse_duration("10m").unwrap(), Duration::from_secs(600));
        assert_eq!(parse_duration("1.5h").unwrap(), Duration::from_secs(5400));
        assert!(parse_duration("10 parsecs").is_err());
        assert!(parse_duration("-3s").is_err());
    }

    #[test]
    fn a_run_that_would_not_fit_in_memory_is_refused_with_a_way_out() {
        let err = check_memory(50 << 20, 5_000_000_000, Some(4_000_000_000))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("50.0 MB") && err.contains("5.0 GB") && err.contains("--unit line"),
            "{err}"
        );
        assert!(check_memory(50 << 20, 5_000_000_000, Some(6_000_000_000)).is_ok());
        assert!(check_memory(50 << 20, 5_000_000_000, None).is_ok());
    }

    #[test]
    fn memory_estimates_follow_the_units_that_will_be_built() {
        use crate::languages::Language;
        use clap::Parser;
        use pipeline::Lang;
        let cli = |extra: &[&str]| {
            let mut args = vec!["reduce", "--oracle", "x"];
            args.extend(extra);
            args.push("in");
            Cli::parse_from(args)
        };
        let c = Lang::Tree(Language::named("c"));
        assert_eq!(estimate_memory(&cli(&[]), c, 1), 100);
        // A grammar's tokens are parsed even for a named list algorithm.
        assert_eq!(estimate_memory(&cli(&["--algo", "ddmin"]), c, 1), 100);
        assert_eq!(
            estimate_memory(&cli(&["--algo", "ddmin", "--unit", "line"]), c, 1),
            8
        );
        assert_eq!(estimate_memory(&cli(&[]), Lang::Text, 1), 20);
        assert_eq!(estimate_memory(&cli(&["--unit", "line"]), Lang::Text, 1), 8);
        assert_eq!(estimate_memory(&cli(&[]), Lang::Bytes, 1), 70);
        assert_eq!(
            estimate_memory(&cli(&["--unit", "byte"]), Lang::Text, 1),
            70
        );
    }

    #[test]
    fn shell_quoting_leaves_plain_paths_alone() {
        assert_eq!(shell_quote("/tmp/a.c"), "/tmp/a.c");
        assert_eq!(shell_quote("it's here"), "'it'\\''s here'");
    }
}
