//! The command line as typed: clap's derive structs, nothing validated yet.
//!
//! `crate::options` turns these raw flags into a checked run configuration.

use std::path::PathBuf;

use clap::{Parser, ValueEnum};

pub const AFTER_HELP: &str = "\
Examples:
  Shrink a C file that crashes a compiler (the script exits 0 while it still crashes):
    reduce --oracle ./check.sh crash.c                # writes crash.reduced.c
  A fuzzer's crash input, byte by byte:
    reduce --unit byte --oracle ./crashes.sh fuzz-crash.bin -o small.bin
  A JSON document that breaks a parser, with HDD and a probabilistic inner minimizer:
    reduce --algo hdd --inner probdd --oracle ./jq-crash.sh big.json
  In a pipeline:
    reduce --oracle ./check.sh - -o - < input.txt > small.txt

The oracle gets the candidate's absolute path as $1 and runs in a fresh temporary
directory that holds the candidate under the input's file name, so scripts that
read the file by name from their working directory also work.

Exit codes:
  0  reduced (or already minimal), or stopped by --max-time/--max-tests
  1  an error (input or output unusable, the final result no longer interesting)
  2  bad usage
  3  the original input is not interesting
  4  the oracle cannot be run
  129, 130, 143  interrupted by SIGHUP, SIGINT, SIGTERM (the output holds the best result so far)";

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

/// Reduce a file while an interestingness test keeps passing.
#[derive(Debug, Parser)]
#[command(name = "reduce", version, about, after_help = AFTER_HELP)]
pub struct Cli {
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

    /// Where to make the per-test temporary directories [default: $TMPDIR].
    #[arg(long, value_name = "DIR", help_heading = "Oracle")]
    pub work_dir: Option<PathBuf>,

    /// A file to copy beside every candidate (repeatable).
    #[arg(long = "copy", value_name = "FILE", help_heading = "Oracle")]
    pub copy: Vec<PathBuf>,

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
