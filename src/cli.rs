//! The command line: clap's derive structs, and the run's [`Settings`] built
//! from them.
//!
//! The only library module that knows clap. Values with a fixed list of
//! spellings (`--algo`, `--inner`, `--unit`, `--lang`, `--perses-schedule`,
//! `--format`) are parsed straight into the library's own types, their
//! possible values built from the library's names (the policy registry,
//! [`Minimizer::ALL`], [`Lang::all`], ...). [`Cli::settings`] refuses
//! flags out of range (exit 2), and loads a `--grammar` library (exit 2 if
//! it cannot be used). `--lang` also takes a name of no built-in language,
//! for `--grammar`. The optional subcommands (`completions`,
//! `man`) are handled by the binary before a run.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand};

use crate::exit::{self, failure};
use crate::languages::{Lang, Language};
use crate::oracle::{DEFAULT_DEPTH, Expectations, RunSpec, signal_names, signal_number};
use crate::pipeline::Strategy;
use crate::policy::format::Style;
use crate::policy::hdd::HddOptions;
use crate::policy::perses::{PersesOptions, PersesSchedule};
use crate::policy::registry::{self, Entry, Tuning};
use crate::policy::tpdd::TPddOptions;
use crate::policy::{Minimizer, MinimizerSettings};
use crate::settings::{Judge, LlmEndpoint, Settings, default_wave, parse_duration, parse_size};
use crate::units::UnitKind;

pub const AFTER_HELP: &str = "\
Examples (the oracle gets the candidate as $1; it exits 0 while the bug shows):
  A C file that crashes the compiler, with check.sh saying
      gcc -O2 -c -w \"$1\" -o /dev/null 2>&1 | grep -q 'internal compiler error'
    reduce --oracle ./check.sh crash.c           # the result: crash.reduced.c

  A fuzzer's crash input, byte by byte, for 20 minutes at most, with crash.sh
      ./fuzz_target \"$1\" 2>&1 | grep -q 'ERROR: AddressSanitizer'
    reduce --unit byte --max-time 20m --oracle ./crash.sh crash-1a2b -o min.bin

  The same with no script, keeping the original's crash (sanitizer error
  type and top frames, panic, traceback, assertion, else the signal); {} is
  the candidate's path (without it, the target's stdin)
    reduce --same-crash --run './fuzz_target {}' crash-1a2b -o min.bin
    reduce --same-crash --run './fuzz_target {}' crash-1a2b --print-oracle > crash.sh

  A command judged by what it does instead of a script
    reduce --run 'python3 parse.py {}' --expect-stderr 'KeyError' in.json

  A JSON document that jq rejects though Python accepts it, with json.sh
      ! jq . \"$1\" >/dev/null 2>&1 && python3 -m json.tool \"$1\" >/dev/null
    reduce --oracle ./json.sh big.json           # the result: big.reduced.json

  In a shell pipeline (- is standard input; -o - writes to standard output)
    ./generate | reduce -q --oracle ./check.sh - -o - | gzip > small.txt.gz

  Several files, or a directory, as one test case (the oracle runs in a copy
  of the tree; $1 is the directory, or the first listed file)
    reduce --oracle ./check.sh main.c util.h util.c   # the result: reduced/
    reduce --oracle ./make-fails.sh project/ --exclude '*.txt'  # project.reduced/

The oracle runs in a fresh temporary directory holding the candidate under the
input's file name, so scripts that read the file by name work too (--copy FILE
puts other files beside it); $REDUCE_CACHE_DIR is one directory for the whole
run, for caches (GOCACHE, CCACHE_DIR). See docs/oracles.md, and docs/ci.md for CI.

Also: reduce completions bash|zsh|fish (a completion script), reduce man.

Exit codes:
  0  reduced (or already minimal), or stopped by --max-time/--max-tests
  1  an error: unreadable, empty, binary (for a language with a grammar) or
     too large input, unwritable output, a result that is no longer
     interesting when re-tested (the output then holds the last result
     that passed twice)
  2  bad usage (e.g. a --memory-limit that is not a size), a --grammar
     library that cannot be used, or several files that cannot be a test
     case (a symlink or special file, no file)
  3  the oracle cannot be trusted: the original input is not interesting (a
     diagnosis or a recipe to reproduce the check by hand is printed; with
     --same-crash, it shows no crash), its
     verdicts on the original disagree (flaky), or it accepts an empty file
  4  the oracle cannot be run (missing, a directory, not executable, a
     missing #! interpreter), or /dev/null is not a character device
  5  tests could not run for a minute (work directory full or gone, too many
     open files, process table full, ...): the output holds the best result
     so far, not a minimal one; fix the cause and run the same command to
     resume
  129, 130, 143  interrupted by SIGHUP, SIGINT, SIGTERM; the output holds the
     best result so far";

/// A parser of one of `choices`, each a spelling (with its help) and its value.
fn one_of<T: Clone + Send + Sync + 'static>(
    choices: impl IntoIterator<Item = (PossibleValue, T)>,
) -> impl TypedValueParser<Value = T> {
    let (spellings, values): (Vec<PossibleValue>, Vec<T>) = choices.into_iter().unzip();
    let names: Vec<String> = spellings.iter().map(|v| v.get_name().to_string()).collect();
    PossibleValuesParser::new(spellings).map(move |name: String| {
        let at = names.iter().position(|n| *n == name);
        values[at.expect("clap accepts only the possible values")].clone()
    })
}

/// `--algo`: the entries of the policy registry that it offers.
fn algo_parser() -> impl TypedValueParser<Value = &'static Entry> {
    one_of(registry::algorithms().map(|e| (PossibleValue::new(e.name).help(e.description), e)))
}

/// `--inner`: the list minimizers.
fn inner_parser() -> impl TypedValueParser<Value = Minimizer> {
    one_of(Minimizer::ALL.map(|m| (PossibleValue::new(m.name()), m)))
}

/// `--unit`: the kinds of flat units.
fn unit_parser() -> impl TypedValueParser<Value = UnitKind> {
    one_of(UnitKind::ALL.map(|k| (PossibleValue::new(k.name()), k)))
}

/// What `--lang` names: a language `reduce` knows, or, for `--grammar`,
/// another.
#[derive(Clone, Debug)]
pub(crate) enum LangArg {
    Known(Lang),
    Other(String),
}

/// `--lang`: the languages with a grammar, then text and bytes (offered
/// to help and completions); any other name is kept for `--grammar`.
#[derive(Clone)]
struct LangParser;

impl TypedValueParser for LangParser {
    type Value = LangArg;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<LangArg, clap::Error> {
        let name = clap::builder::NonEmptyStringValueParser::new().parse_ref(cmd, arg, value)?;
        Ok(Lang::all()
            .find(|l| l.name().eq_ignore_ascii_case(&name))
            .map_or(LangArg::Other(name), LangArg::Known))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(Lang::all().map(|l| PossibleValue::new(l.name()))))
    }
}

/// `--perses-schedule`.
fn schedule_parser() -> impl TypedValueParser<Value = PersesSchedule> {
    one_of(PersesSchedule::ALL.map(|s| {
        let help = match s {
            PersesSchedule::Tutorial => {
                "The tutorial's: every node's replacements again after each success"
            }
            PersesSchedule::Sweep => {
                "One pass over the nodes, largest first, resumed after each success"
            }
        };
        (PossibleValue::new(s.name()).help(help), s)
    }))
}

/// `--format`.
fn format_parser() -> impl TypedValueParser<Value = Style> {
    one_of(Style::ALL.map(|s| {
        let help = match s {
            Style::Readable => {
                "Laid out from the parse tree (one statement, member or element a line, \
                 indented by nesting) if the oracle accepts it, else as `original`"
            }
            Style::Original => "The whitespace each kept token had in the input, tidied",
            Style::Compact => "As little whitespace as the oracle allows (tried once at the end)",
            Style::Native => {
                "The language's own formatter's output (clang-format, rustfmt, gofmt, ruff or \
                 black, prettier, shfmt, python3 -m json.tool) if one is installed and the \
                 oracle accepts it, else as `readable`"
            }
        };
        (PossibleValue::new(s.name()).help(help), s)
    }))
}

/// What `reduce` does instead of reducing.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print a shell completion script on standard output.
    ///
    /// bash: `reduce completions bash > ~/.local/share/bash-completion/completions/reduce`;
    /// zsh: `reduce completions zsh > _reduce` in a directory of `$fpath`;
    /// fish: `reduce completions fish > ~/.config/fish/completions/reduce.fish`.
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) on standard output.
    ///
    /// Read it with `reduce man | man -l -`, or install it with
    /// `reduce man > /usr/local/share/man/man1/reduce.1`.
    Man,
}

/// Reduce a file while an interestingness test keeps passing.
#[derive(Debug, Parser)]
#[command(
    name = "reduce",
    version,
    about,
    after_help = AFTER_HELP,
    override_usage = "reduce [OPTIONS] --oracle <SCRIPT> <INPUT>\n       \
                      reduce [OPTIONS] --run <CMD> (--same-crash | --expect-...) <INPUT>\n       \
                      reduce --list-algos\n       \
                      reduce completions <SHELL>\n       \
                      reduce man",
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    disable_help_subcommand = true
)]
pub struct Cli {
    /// `completions` or `man` instead of a reduction.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// The input file (`-` reads standard input); or several files, or one
    /// directory, reduced together as one test case.
    #[arg(value_name = "INPUT", required_unless_present = "list_algos", num_args = 1..)]
    pub(crate) input: Vec<PathBuf>,

    /// With several files or a directory: leave the files matching GLOB
    /// untouched but present in every test (`*` and `?` within a name, `**`
    /// across directories, `[...]` classes; a GLOB without `/` matches
    /// names anywhere; repeatable).
    #[arg(long, value_name = "GLOB", help_heading = "Input")]
    pub(crate) exclude: Vec<String>,

    /// The interestingness test: an executable that exits 0 while the
    /// candidate is interesting (or give --run).
    #[arg(long, value_name = "SCRIPT", help_heading = "Oracle")]
    pub(crate) oracle: Option<PathBuf>,

    /// Instead of --oracle: a shell command run on each candidate (`{}` is
    /// its path; without `{}` it is the command's stdin), in the current
    /// directory, judged by --same-crash and the --expect-* options given.
    #[arg(long, value_name = "CMD", help_heading = "Built-in oracle")]
    pub(crate) run: Option<String>,

    /// With --run: interesting iff the command crashes as it does on the
    /// original: the same sanitizer error type and top frames, Rust or Go
    /// panic, Python exception and innermost frames, or assertion; else the
    /// same fatal signal. The signature is printed at the start.
    #[arg(long, help_heading = "Built-in oracle")]
    pub(crate) same_crash: bool,

    /// --same-crash: how many stack frames the signature keeps [default: 3].
    #[arg(long, value_name = "N", help_heading = "Built-in oracle")]
    pub(crate) signature_frames: Option<usize>,

    /// With --run: interesting only if the command exits with CODE (a
    /// signal N counts as 128+N, as a shell reports it).
    #[arg(long, value_name = "CODE", help_heading = "Built-in oracle")]
    pub(crate) expect_exit: Option<String>,

    /// With --run: interesting only if a signal kills the command
    /// (SIGSEGV, SEGV, 11, ...).
    #[arg(long, value_name = "SIG", help_heading = "Built-in oracle")]
    pub(crate) expect_signal: Option<String>,

    /// With --run: interesting only if the command's stdout matches REGEX
    /// (Rust regex syntax; `^` and `$` match at line ends).
    #[arg(long, value_name = "REGEX", help_heading = "Built-in oracle")]
    pub(crate) expect_stdout: Option<String>,

    /// With --run: interesting only if the command's stderr matches REGEX.
    #[arg(long, value_name = "REGEX", help_heading = "Built-in oracle")]
    pub(crate) expect_stderr: Option<String>,

    /// With --run: interesting only if the command runs past --timeout (a
    /// hang); needs --timeout.
    #[arg(long, help_heading = "Built-in oracle")]
    pub(crate) expect_timeout: bool,

    /// With --run: print the built-in oracle as an equivalent shell script
    /// (to edit, then give to --oracle) and exit without reducing.
    #[arg(long, help_heading = "Built-in oracle")]
    pub(crate) print_oracle: bool,

    /// Seconds before a test is killed and counted as not interesting
    /// [default: 10× the original's run time, between 1 and 300].
    #[arg(long, value_name = "SECS", help_heading = "Oracle")]
    pub(crate) timeout: Option<f64>,

    /// Tests to run at once [default: the number of cores].
    #[arg(short = 'j', long, value_name = "N", help_heading = "Oracle")]
    pub(crate) jobs: Option<usize>,

    /// Test up to W independent candidates from one base at once and merge
    /// the ones that pass (a cluster's many workers find more per round).
    /// The result depends on W, never on -j: `-j 1 --wave W` gives what
    /// `-j 64 --wave W` gives [default: -j when -j is 4 or more, else 1 (no
    /// waves: the result is -j 1's)].
    #[arg(long, value_name = "W", help_heading = "Oracle")]
    pub(crate) wave: Option<usize>,

    /// Do not remember verdicts of candidates already tested.
    #[arg(long, help_heading = "Oracle")]
    pub(crate) no_cache: bool,

    /// Where to make the per-test temporary directories [default: $TMPDIR if
    /// set, else /dev/shm when it is a tmpfs with 1 GiB free, else /tmp].
    #[arg(long, value_name = "DIR", help_heading = "Oracle")]
    pub(crate) work_dir: Option<PathBuf>,

    /// Run every test as `CMD <oracle> <candidate>` (through /bin/sh), e.g.
    /// 'srun --quiet -N1 -n1 --' to spread tests over a Slurm cluster; its
    /// exit status is the verdict. Use with --work-dir on a shared
    /// filesystem (docs/cluster.md).
    #[arg(long, value_name = "CMD", help_heading = "Oracle")]
    pub(crate) launcher: Option<String>,

    /// A file to copy beside every candidate (repeatable).
    #[arg(long = "copy", value_name = "FILE", help_heading = "Oracle")]
    pub(crate) copy: Vec<PathBuf>,

    /// Run the oracle on the original N times before reducing and refuse to
    /// start (exit 3) if the verdicts disagree; 1 = the baseline run only.
    /// Up to -j of the runs go at once.
    #[arg(long, value_name = "N", default_value_t = 2, help_heading = "Oracle")]
    pub(crate) check_flaky: u32,

    /// Test every interesting candidate once more before committing it; one
    /// that fails the re-test is not committed (for flaky oracles).
    #[arg(long, help_heading = "Oracle")]
    pub(crate) recheck: bool,

    /// Do not refuse an oracle that accepts an empty or whitespace-only file.
    #[arg(long, help_heading = "Oracle")]
    pub(crate) allow_empty: bool,

    /// The algorithm.
    #[arg(
        long,
        value_parser = algo_parser(),
        default_value = registry::AUTO.name,
        help_heading = "Algorithm"
    )]
    pub(crate) algo: &'static Entry,

    /// The list minimizer inside hdd, perses (and auto's tree phase).
    #[arg(long, value_parser = inner_parser(), help_heading = "Algorithm")]
    pub(crate) inner: Option<Minimizer>,

    /// Flat units for list algorithms and for inputs without a grammar [default: token for text, byte for binary].
    #[arg(long, value_parser = unit_parser(), help_heading = "Algorithm")]
    pub(crate) unit: Option<UnitKind>,

    /// The input's language [default: from the file extension, else the
    /// `#!` line]; with --grammar, any name (the library's symbol is
    /// `tree_sitter_<NAME>`).
    #[arg(long, value_parser = LangParser, help_heading = "Algorithm")]
    pub(crate) lang: Option<LangArg>,

    /// A tree-sitter grammar built as a shared library (as `tree-sitter
    /// build` makes it) to parse the input with; needs --node-types. Its
    /// language is named by --lang, else by the file name
    /// (`libtree-sitter-foo.so` is `foo`).
    #[arg(
        long,
        value_name = "LIB",
        requires = "node_types",
        help_heading = "Algorithm"
    )]
    pub(crate) grammar: Option<PathBuf>,

    /// The grammar's `node-types.json` (with --grammar).
    #[arg(
        long,
        value_name = "FILE",
        requires = "grammar",
        help_heading = "Algorithm"
    )]
    pub(crate) node_types: Option<PathBuf>,

    /// A data file for the grammar, in the format of reduce's
    /// `grammars/<lang>.json` (with --grammar; optional: separators are
    /// also derived from the tree).
    #[arg(
        long,
        value_name = "FILE",
        requires = "grammar",
        help_heading = "Algorithm"
    )]
    pub(crate) grammar_data: Option<PathBuf>,

    /// perses (and auto's tree phase): the order of the edits. `sweep` walks
    /// the nodes once, largest first, trying a few replacements per node
    /// and then minimizing its list; a success does not restart the walk,
    /// and a new sweep runs only while one removes something. `tutorial`
    /// retries the replacements of every node after each success: far more
    /// tests on real inputs.
    #[arg(
        long,
        value_parser = schedule_parser(),
        value_name = "SCHEDULE",
        default_value = PersesOptions::default().schedule.name(),
        help_heading = "Algorithm"
    )]
    pub(crate) perses_schedule: PersesSchedule,

    /// The result's whitespace. `readable` (the default) ends a run on a
    /// language with a grammar by proposing the result laid out from its
    /// parse tree; `original` keeps each token's spacing from the input,
    /// tidied. `compact` ends the run by proposing the
    /// tokens with no line breaks (but after line comments and `#` lines)
    /// and single spaces only where tokens would fuse, then, if the oracle
    /// rejects that, with the line breaks kept; the oracle judges both, so
    /// whitespace the bug depends on stays. Token units only (a grammar's or text's).
    #[arg(
        long,
        value_parser = format_parser(),
        value_name = "STYLE",
        default_value = Style::default().name(),
        help_heading = "Output"
    )]
    pub(crate) format: Style,

    /// A formatter for `--format native` to use instead of the language's:
    /// a shell command given the result on stdin that prints it formatted
    /// (e.g. 'clang-format --style=Google'); kept only if the oracle
    /// accepts its output. Implies --format native.
    #[arg(long, value_name = "CMD", help_heading = "Output")]
    pub(crate) format_with: Option<String>,

    /// End the run by renaming identifiers to short names (`a`, `b`, …),
    /// one name at a time, each renaming tested by the oracle. Off by
    /// default: names help map a result back to the code. Needs a grammar
    /// that lists identifier kinds (C).
    #[arg(long, help_heading = "Output")]
    pub(crate) rename: bool,

    /// Repeat tree sweeps until one removes nothing (HDD*).
    #[arg(long, help_heading = "Algorithm")]
    pub(crate) fixpoint: bool,

    /// hdd: let every node but the root be deleted, not only optional ones.
    #[arg(long, help_heading = "Algorithm")]
    pub(crate) any_node: bool,

    /// Prior probability that a unit is essential (probdd, cdd).
    #[arg(
        long,
        value_name = "P",
        default_value_t = MinimizerSettings::default().p0,
        help_heading = "Algorithm"
    )]
    pub(crate) p0: f64,

    /// drdd: at most R single-unit scans (1 = linear, no 1-minimality) [default: until a scan changes nothing].
    #[arg(long, value_name = "R", help_heading = "Algorithm")]
    pub(crate) restarts: Option<u32>,

    /// tpdd: prior that an optional node survives.
    #[arg(
        long,
        value_name = "S",
        default_value_t = TPddOptions::default().sigma,
        help_heading = "Algorithm"
    )]
    pub(crate) sigma: f64,

    /// tpdd: stop when the best expected gain is at most this many tokens.
    #[arg(
        long,
        value_name = "G",
        default_value_t = TPddOptions::default().min_gain,
        help_heading = "Algorithm"
    )]
    pub(crate) min_gain: f64,

    /// Test tree candidates even when they parse worse than the original.
    #[arg(long, help_heading = "Algorithm")]
    pub(crate) no_syntax_filter: bool,

    /// Where the result goes (`-` = standard output) [default: INPUT's stem + `.reduced` + its extension, beside it; for a directory DIR.reduced/, for several files reduced/ in their common directory].
    #[arg(short, long, value_name = "FILE", help_heading = "Output")]
    pub(crate) output: Option<PathBuf>,

    /// Overwrite the input with the result, after saving it as INPUT.orig (a directory whole as DIR.orig, listed files each as FILE.orig).
    #[arg(long, conflicts_with = "output", help_heading = "Output")]
    pub(crate) in_place: bool,

    /// Write counters and timings as JSON to FILE.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub(crate) stats_json: Option<PathBuf>,

    /// Stop after this long (e.g. 90s, 10m, 2h, 1h30m; a number alone is
    /// seconds); the result is the best so far.
    #[arg(long, value_name = "DURATION", help_heading = "Limits")]
    pub(crate) max_time: Option<String>,

    /// Stop after this many oracle tests.
    #[arg(long, value_name = "N", help_heading = "Limits")]
    pub(crate) max_tests: Option<u64>,

    /// Print nothing but errors.
    #[arg(short, long, conflicts_with = "verbose", help_heading = "Output")]
    pub(crate) quiet: bool,

    /// Show each test's output and more detail.
    #[arg(short, long, help_heading = "Output")]
    pub(crate) verbose: bool,

    /// Start over, ignoring (and replacing) the journal an interrupted run left beside the output.
    #[arg(long, help_heading = "Output")]
    pub(crate) fresh: bool,

    /// How many seconds a test that cannot run is retried before the run stops (for tests).
    #[arg(long, value_name = "SECS", hide = true)]
    pub(crate) fault_patience: Option<f64>,

    /// Limit every test's address space (setrlimit RLIMIT_AS) to SIZE, e.g.
    /// 512M or 2G (K, M, G, T: powers of 1024). A test that runs out of
    /// memory under it counts as not interesting; the summary counts them.
    #[arg(long, value_name = "SIZE", help_heading = "Oracle")]
    pub(crate) memory_limit: Option<String>,

    /// Re-test the current best after every N successes, and the result at
    /// the end; if it no longer passes, the oracle is flaky: the run stops
    /// and keeps the last result that passed twice (exit 1). 0 = at the end only.
    #[arg(long, value_name = "N", default_value_t = 50, help_heading = "Oracle")]
    pub(crate) retest_every: u32,

    /// After the fixpoint, reduce again from the original on another path
    /// (other orders of the tree and token passes), keeping the result
    /// only if it is smaller (tokens, then bytes) than the best; verdicts
    /// come from the cache. Repeated while a restart beats the best.
    #[arg(long, overrides_with = "no_restart", help_heading = "Algorithm")]
    pub(crate) restart: bool,

    /// Do not restart after the fixpoint (the default).
    #[arg(long, overrides_with = "restart", help_heading = "Algorithm")]
    pub(crate) no_restart: bool,

    /// An outside reducer run as a pass after each round (repeatable): a
    /// shell command given the path of a copy of the current best as its
    /// last argument, which it rewrites in place. The result is kept only
    /// if it is smaller and the oracle accepts it; a crash, a hang (past
    /// the oracle's timeout) or a larger result changes nothing.
    #[arg(long = "reduce-with", value_name = "CMD", help_heading = "Algorithm")]
    pub(crate) reduce_with: Vec<String>,

    /// A command proposing smaller candidates after each round
    /// (repeatable): it gets the current best on stdin and prints one or
    /// more candidates on stdout, separated by lines reading
    /// `---- reduce candidate ----`; the oracle judges each.
    #[arg(long = "propose-with", value_name = "CMD", help_heading = "Algorithm")]
    pub(crate) propose_with: Vec<String>,

    /// An OpenAI-compatible API (llama.cpp's server, Ollama, vLLM, a hosted
    /// one), http:// or https://, e.g. http://127.0.0.1:8080/v1: its chat
    /// model is asked for a smaller candidate after each round; the oracle
    /// judges it. Needs --llm-model.
    #[arg(
        long,
        value_name = "URL",
        requires = "llm_model",
        help_heading = "Algorithm"
    )]
    pub(crate) llm_url: Option<String>,

    /// The model --llm-url serves.
    #[arg(
        long,
        value_name = "NAME",
        requires = "llm_url",
        help_heading = "Algorithm"
    )]
    pub(crate) llm_model: Option<String>,

    /// The environment variable holding --llm-url's API key (sent as
    /// `Authorization: Bearer KEY`), e.g. OPENAI_API_KEY.
    #[arg(
        long,
        value_name = "NAME",
        requires = "llm_url",
        help_heading = "Algorithm"
    )]
    pub(crate) llm_key_env: Option<String>,

    /// PEM certificates for an https --llm-url to trust instead of the
    /// built-in roots (a local server's self-signed certificate)
    /// [default: $SSL_CERT_FILE, if set].
    #[arg(
        long,
        value_name = "FILE",
        requires = "llm_url",
        help_heading = "Algorithm"
    )]
    pub(crate) llm_ca_cert: Option<PathBuf>,

    /// Save the original and every accepted candidate in DIR, as
    /// `NNNN-<pass>.<ext>` in order (DIR is created).
    #[arg(long, value_name = "DIR", help_heading = "Output")]
    pub(crate) history: Option<PathBuf>,

    /// List the algorithms and inner minimizers, then exit.
    #[arg(long)]
    pub list_algos: bool,
}

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

    /// Refuses the run-level flags that work on one file's text (a history
    /// of it, outside reducers and proposals given it, restarts from it) for
    /// several files: exit 2, naming the flag.
    fn refuse_single_file_flags(&self) -> Result<()> {
        let several = self.input.len() > 1 || self.input.first().is_some_and(|p| p.is_dir());
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
            },
        }
    }
}
