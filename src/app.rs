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
use crate::oracle::{Exit, ScriptOracle, default_timeout, resolve_script};
use crate::output::{Destination, default_output};
use crate::pipeline::{self, Plan};
use crate::progress::Progress;
use crate::reducer::{Limits, Observer, Reducer, StopReason};
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
    let source = read_input(&input_arg, from_stdin)?;
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

    let file_name = if from_stdin {
        std::ffi::OsString::from("input")
    } else {
        input_arg
            .file_name()
            .context("the input path has no file name")?
            .to_os_string()
    };
    let lang = choose_language(&cli, &input_arg, &source)?;
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

    // The baseline: the original must be interesting.
    let copies: Vec<PathBuf> = cli
        .copy
        .iter()
        .map(|p| absolute(p))
        .collect::<Result<_>>()?;
    let work_dir = cli.work_dir.as_deref().map(absolute).transpose()?;
    let probe = ScriptOracle::new(script.clone(), file_name.clone(), Duration::from_secs(300))
        .with_work_dir(work_dir.clone())
        .with_extra_files(copies.clone())
        .with_verbose(cli.verbose);
    let never = AtomicBool::new(false);
    let (exit, took) = probe
        .run(&source, &never)
        .map_err(|e| failure(exit::ORACLE_UNUSABLE, format!("{e:#}")))?;
    if !exit.interesting() {
        return Err(failure(
            exit::NOT_INTERESTING,
            not_interesting_message(&script, &input_arg, &file_name, exit, from_stdin),
        ));
    }
    let timeout = match cli.timeout {
        Some(secs) => Duration::from_secs_f64(secs),
        None => default_timeout(took),
    };
    let oracle = probe.with_timeout(timeout);

    let jobs = cli
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
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

    let mut observer = SaveAndShow {
        destination: &destination,
        progress: Progress::new(quiet, units.len(), source.len() as u64),
        units,
        save_error: None,
    };
    let filter = if cli.no_syntax_filter {
        None
    } else {
        plan.syntax_filter()
    };
    let mut reducer = Reducer::new(units, &oracle)
        .with_cache(!cli.no_cache)
        .with_jobs(jobs)
        .with_filter(filter)
        .with_limits(Limits {
            max_tests: cli.max_tests,
            deadline: max_time.map(|d| started + d),
            interrupt: Some(Arc::clone(&signals.interrupted)),
        });
    let (result, reason) = plan.run(
        &mut reducer,
        Configuration::full(units.len()),
        &mut observer,
    );
    observer.progress.finish();
    if let Some(err) = observer.save_error.take() {
        return Err(err);
    }
    let bytes = units.render(&result);

    // The final check: the result must still be interesting.
    if reason != StopReason::Interrupted {
        let (exit, _) = oracle.run(&bytes, &never)?;
        if !exit.interesting() {
            destination.save(&bytes).ok();
            bail!(
                "the final result is no longer interesting ({exit}); the oracle is probably flaky. \
                 The result was kept in {} for inspection",
                destination.describe()
            );
        }
    }
    destination.finish(&bytes)?;

    let report = RunReport {
        algo: plan.algo_name(),
        phases: reducer.phases.clone(),
        units_before: units.len(),
        units_after: result.len(),
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
        StopReason::Interrupted => match signals.last_signal.load(Ordering::SeqCst) as i32 {
            libc::SIGHUP => exit::SIGHUP,
            libc::SIGTERM => exit::SIGTERM,
            _ => exit::SIGINT,
        },
        _ => exit::OK,
    })
}

/// Saves every improvement and keeps the display current.
struct SaveAndShow<'a> {
    destination: &'a Destination,
    progress: Progress,
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

fn read_input(path: &Path, from_stdin: bool) -> Result<Vec<u8>> {
    if from_stdin {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .context("cannot read the input from standard input")?;
        return Ok(buf);
    }
    let meta = std::fs::metadata(path)
        .with_context(|| format!("cannot read the input {}", path.display()))?;
    if meta.is_dir() {
        bail!("the input {} is a directory; give a file", path.display());
    }
    std::fs::read(path).with_context(|| format!("cannot read the input {}", path.display()))
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
        Some(LangArg::C) => Lang::Tree(crate::lang::Language::C),
        Some(LangArg::Json) => Lang::Tree(crate::lang::Language::Json),
        Some(LangArg::Text) => Lang::Text,
        Some(LangArg::Bytes) => Lang::Bytes,
        None => match crate::lang::Language::from_path(input) {
            Some(l) => Lang::Tree(l),
            None if crate::lang::looks_binary(source) => Lang::Bytes,
            None => Lang::Text,
        },
    };
    if let Lang::Tree(_) = lang
        && cli.lang.is_some()
        && crate::lang::looks_binary(source)
    {
        bail!(
            "the input looks binary (NUL bytes or invalid UTF-8) but --lang {} was given; use --lang bytes",
            lang.name()
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
) -> String {
    let name = file_name.to_string_lossy();
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
         Try the following to reproduce the check by hand:\n\n  \
         dir=$(mktemp -d) && cp {copy_from} \"$dir\"/{name_q} && cd \"$dir\" && {script_q} \"$dir\"/{name_q}; echo \"exit code: $?\"\n",
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
    fn shell_quoting_leaves_plain_paths_alone() {
        assert_eq!(shell_quote("/tmp/a.c"), "/tmp/a.c");
        assert_eq!(shell_quote("it's here"), "'it'\\''s here'");
    }
}
