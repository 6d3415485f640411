//! The command line: clap's derive structs, and the run's
//! [`Settings`](crate::settings::Settings) built from them (`cli/build.rs`).
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

use anyhow::Result;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand};

use crate::languages::Lang;
use crate::policy::format::Style;
use crate::policy::perses::{PersesOptions, PersesSchedule};
use crate::policy::registry::{self, Entry};
use crate::policy::tpdd::TPddOptions;
use crate::policy::{Minimizer, MinimizerSettings};
use crate::units::UnitKind;

mod build;

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

    /// With --run: start the command afresh for every test even when its
    /// program was built by AFL++ (afl-clang-fast), whose tests are
    /// otherwise forked by its forkserver.
    #[arg(long, help_heading = "Built-in oracle")]
    pub(crate) no_forkserver: bool,

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

    /// Reduce every file of the directory (or every file listed) as a test
    /// case of its own, with the same oracle, into the output directory
    /// (-o, default DIR.reduced/ or reduced/), with report.json and
    /// report.sarif. With --same-crash the files are grouped by crash
    /// signature first and one reproducer per group is reduced, from its
    /// smallest file; a crash met while reducing that no file had becomes a
    /// group of its own.
    #[arg(long, help_heading = "Input")]
    pub(crate) each: bool,

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
