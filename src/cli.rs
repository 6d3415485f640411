//! The command line as typed: clap's derive structs, nothing validated yet.
//!
//! `crate::app` checks these raw flags before the first test. The optional
//! subcommands (`completions`, `man`) are handled by the binary before a run.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

pub const AFTER_HELP: &str = "\
Examples (the oracle gets the candidate as $1; it exits 0 while the bug shows):
  A C file that crashes the compiler, with check.sh saying
      gcc -O2 -c -w \"$1\" -o /dev/null 2>&1 | grep -q 'internal compiler error'
    reduce --oracle ./check.sh crash.c           # the result: crash.reduced.c

  A fuzzer's crash input, byte by byte, for 20 minutes at most, with crash.sh
      ./fuzz_target \"$1\" 2>&1 | grep -q 'ERROR: AddressSanitizer'
    reduce --unit byte --max-time 20m --oracle ./crash.sh crash-1a2b -o min.bin

  A JSON document that jq rejects though Python accepts it, with json.sh
      ! jq . \"$1\" >/dev/null 2>&1 && python3 -m json.tool \"$1\" >/dev/null
    reduce --oracle ./json.sh big.json           # the result: big.reduced.json

  In a shell pipeline (- is standard input; -o - writes to standard output)
    ./generate | reduce -q --oracle ./check.sh - -o - | gzip > small.txt.gz

The oracle runs in a fresh temporary directory holding the candidate under the
input's file name, so scripts that read the file by name work too (--copy FILE
puts other files beside it). See docs/oracles.md, and docs/ci.md for CI.

Also: reduce completions bash|zsh|fish (a completion script), reduce man.

Exit codes:
  0  reduced (or already minimal), or stopped by --max-time/--max-tests
  1  an error: unreadable, empty, binary (for C/JSON) or too large input,
     unwritable output, a final result that is no longer interesting
  2  bad usage
  3  the oracle cannot be trusted: the original input is not interesting (a
     diagnosis or a recipe to reproduce the check by hand is printed), its
     verdicts on the original disagree (flaky), or it accepts an empty file
  4  the oracle cannot be run (missing, a directory, not executable)
  129, 130, 143  interrupted by SIGHUP, SIGINT, SIGTERM; the output holds the
     best result so far";

/// Which algorithm reduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Algo {
    /// A tree policy to its fixpoint, then token-level Dr. DD (the default).
    Auto,
    /// ddmin over flat units (1-minimal, O(n²) worst case).
    Ddmin,
    /// Dr. DD: coarse scans once, single-unit scans until one changes nothing (1-minimal).
    Drdd,
    /// Probabilistic DD: learns which units matter (not 1-minimal, O(n)).
    Probdd,
    /// Counter-based DD (not 1-minimal, O(n)).
    Cdd,
    /// Weighted DD: ddmin with weight-balanced chunks (1-minimal).
    Wdd,
    /// Hierarchical DD over the parse tree, level by level.
    Hdd,
    /// Perses: syntax-guided deletion and node replacement.
    Perses,
    /// Tree-based probabilistic DD.
    Tpdd,
}

/// The list minimizer inside a tree policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Inner {
    Ddmin,
    Drdd,
    Probdd,
    Cdd,
    Wdd,
}

/// The order in which perses tries its edits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PersesScheduleArg {
    /// The tutorial's: every node's replacements again after each success.
    Tutorial,
    /// One pass over the nodes, largest first, resumed after each success.
    Sweep,
}

/// How the result's whitespace is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// The whitespace each kept token had in the input.
    Readable,
    /// As little whitespace as the oracle allows (tried once at the end).
    Compact,
}

/// Flat units when no grammar is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum UnitArg {
    Byte,
    Line,
    Token,
}

/// The input's language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LangArg {
    C,
    Json,
    Text,
    Bytes,
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

    /// The input file (`-` reads standard input).
    #[arg(value_name = "INPUT", required_unless_present = "list_algos")]
    pub input: Option<PathBuf>,

    /// The interestingness test: an executable that exits 0 while the candidate is interesting.
    #[arg(
        long,
        value_name = "SCRIPT",
        required_unless_present = "list_algos",
        help_heading = "Oracle"
    )]
    pub oracle: Option<PathBuf>,

    /// Seconds before a test is killed and counted as not interesting
    /// [default: 10× the original's run time, between 1 and 300].
    #[arg(long, value_name = "SECS", help_heading = "Oracle")]
    pub timeout: Option<f64>,

    /// Tests to run at once [default: the number of cores].
    #[arg(short = 'j', long, value_name = "N", help_heading = "Oracle")]
    pub jobs: Option<usize>,

    /// Do not remember verdicts of candidates already tested.
    #[arg(long, help_heading = "Oracle")]
    pub no_cache: bool,

    /// Where to make the per-test temporary directories [default: $TMPDIR if
    /// set, else /dev/shm when it is a tmpfs with 1 GiB free, else /tmp].
    #[arg(long, value_name = "DIR", help_heading = "Oracle")]
    pub work_dir: Option<PathBuf>,

    /// Run every test as `CMD <oracle> <candidate>` (through /bin/sh), e.g.
    /// 'srun --quiet -N1 -n1 --' to spread tests over a Slurm cluster; its
    /// exit status is the verdict. Use with --work-dir on a shared
    /// filesystem (docs/cluster.md).
    #[arg(long, value_name = "CMD", help_heading = "Oracle")]
    pub launcher: Option<String>,

    /// A file to copy beside every candidate (repeatable).
    #[arg(long = "copy", value_name = "FILE", help_heading = "Oracle")]
    pub copy: Vec<PathBuf>,

    /// Run the oracle on the original N times before reducing and refuse to
    /// start (exit 3) if the verdicts disagree; 1 = the baseline run only.
    /// Up to -j of the runs go at once.
    #[arg(long, value_name = "N", default_value_t = 2, help_heading = "Oracle")]
    pub check_flaky: u32,

    /// Test every interesting candidate once more before committing it; one
    /// that fails the re-test is not committed (for flaky oracles).
    #[arg(long, help_heading = "Oracle")]
    pub recheck: bool,

    /// Do not refuse an oracle that accepts an empty or whitespace-only file.
    #[arg(long, help_heading = "Oracle")]
    pub allow_empty: bool,

    /// The algorithm.
    #[arg(long, value_enum, default_value_t = Algo::Auto, help_heading = "Algorithm")]
    pub algo: Algo,

    /// The list minimizer inside hdd, perses (and auto's tree phase).
    #[arg(long, value_enum, help_heading = "Algorithm")]
    pub inner: Option<Inner>,

    /// Flat units for list algorithms and for inputs without a grammar [default: token for text, byte for binary].
    #[arg(long, value_enum, help_heading = "Algorithm")]
    pub unit: Option<UnitArg>,

    /// The input's language [default: from the file extension].
    #[arg(long, value_enum, help_heading = "Algorithm")]
    pub lang: Option<LangArg>,

    /// perses (and auto's tree phase): the order of the edits. `sweep` walks
    /// the nodes once, largest first, trying a few replacements per node
    /// and then minimizing its list; a success does not restart the walk,
    /// and a new sweep runs only while one removes something. `tutorial`
    /// retries the replacements of every node after each success: far more
    /// tests on real inputs.
    #[arg(
        long,
        value_enum,
        value_name = "SCHEDULE",
        default_value_t = PersesScheduleArg::Sweep,
        help_heading = "Algorithm"
    )]
    pub perses_schedule: PersesScheduleArg,

    /// The result's whitespace. `compact` ends the run by proposing the
    /// tokens with no line breaks (but after line comments and `#` lines)
    /// and single spaces only where tokens would fuse, then, if the oracle
    /// rejects that, with the line breaks kept; the oracle judges both, so
    /// whitespace the bug depends on stays. Token units only (C, JSON, text).
    #[arg(
        long,
        value_enum,
        value_name = "STYLE",
        default_value_t = FormatArg::Readable,
        help_heading = "Output"
    )]
    pub format: FormatArg,

    /// End the run by renaming identifiers to short names (`a`, `b`, …),
    /// one name at a time, each renaming tested by the oracle. Off by
    /// default: names help map a result back to the code. Needs a grammar
    /// that lists identifier kinds (C).
    #[arg(long, help_heading = "Output")]
    pub rename: bool,

    /// Repeat tree sweeps until one removes nothing (HDD*).
    #[arg(long, help_heading = "Algorithm")]
    pub fixpoint: bool,

    /// hdd: let every node but the root be deleted, not only optional ones.
    #[arg(long, help_heading = "Algorithm")]
    pub any_node: bool,

    /// Prior probability that a unit is essential (probdd, cdd).
    #[arg(
        long,
        value_name = "P",
        default_value_t = 0.1,
        help_heading = "Algorithm"
    )]
    pub p0: f64,

    /// drdd: at most R single-unit scans (1 = linear, no 1-minimality) [default: until a scan changes nothing].
    #[arg(long, value_name = "R", help_heading = "Algorithm")]
    pub restarts: Option<u32>,

    /// tpdd: prior that an optional node survives.
    #[arg(
        long,
        value_name = "S",
        default_value_t = 0.5,
        help_heading = "Algorithm"
    )]
    pub sigma: f64,

    /// tpdd: stop when the best expected gain is at most this many tokens.
    #[arg(
        long,
        value_name = "G",
        default_value_t = 1.0,
        help_heading = "Algorithm"
    )]
    pub min_gain: f64,

    /// Test tree candidates even when they parse worse than the original.
    #[arg(long, help_heading = "Algorithm")]
    pub no_syntax_filter: bool,

    /// Where the result goes (`-` = standard output) [default: INPUT's stem + `.reduced` + its extension, beside it].
    #[arg(short, long, value_name = "FILE", help_heading = "Output")]
    pub output: Option<PathBuf>,

    /// Overwrite the input with the result, after saving it as INPUT.orig.
    #[arg(long, conflicts_with = "output", help_heading = "Output")]
    pub in_place: bool,

    /// Write counters and timings as JSON to FILE.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub stats_json: Option<PathBuf>,

    /// Stop after this long (e.g. 90s, 10m, 2h); the result is the best so far.
    #[arg(long, value_name = "DURATION", help_heading = "Limits")]
    pub max_time: Option<String>,

    /// Stop after this many oracle tests.
    #[arg(long, value_name = "N", help_heading = "Limits")]
    pub max_tests: Option<u64>,

    /// Print nothing but errors.
    #[arg(short, long, conflicts_with = "verbose", help_heading = "Output")]
    pub quiet: bool,

    /// Show each test's output and more detail.
    #[arg(short, long, help_heading = "Output")]
    pub verbose: bool,

    /// List the algorithms and inner minimizers, then exit.
    #[arg(long)]
    pub list_algos: bool,
}
