//! The run's [`Settings`] built from the parsed command line: every flag
//! checked against its range and the flags beside it (exit 2, in the order
//! `Cli::check` lists them), `--grammar` loaded, the strategy and its
//! tuning assembled. Apart from `cli.rs` so that the flags' declarations
//! and what is made of them each fit a file.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;

use super::{Cli, LangArg};
use crate::exit::{self, failure};
use crate::languages::{Lang, Language};
use crate::oracle::{DEFAULT_DEPTH, Expectations, RunSpec, signal_names, signal_number};
use crate::pipeline::Strategy;
use crate::policy::MinimizerSettings;
use crate::policy::format::Style;
use crate::policy::hdd::HddOptions;
use crate::policy::perses::PersesOptions;
use crate::policy::registry::Tuning;
use crate::policy::tail::TailOptions;
use crate::policy::tpdd::TPddOptions;
use crate::settings::{Judge, LlmEndpoint, Settings, default_wave, parse_duration, parse_size};

impl Cli {
    /// The run's settings; flags out of range are refused with exit code 2
    /// (and a blank `--launcher` with 1), in the order `Cli::check` lists
    /// them.
    ///
    /// # Panics
    /// When clap let through a reduction without INPUT (it requires one
    /// unless `--list-algos` or a subcommand is given).
    pub fn settings(self) -> Result<Settings> {
        let max_time = self.check()?;
        let oracle = self.judge()?;
        let memory_limit = self
            .memory_limit
            .as_deref()
            .map(parse_size)
            .transpose()
            .map_err(|e| failure(exit::USAGE, format!("{e:#}")))?;
        let llm = self.llm_endpoint()?;
        let lang = self.language()?;
        let strategy = self.strategy();
        let jobs = self
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        Ok(Settings {
            input: self.input.first().cloned().expect("clap requires INPUT"),
            inputs: self.input,
            exclude: self.exclude,
            oracle,
            print_oracle: self.print_oracle,
            timeout: self.timeout.map(Duration::from_secs_f64),
            jobs,
            wave: self.wave.unwrap_or_else(|| default_wave(jobs)),
            cache: !self.no_cache,
            work_dir: self.work_dir,
            launcher: self.launcher,
            copy: self.copy,
            check_flaky: self.check_flaky,
            recheck: self.recheck,
            allow_empty: self.allow_empty,
            lang,
            strategy,
            no_syntax_filter: self.no_syntax_filter,
            forkserver: !self.no_forkserver,
            output: self.output,
            in_place: self.in_place,
            stats_json: self.stats_json,
            max_time,
            max_tests: self.max_tests,
            quiet: self.quiet,
            verbose: self.verbose,
            fresh: self.fresh,
            fault_patience: self
                .fault_patience
                .map(|s| Duration::from_secs_f64(s.clamp(0.0, 1e9))),
            history: self.history,
            memory_limit,
            restart: self.restart && !self.no_restart,
            reduce_with: self.reduce_with,
            propose_with: self.propose_with,
            llm,
            retest_every: self.retest_every,
            format_with: self.format_with,
            each: self.each,
            sightings: None,
        })
    }

    /// The test: `--oracle`'s script, or `--run`'s command with what to
    /// expect of it; one line and exit 2 when neither or both are given, or
    /// an expectation cannot be read.
    fn judge(&self) -> Result<Judge> {
        let usage = |message: String| Err(failure(exit::USAGE, message));
        let run_only = [
            (self.same_crash, "--same-crash"),
            (self.signature_frames.is_some(), "--signature-frames"),
            (self.expect_exit.is_some(), "--expect-exit"),
            (self.expect_signal.is_some(), "--expect-signal"),
            (self.expect_stdout.is_some(), "--expect-stdout"),
            (self.expect_stderr.is_some(), "--expect-stderr"),
            (self.expect_timeout, "--expect-timeout"),
            (self.print_oracle, "--print-oracle"),
        ];
        let command = match (&self.oracle, &self.run) {
            (Some(_), Some(_)) => {
                return usage("give either --oracle SCRIPT or --run CMD, not both".into());
            }
            (None, None) => {
                return usage(
                    "no test given: --oracle SCRIPT (exits 0 while the bug shows), \
                     or --run 'CMD {}' with --same-crash or --expect-*"
                        .into(),
                );
            }
            (Some(script), None) => {
                if let Some((_, flag)) = run_only.iter().find(|(given, _)| *given) {
                    return usage(format!("{flag} goes with --run CMD, not with --oracle"));
                }
                return Ok(Judge::Script(script.clone()));
            }
            (None, Some(command)) => command,
        };
        if command.trim().is_empty() {
            return usage("--run is empty: give the command, e.g. --run './target {}'".into());
        }
        let expect = self.expectations()?;
        if !expect.any() {
            return usage(
                "--run needs what to expect: --same-crash, or --expect-exit, --expect-signal, \
                 --expect-stdout, --expect-stderr or --expect-timeout"
                    .into(),
            );
        }
        Ok(Judge::Run(RunSpec {
            command: command.clone(),
            expect,
        }))
    }

    /// `--run`'s expectations, each checked.
    fn expectations(&self) -> Result<Expectations> {
        let usage = |message: String| failure(exit::USAGE, message);
        let exit = match &self.expect_exit {
            None => None,
            Some(text) => match text.trim().parse::<i32>() {
                Ok(code) if (0..=255).contains(&code) => Some(code),
                _ => {
                    return Err(usage(format!(
                        "--expect-exit {text}: not an exit status (0 to 255)"
                    )));
                }
            },
        };
        let signal = match &self.expect_signal {
            None => None,
            Some(name) => Some(signal_number(name.trim()).ok_or_else(|| {
                usage(format!(
                    "--expect-signal {name}: unknown signal; use a number or one of {}",
                    signal_names().join(", ")
                ))
            })?),
        };
        let regex = |flag: &str, text: &Option<String>| -> Result<Option<regex::Regex>> {
            let Some(text) = text else {
                return Ok(None);
            };
            let built = regex::RegexBuilder::new(text).multi_line(true).build();
            built.map(Some).map_err(|e| {
                let why = e.to_string();
                let why = why.lines().last().unwrap_or_default().trim();
                let why = why.trim_start_matches("error: ");
                usage(format!("{flag} {text}: not a regular expression ({why})"))
            })
        };
        let same_crash = match (self.same_crash, self.signature_frames) {
            (false, Some(_)) => {
                return Err(usage("--signature-frames goes with --same-crash".into()));
            }
            (_, Some(0)) => return Err(usage("--signature-frames must be at least 1".into())),
            (true, depth) => Some(depth.unwrap_or(DEFAULT_DEPTH)),
            (false, None) => None,
        };
        if self.expect_timeout && self.timeout.is_none() {
            return Err(usage(
                "--expect-timeout needs --timeout SECS: how long a run must last to count as a hang"
                    .into(),
            ));
        }
        Ok(Expectations {
            exit,
            signal,
            stdout: regex("--expect-stdout", &self.expect_stdout)?,
            stderr: regex("--expect-stderr", &self.expect_stderr)?,
            timeout: self.expect_timeout,
            same_crash,
        })
    }

    /// `--llm-url`, `--llm-model`, the key `--llm-key-env` names and the
    /// certificates of `--llm-ca-cert` (else `SSL_CERT_FILE`); a URL that
    /// is not http(s), a variable that is not set or a file that cannot be
    /// read is refused (exit 2).
    fn llm_endpoint(&self) -> Result<Option<LlmEndpoint>> {
        let (Some(url), Some(model)) = (&self.llm_url, &self.llm_model) else {
            return Ok(None);
        };
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(failure(
                exit::USAGE,
                format!("--llm-url {url}: give an http:// or https:// URL"),
            ));
        }
        let key = match &self.llm_key_env {
            Some(name) => match std::env::var(name) {
                Ok(key) if !key.trim().is_empty() => Some(key.trim().to_string()),
                _ => {
                    return Err(failure(
                        exit::USAGE,
                        format!("--llm-key-env {name}: the environment variable {name} is not set"),
                    ));
                }
            },
            None => None,
        };
        let ca_file = self.llm_ca_cert.clone().or_else(|| {
            std::env::var_os("SSL_CERT_FILE")
                .filter(|f| !f.is_empty())
                .map(PathBuf::from)
        });
        // Plain HTTP has no certificates to check.
        let ca_file = ca_file.filter(|_| url.starts_with("https://"));
        let ca_pem = match ca_file {
            Some(file) => Some(std::fs::read(&file).map_err(|e| {
                failure(
                    exit::USAGE,
                    format!("cannot read the certificates {}: {e}", file.display()),
                )
            })?),
            None => None,
        };
        Ok(Some(LlmEndpoint {
            url: url.trim_end_matches('/').to_string(),
            model: model.clone(),
            key,
            ca_pem,
        }))
    }

    /// The language `--lang` and `--grammar` ask for: a language of the
    /// registry, or one loaded from `--grammar` (refused with exit 2 when
    /// the library, its node-types or its data cannot be used).
    fn language(&self) -> Result<Option<Lang>> {
        let Some(library) = &self.grammar else {
            return match &self.lang {
                None => Ok(None),
                Some(LangArg::Known(lang)) => Ok(Some(*lang)),
                Some(LangArg::Other(name)) => {
                    let names: Vec<&str> = Lang::all().map(Lang::name).collect();
                    Err(failure(
                        exit::USAGE,
                        format!(
                            "unknown --lang {name}: use one of {}, or load a grammar with --grammar",
                            names.join(", ")
                        ),
                    ))
                }
            };
        };
        let name = match &self.lang {
            Some(LangArg::Known(lang)) => lang.name().to_string(),
            Some(LangArg::Other(name)) => name.clone(),
            None => String::new(),
        };
        let read = |path: &PathBuf, what: &str| {
            std::fs::read_to_string(path).map_err(|e| {
                failure(
                    exit::USAGE,
                    format!("cannot read the {what} {}: {e}", path.display()),
                )
            })
        };
        let node_types = read(
            self.node_types
                .as_ref()
                .expect("clap requires --node-types"),
            "node types",
        )?;
        let data = match &self.grammar_data {
            Some(path) => Some((path.display().to_string(), read(path, "grammar data")?)),
            None => None,
        };
        let name = (!name.is_empty()).then_some(name.as_str());
        Language::load(library, name, node_types, data)
            .map(|l| Some(Lang::Tree(l)))
            .map_err(|e| failure(exit::USAGE, format!("{e:#}")))
    }

    /// Refuses `--format-with` without a layout to run it in, or empty.
    fn check_format(&self) -> Result<()> {
        if self.format_with.is_some() && matches!(self.format, Style::Compact | Style::Original) {
            return Err(failure(
                exit::USAGE,
                format!(
                    "--format-with goes with --format native (or readable), not {}",
                    self.format.name()
                ),
            ));
        }
        if self
            .format_with
            .as_deref()
            .is_some_and(|c| c.trim().is_empty())
        {
            return Err(failure(
                exit::USAGE,
                "--format-with is empty: give a shell command",
            ));
        }
        Ok(())
    }

    /// Refuses flags out of range; returns `--max-time` parsed.
    fn check(&self) -> Result<Option<Duration>> {
        if let Some(t) = self.timeout
            && !(t > 0.0 && t.is_finite())
        {
            return Err(failure(
                exit::USAGE,
                format!("--timeout must be a positive number of seconds, not {t}"),
            ));
        }
        let several = self.input.len() > 1;
        if several && self.input.iter().any(|p| p.as_os_str() == "-") {
            return Err(failure(
                exit::USAGE,
                "- (standard input) cannot be one of several inputs",
            ));
        }
        if (several || self.input.first().is_some_and(|p| p.is_dir()))
            && self.output.as_ref().is_some_and(|o| o.as_os_str() == "-")
        {
            return Err(failure(
                exit::USAGE,
                "-o - cannot take several files; give an output directory",
            ));
        }
        if !self.exclude.is_empty() && !several && !self.input.first().is_some_and(|p| p.is_dir()) {
            return Err(failure(
                exit::USAGE,
                "--exclude applies to a directory or several files, not one file",
            ));
        }
        self.check_format()?;
        if self.jobs == Some(0) {
            return Err(failure(exit::USAGE, "-j/--jobs must be at least 1"));
        }
        if self.wave == Some(0) {
            return Err(failure(
                exit::USAGE,
                "--wave must be at least 1 (1 = no waves)",
            ));
        }
        if self.check_flaky == 0 {
            return Err(failure(
                exit::USAGE,
                "--check-flaky must be at least 1 (1 = run the original once)",
            ));
        }
        if !(self.p0 > 0.0 && self.p0 < 1.0) {
            return Err(failure(
                exit::USAGE,
                format!("--p0 must be strictly between 0 and 1, not {}", self.p0),
            ));
        }
        if !(self.sigma > 0.0 && self.sigma <= 1.0) {
            return Err(failure(
                exit::USAGE,
                format!("--sigma must be in (0, 1], not {}", self.sigma),
            ));
        }
        let max_time = self
            .max_time
            .as_deref()
            .map(parse_duration)
            .transpose()
            .map_err(|e| failure(exit::USAGE, format!("{e:#}")))?;
        for command in self.reduce_with.iter().chain(&self.propose_with) {
            if command.trim().is_empty() {
                return Err(failure(
                    exit::USAGE,
                    "--reduce-with/--propose-with is empty: give a shell command",
                ));
            }
        }
        self.refuse_single_file_flags()?;
        if self
            .launcher
            .as_deref()
            .is_some_and(|l| l.trim().is_empty())
        {
            anyhow::bail!(
                "--launcher is empty: give the command prefix, e.g. 'srun --quiet -N1 -n1 --'"
            );
        }
        Ok(max_time)
    }

    /// Refuses, with `--each`, an input or output that is not a set of
    /// files (standard input, standard output, in place) and the flags
    /// that write one file beside the result (`--stats-json`: the report
    /// is `report.json` in the output directory; `--history`): exit 2.
    fn refuse_each_flags(&self) -> Result<()> {
        if !self.each {
            return Ok(());
        }
        let dash = |p: &std::path::Path| p.as_os_str() == "-";
        let flags = [
            (self.input.iter().any(|p| dash(p)), "standard input (-)"),
            (self.output.as_deref().is_some_and(dash), "-o -"),
            (self.in_place, "--in-place"),
            (self.stats_json.is_some(), "--stats-json (see report.json)"),
            (self.history.is_some(), "--history"),
        ];
        match flags.iter().find(|(given, _)| *given) {
            Some((_, flag)) => Err(failure(
                exit::USAGE,
                format!("--each writes one result per case into a directory: drop {flag}"),
            )),
            None => Ok(()),
        }
    }

    /// Refuses the run-level flags that work on one file's text (a history
    /// of it, outside reducers and proposals given it, restarts from it) for
    /// several files: exit 2, naming the flag.
    fn refuse_single_file_flags(&self) -> Result<()> {
        let several =
            !self.each && (self.input.len() > 1 || self.input.first().is_some_and(|p| p.is_dir()));
        self.refuse_each_flags()?;
        let flags = [
            (self.history.is_some(), "--history"),
            (self.restart && !self.no_restart, "--restart"),
            (!self.reduce_with.is_empty(), "--reduce-with"),
            (!self.propose_with.is_empty(), "--propose-with"),
            (self.llm_url.is_some(), "--llm-url"),
        ];
        match flags.iter().find(|(given, _)| *given && several) {
            Some((_, flag)) => Err(failure(
                exit::USAGE,
                format!(
                    "{flag} works on a single file, not on several; drop it or reduce one file"
                ),
            )),
            None => Ok(()),
        }
    }

    /// The algorithm and its tuning.
    fn strategy(&self) -> Strategy {
        Strategy {
            algo: self.algo,
            inner: self.inner,
            unit: self.unit,
            rename: self.rename,
            tuning: Tuning {
                minimizer: MinimizerSettings {
                    p0: self.p0,
                    restarts: self.restarts,
                },
                hdd: HddOptions {
                    fixpoint: self.fixpoint,
                    any_node: self.any_node,
                    ..HddOptions::default()
                },
                perses: PersesOptions {
                    schedule: self.perses_schedule,
                    ..PersesOptions::default()
                },
                tpdd: TPddOptions {
                    sigma: self.sigma,
                    min_gain: self.min_gain,
                },
                format: match self.format_with {
                    Some(_) => Style::Native,
                    None => self.format,
                },
                tail: TailOptions::default(),
            },
        }
    }
}
