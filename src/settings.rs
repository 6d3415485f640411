//! Everything a run was asked to do, checked once, before any test.
//!
//! `crate::cli` builds [`Settings`] from the command line as typed and
//! refuses flags out of range there (exit 2); from then on the run reads
//! plain values, and nothing below `crate::app` sees the command line.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, bail};

use crate::exit::{self, failure};
use crate::languages::{Lang, Language};
use crate::oracle::RunSpec;
use crate::pipeline::{self, Strategy};
use crate::policy::format::Style;
use crate::units::UnitKind;

/// One run's settings.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The input file (`-`: standard input); the first of `inputs`.
    pub(crate) input: PathBuf,
    /// Every input as given: one file, several files, or one directory.
    pub(crate) inputs: Vec<PathBuf>,
    /// Globs of files of a set left untouched (`--exclude`).
    pub(crate) exclude: Vec<String>,
    /// The interestingness test, as given: a script, or a command with
    /// what to expect of it.
    pub(crate) oracle: Judge,
    /// Write the built-in oracle as a shell script on stdout instead of
    /// reducing (`--print-oracle`).
    pub(crate) print_oracle: bool,
    /// How long a test may run (`None`: from the original's run time).
    pub(crate) timeout: Option<Duration>,
    /// Tests to run at once (at least 1).
    pub(crate) jobs: usize,
    /// The wave width (`--wave`; 1: no waves): independent candidates
    /// tested together and merged. The result depends on it, not on `jobs`.
    pub(crate) wave: usize,
    /// Remember verdicts of candidates already tested.
    pub(crate) cache: bool,
    pub(crate) work_dir: Option<PathBuf>,
    /// A command prefix every test runs through (never blank).
    pub(crate) launcher: Option<String>,
    /// Files copied beside every candidate.
    pub(crate) copy: Vec<PathBuf>,
    /// Runs of the oracle on the original before reducing (at least 1).
    pub(crate) check_flaky: u32,
    /// Test every interesting candidate once more before committing it.
    pub(crate) recheck: bool,
    /// Accept an oracle that accepts an empty file.
    pub(crate) allow_empty: bool,
    /// The input's language (`None`: from the extension, else the content).
    pub(crate) lang: Option<Lang>,
    /// The algorithm and its settings.
    pub(crate) strategy: Strategy,
    /// Test tree candidates that parse worse than the original too.
    pub(crate) no_syntax_filter: bool,
    /// `--run`'s tests forked by AFL++'s forkserver where the program has
    /// one (not `--no-forkserver`).
    pub(crate) forkserver: bool,
    /// Where the result goes (`-`: standard output; `None`: beside the input).
    pub(crate) output: Option<PathBuf>,
    pub(crate) in_place: bool,
    pub(crate) stats_json: Option<PathBuf>,
    pub(crate) max_time: Option<Duration>,
    pub(crate) max_tests: Option<u64>,
    pub(crate) quiet: bool,
    pub(crate) verbose: bool,
    /// Ignore (and replace) the journal of an earlier run.
    pub(crate) fresh: bool,
    /// How long a test that cannot run is retried before the run stops
    /// (`None`: the loop's default).
    pub(crate) fault_patience: Option<Duration>,
    /// Where every accepted candidate is saved, numbered (`--history`).
    pub(crate) history: Option<PathBuf>,
    /// The address-space limit of every test, in bytes (`--memory-limit`).
    pub(crate) memory_limit: Option<u64>,
    /// Reduce again from the original after the fixpoint (`--restart`).
    pub(crate) restart: bool,
    /// Outside reducers run as passes, each a shell command given the
    /// current best's path (`--reduce-with`).
    pub(crate) reduce_with: Vec<String>,
    /// Commands proposing candidates from the current best (`--propose-with`).
    pub(crate) propose_with: Vec<String>,
    /// An OpenAI-compatible chat endpoint proposing candidates.
    pub(crate) llm: Option<LlmEndpoint>,
    /// Re-test the current best after this many successes (0: only at the end).
    pub(crate) retest_every: u32,
    /// The formatter `--format native` uses instead of the language's, a
    /// shell command from stdin to stdout (`--format-with`).
    pub(crate) format_with: Option<String>,
    /// Every file of the input a test case of its own (`--each`).
    pub(crate) each: bool,
    /// Set by `--each`'s driver for one case's run, never by the command
    /// line: where the oracle counts its runs and notes other crashes.
    pub(crate) sightings: Option<std::sync::Arc<crate::oracle::Sightings>>,
}

/// What judges a candidate.
#[derive(Clone, Debug)]
pub(crate) enum Judge {
    /// `--oracle SCRIPT`: interesting iff it exits 0.
    Script(PathBuf),
    /// `--run CMD` with `--expect-*` or `--same-crash`: interesting iff
    /// every expectation holds.
    Run(RunSpec),
}

/// An OpenAI-compatible chat endpoint (`--llm-url`, `--llm-model`,
/// `--llm-key-env`, `--llm-ca-cert`).
#[derive(Clone)]
pub(crate) struct LlmEndpoint {
    /// The API's base, e.g. `http://127.0.0.1:8080/v1` or `https://...`.
    pub(crate) url: String,
    pub(crate) model: String,
    /// The API key sent as a bearer token, read from the environment.
    pub(crate) key: Option<String>,
    /// PEM certificates to trust instead of the built-in roots.
    pub(crate) ca_pem: Option<Vec<u8>>,
}

impl std::fmt::Debug for LlmEndpoint {
    /// Everything but the key's value.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmEndpoint")
            .field("url", &self.url)
            .field("model", &self.model)
            .field("key", &self.key.as_ref().map(|_| "(hidden)"))
            .field("ca_pem", &self.ca_pem.as_ref().map(Vec::len))
            .finish()
    }
}

impl Settings {
    /// Whether the input is several files or a directory, reduced as a set.
    pub(crate) fn reads_files(&self) -> bool {
        !self.each && (self.inputs.len() > 1 || self.input.is_dir())
    }

    /// Whether the oracle is `--same-crash`'s.
    pub(crate) fn same_crash(&self) -> bool {
        matches!(&self.oracle, Judge::Run(spec) if spec.expect.same_crash.is_some())
    }

    /// Whether the input is standard input.
    pub(crate) fn reads_stdin(&self) -> bool {
        self.input.as_os_str() == "-"
    }

    /// Refuses flags that do not fit an input in `lang` (once the input is
    /// read, its language is known), exit 2: the last of the flag checks,
    /// all made here and in `cli.rs`, so that planning never checks a flag.
    pub(crate) fn check_for(&self, lang: Lang) -> Result<()> {
        check_strategy(&self.strategy, lang).map_err(|e| failure(exit::USAGE, format!("{e:#}")))
    }
}

/// [`Settings::check_for`]'s checks.
fn check_strategy(strategy: &Strategy, lang: Lang) -> Result<()> {
    let algo = strategy.algo;
    let unit = pipeline::unit_of(strategy, lang);
    if algo.needs_tree && lang == Lang::Bytes {
        let grammars: Vec<&str> = Language::all().map(Language::name).collect();
        bail!(
            "--algo {} needs a parse tree, but the input is {} (use --lang {}|text, or a list algorithm)",
            algo.name,
            lang.name(),
            grammars.join("|")
        );
    }
    if algo.needs_tree && unit != UnitKind::Token {
        bail!(
            "--algo {} works on a tree whose leaves are tokens, not {}s; drop --unit",
            algo.name,
            unit.name()
        );
    }
    if strategy.rename && !pipeline::builds_tree(strategy, lang) {
        bail!("--rename needs a language with a grammar (C); drop --rename or --unit");
    }
    if strategy.tuning.format == Style::Compact && unit != UnitKind::Token {
        bail!(
            "--format compact needs token units (a grammar's or text's), not {}s; \
             drop --unit or --format",
            unit.name()
        );
    }
    Ok(())
}

/// The wave width when `--wave` is not given: `jobs` from
/// [`WAVES_FROM_JOBS`] on, else no waves (the serial loop's commits,
/// tested ahead), so that a run with few workers is what it was.
pub(crate) fn default_wave(jobs: usize) -> usize {
    if jobs >= WAVES_FROM_JOBS { jobs } else { 1 }
}

/// The fewest jobs for which waves are on by default.
pub(crate) const WAVES_FROM_JOBS: usize = 4;

/// Parses `90` (seconds), `90s`, `10m`, `2h`, `1h30m`, `1.5h`: the
/// units are humantime's (`s`, `sec`, `m`, `min`, `h`, `hours`, `d`, ...);
/// a number alone is seconds, and a fraction takes one unit.
pub(crate) fn parse_duration(text: &str) -> Result<Duration> {
    let t = text.trim();
    let bad = || format!("--max-time {text}: not a duration (try 90s, 10m, 2h)");
    let duration = match t.parse::<f64>() {
        Ok(secs) => Duration::try_from_secs_f64(secs).ok(),
        Err(_) => match humantime::parse_duration(t) {
            Ok(d) => Some(d),
            // `1.5h`: humantime takes whole numbers; the fraction scales one unit.
            Err(_) => {
                let at = t
                    .find(|c: char| c.is_ascii_alphabetic())
                    .with_context(bad)?;
                let n: f64 = t[..at].trim().parse().ok().with_context(bad)?;
                let unit = humantime::parse_duration(&format!("1{}", &t[at..]))
                    .ok()
                    .with_context(bad)?;
                Duration::try_from_secs_f64(unit.as_secs_f64() * n).ok()
            }
        },
    };
    match duration {
        Some(d) if !d.is_zero() => Ok(d),
        _ => bail!("--max-time {text}: must be positive"),
    }
}

/// Parses a size in bytes: `4096`, `512K`, `512M`, `2G`, `1T` (powers of
/// 1024; a trailing `B` or `iB` is allowed), at least 1 MiB.
pub(crate) fn parse_size(text: &str) -> Result<u64> {
    let t = text.trim();
    let upper = t.to_ascii_uppercase();
    let digits = upper.trim_end_matches("IB").trim_end_matches('B');
    let (num, shift) = match digits.chars().last() {
        Some('K') => (&digits[..digits.len() - 1], 10),
        Some('M') => (&digits[..digits.len() - 1], 20),
        Some('G') => (&digits[..digits.len() - 1], 30),
        Some('T') => (&digits[..digits.len() - 1], 40),
        _ => (digits, 0),
    };
    let n: f64 = num
        .trim()
        .parse()
        .ok()
        .filter(|n: &f64| n.is_finite() && *n > 0.0)
        .with_context(|| format!("--memory-limit {text}: not a size (try 512M or 2G)"))?;
    let bytes = n * (1u64 << shift) as f64;
    if bytes < (1u64 << 20) as f64 {
        bail!("--memory-limit {text}: too small to start a test (at least 1M)");
    }
    Ok(bytes.min(u64::MAX as f64) as u64)
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
        assert_eq!(parse_duration("1h30m").unwrap(), Duration::from_secs(5400));
        assert!(parse_duration("10 parsecs").is_err());
        assert!(parse_duration("-3s").is_err());
    }

    #[test]
    fn sizes_accept_bytes_and_binary_suffixes() {
        assert_eq!(parse_size("512M").unwrap(), 512 << 20);
        assert_eq!(parse_size("2g").unwrap(), 2 << 30);
        assert_eq!(parse_size("1.5GiB").unwrap(), 3 << 29);
        assert_eq!(parse_size("4096K").unwrap(), 4 << 20);
        assert_eq!(parse_size("2097152").unwrap(), 2 << 20);
        for bad in ["", "lots", "12X", "-1G", "0", "1K"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}
