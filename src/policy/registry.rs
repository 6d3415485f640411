//! Every policy in one table: its name, what it needs, how it is built and
//! what it promises.
//!
//! `--algo`'s values, `--list-algos`, `--help`'s list of algorithms, the
//! README's table of algorithms, the pipeline's phases, the every-policy
//! tests and the scale benchmark all read [`ENTRIES`], so that a new policy
//! is its own file plus one entry here. Entries that `--algo` offers carry
//! their documentation ([`AlgoDoc`]); the others are passes of the default
//! pipeline (`crate::pipeline`), which is itself the entry `AUTO`.

use std::sync::{Arc, OnceLock};

use crate::bitset::BitSet;
use crate::languages::Language;
use crate::policy::bodies::Bodies;
use crate::policy::bulk::Bulk;
use crate::policy::drdd::DrDd;
use crate::policy::fill::Fill;
use crate::policy::flat::FlatPolicy;
use crate::policy::format::{Format, Style};
use crate::policy::hdd::{Hdd, HddOptions};
use crate::policy::idreplace::IdReplace;
use crate::policy::interiors::Interiors;
use crate::policy::lengths::Lengths;
use crate::policy::literals::Literals;
use crate::policy::perses::{Perses, PersesOptions};
use crate::policy::records::Records;
use crate::policy::rename::Rename;
use crate::policy::simplify::Simplify;
use crate::policy::substitute::Substitute;
use crate::policy::tail::{Tail, TailOptions};
use crate::policy::tpdd::{TPdd, TPddOptions};
use crate::policy::unused::Unused;
use crate::policy::uses::WithUses;
use crate::policy::windows::TokenWindows;
use crate::policy::{Minimizer, MinimizerSettings, Policy};
use crate::tree::Tree;
use crate::tree::names::NameIndex;
use crate::units::Units;

/// What an entry is to the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The default pipeline: other entries, in rounds (`crate::pipeline`).
    Pipeline,
    /// A list minimizer over the units; asked for by name, it sees every
    /// candidate (no syntax filter), as in the papers.
    List,
    /// A tree policy's deletions: the costly part of a round, which the
    /// default pipeline leaves out of a round after one where it found
    /// nothing.
    Tree,
    /// A pass of the default pipeline, judged by the strict syntax filter
    /// in a round and by the oracle alone when it closes the run.
    Pass,
    /// A pass whose steps need not shrink the token count but make later
    /// deletions possible (a name's uses rewritten to another name): the
    /// default pipeline runs it only in a round whose phases before it
    /// changed nothing, as Vulcan runs it once its reducer reached a
    /// fixpoint. Run earlier, on a large text, each of its successes costs
    /// a test and saves no token (on a 1.2 MB C++ unit, 2,437 of them in
    /// 848 s).
    Enabler,
    /// A closing pass of the default pipeline under the lenient syntax
    /// filter (`Strictness::MissingTokensFree`).
    LenientPass,
    /// A closing pass of the default pipeline under the strict syntax
    /// filter, once the rounds are over, whose steps seldom enable a
    /// deletion (a literal's inside shortened): run in a round, each of
    /// its successes would cost another round of every phase (on an
    /// inline asm case, 40 more tests for two constraint strings cut);
    /// after the rounds, one more round follows if it changed anything.
    Finisher,
}

/// What `--algo` says of an entry it offers.
#[derive(Clone, Copy, Debug)]
pub struct AlgoDoc {
    /// `--list-algos`' paragraph (continuation lines indented by 11).
    pub listing: &'static str,
    /// The README table's columns: what it works on, its tests in the
    /// worst case, when to pick it.
    pub works_on: &'static str,
    pub tests: &'static str,
    pub pick_when: &'static str,
}

/// How an entry's policy is made.
pub type Builder = fn(&BuildContext) -> Box<dyn Policy>;

/// One policy (or the default pipeline) and everything the program says of it.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Its name on the command line, in tests and benchmarks.
    pub name: &'static str,
    pub role: Role,
    /// Whether it works on the parse tree (a grammar's, or text's tree of
    /// blocks; never bytes).
    pub needs_tree: bool,
    /// Whether `--inner` chooses the list minimizer it runs over nodes.
    pub takes_inner: bool,
    /// Builds it (`None`: the default pipeline, a plan of other entries).
    pub builder: Option<Builder>,
    /// What it does, in one line (`--help`'s list of algorithms).
    pub description: &'static str,
    /// What its result is guaranteed to be.
    pub guarantee: &'static str,
    /// `Some` when `--algo` offers it.
    pub algo: Option<AlgoDoc>,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Entry {
    /// A fresh policy of this entry.
    ///
    /// # Panics
    /// For `AUTO`, which is a plan of other entries, and for an entry that
    /// needs a tree when `cx` has none.
    pub fn policy(&self, cx: &BuildContext) -> Box<dyn Policy> {
        let build = self
            .builder
            .unwrap_or_else(|| panic!("{} is a pipeline, not a policy", self.name));
        build(cx)
    }
}

/// The policies' tuning, as the command line sets it; the defaults are the
/// binary's.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tuning {
    pub minimizer: MinimizerSettings,
    pub hdd: HddOptions,
    /// Perses' options (`lists_minimized_before` is set by the context).
    pub perses: PersesOptions,
    pub tpdd: TPddOptions,
    /// The layouts the format pass proposes.
    pub format: Style,
    /// Which texts the tail pass searches.
    pub tail: TailOptions,
}

/// What a policy is built from: the input's units (and tree), the tuning,
/// and whether the text is an earlier round's result.
pub struct BuildContext {
    pub tree: Option<Arc<Tree>>,
    pub units: Arc<Units>,
    /// The list minimizer of entries that take `--inner`.
    pub inner: Minimizer,
    pub tuning: Tuning,
    /// The text is the result of an earlier round of the default pipeline
    /// (see `Plan::for_a_later_round`).
    pub(crate) later_round: bool,
    /// The grammar the text is parsed with, if any: the format pass lays
    /// the result out from a fresh parse of it (`tree::layout`).
    pub(crate) language: Option<Language>,
    /// The text an outside formatter made of the result, which the format
    /// pass proposes first (`--format native`).
    pub(crate) formatted: Option<Arc<[u8]>>,
    /// Each unit's length in bytes, the flat minimizers' weights; built
    /// when the first flat policy is (a tree run's first phases do not
    /// need it, and it costs 8 bytes a unit).
    weights: OnceLock<Arc<Vec<u64>>>,
    /// The tree's names, built when the first pass by name is.
    names: OnceLock<Arc<NameIndex>>,
}

impl BuildContext {
    /// A context with the binary's tuning and ddmin inside tree policies.
    pub fn new(tree: Option<Arc<Tree>>, units: Arc<Units>) -> Self {
        BuildContext {
            tree,
            units,
            inner: Minimizer::DdMin,
            tuning: Tuning::default(),
            later_round: false,
            language: None,
            formatted: None,
            weights: OnceLock::new(),
            names: OnceLock::new(),
        }
    }

    /// The same context, with `formatted` for the format pass to propose.
    pub(crate) fn with_formatted(&self, formatted: Arc<[u8]>) -> BuildContext {
        BuildContext {
            tree: self.tree.clone(),
            units: Arc::clone(&self.units),
            inner: self.inner,
            tuning: self.tuning,
            later_round: self.later_round,
            language: self.language,
            formatted: Some(formatted),
            weights: self.weights.clone(),
            names: self.names.clone(),
        }
    }

    fn tree(&self) -> Arc<Tree> {
        Arc::clone(self.tree.as_ref().expect("a tree policy needs a tree"))
    }

    fn units(&self) -> Arc<Units> {
        Arc::clone(&self.units)
    }

    fn names(&self) -> Arc<NameIndex> {
        Arc::clone(
            self.names
                .get_or_init(|| Arc::new(NameIndex::new(&self.tree(), &self.units))),
        )
    }

    fn weights(&self) -> Arc<Vec<u64>> {
        Arc::clone(
            self.weights
                .get_or_init(|| Arc::new(self.units.byte_lengths())),
        )
    }

    /// `m` over the units; a later round's tokens were minimized in the
    /// round before, so a minimizer with a cheaper recheck uses it.
    fn flat(&self, m: Minimizer) -> Box<dyn Policy> {
        let s = &self.tuning.minimizer;
        let rechecking = self.later_round.then(|| m.build_rechecking(s)).flatten();
        Box::new(FlatPolicy::new(
            rechecking.unwrap_or_else(|| m.build(s)),
            self.weights(),
        ))
    }
}

/// The default pipeline.
pub(crate) static AUTO: Entry = Entry {
    name: "auto",
    role: Role::Pipeline,
    needs_tree: false,
    takes_inner: false,
    builder: None,
    description: "Passes by name in bulk, a tree policy to its fixpoint, rewrites, then token-level Dr. DD (the default)",
    guarantee: "1-minimal in tokens",
    algo: Some(AlgoDoc {
        listing: "\
default: passes by name first, each many edits at once split by halves
           (function bodies made declarations, declarations nothing mentions
           deleted with what only they used), then perses (sweep schedule, inner
           drdd) to its fixpoint, then simplify (per-language rewrites, smaller
           subtrees from elsewhere), a declaration with its uses, a variable used
           once substituted, a name made a literal, then idreplace (a name's uses
           become another name, so its declaration can go; only in a round
           where nothing before it changed), then token-level drdd, then runs
           of 2-10 tokens that cross node boundaries, repeated on a fresh parse
           while a round still changes something (perses only while it found
           something in the round before, and once more at the end); for C,
           a last scan of single-token deletions that may leave missing tokens or
           drop implied types (implicit int and the like); then the whitespace
           tidied; without a grammar, drdd over lines then over tokens (binary
           input: drdd over bytes, then runs of bytes filled with one value).",
        works_on: "tree, rewrites, then tokens",
        tests: "—",
        pick_when: "you want the smallest result",
    }),
};

pub(crate) static DDMIN: Entry = Entry {
    name: "ddmin",
    role: Role::List,
    needs_tree: false,
    takes_inner: false,
    builder: Some(|cx| cx.flat(Minimizer::DdMin)),
    description: "ddmin over flat units (1-minimal, O(n²) worst case)",
    guarantee: "1-minimal",
    algo: Some(AlgoDoc {
        listing: "ddmin over flat units. 1-minimal. O(n²) tests worst case, O(log n) at best.",
        works_on: "flat units",
        tests: "O(n²)",
        pick_when: "reproducing classic delta debugging",
    }),
};

pub(crate) static DRDD: Entry = Entry {
    name: "drdd",
    role: Role::List,
    needs_tree: false,
    takes_inner: false,
    builder: Some(|cx| cx.flat(Minimizer::DrDd)),
    description: "Dr. DD: coarse scans once, single-unit scans until one changes nothing (1-minimal)",
    guarantee: "1-minimal",
    algo: Some(AlgoDoc {
        listing: "\
Dr. DD: coarse levels scanned once, single-unit scans until one changes nothing.
           1-minimal (with the default --restarts). Pick it for flat inputs.",
        works_on: "flat units",
        tests: "O(n²), O(n·R) with `--restarts R`",
        pick_when: "flat inputs (logs, fuzzer crashes)",
    }),
};

pub(crate) static PROBDD: Entry = Entry {
    name: "probdd",
    role: Role::List,
    needs_tree: false,
    takes_inner: false,
    builder: Some(|cx| cx.flat(Minimizer::ProbDd)),
    description: "Probabilistic DD: learns which units matter (not 1-minimal, O(n))",
    guarantee: "none (1-minimal if the test is monotone)",
    algo: Some(AlgoDoc {
        listing: "probabilistic DD: learns which units matter. Not 1-minimal. O(n) tests. --p0.",
        works_on: "flat units",
        tests: "O(n)",
        pick_when: "few tests matter more than size",
    }),
};

pub(crate) static CDD: Entry = Entry {
    name: "cdd",
    role: Role::List,
    needs_tree: false,
    takes_inner: false,
    builder: Some(|cx| cx.flat(Minimizer::Cdd)),
    description: "Counter-based DD (not 1-minimal, O(n))",
    guarantee: "none",
    algo: Some(AlgoDoc {
        listing: "counter-based DD, ProbDD's deterministic simplification. Not 1-minimal. O(n). --p0.",
        works_on: "flat units",
        tests: "O(n)",
        pick_when: "as probdd, deterministic",
    }),
};

pub(crate) static WDD: Entry = Entry {
    name: "wdd",
    role: Role::List,
    needs_tree: false,
    takes_inner: false,
    builder: Some(|cx| cx.flat(Minimizer::Wdd)),
    description: "Weighted DD: ddmin with weight-balanced chunks (1-minimal)",
    guarantee: "1-minimal",
    algo: Some(AlgoDoc {
        listing: "ddmin with weight-balanced chunks (weights = unit sizes). 1-minimal.",
        works_on: "flat units",
        tests: "O(n²)",
        pick_when: "units of very uneven size",
    }),
};

pub static HDD: Entry = Entry {
    name: "hdd",
    role: Role::Tree,
    needs_tree: true,
    takes_inner: true,
    builder: Some(|cx| {
        let t = &cx.tuning;
        Box::new(Hdd::new(cx.tree(), cx.inner, t.minimizer, t.hdd))
    }),
    description: "Hierarchical DD over the parse tree, level by level",
    guarantee: "1-tree-minimal per level (`--fixpoint`: overall)",
    algo: Some(AlgoDoc {
        listing: "\
hierarchical DD over the parse tree, level by level (--fixpoint: HDD*,
           1-tree-minimal; --any-node: every node deletable). Needs a grammar,
           or text (its tree of indentation blocks and brackets).",
        works_on: "parse tree",
        tests: "O(n²) per sweep",
        pick_when: "structured input, simple and predictable",
    }),
};

pub(crate) static PERSES: Entry = Entry {
    name: "perses",
    role: Role::Tree,
    needs_tree: true,
    takes_inner: true,
    builder: Some(|cx| {
        let t = &cx.tuning;
        let options = PersesOptions {
            lists_minimized_before: cx.later_round,
            ..t.perses
        };
        Box::new(Perses::new(cx.tree(), cx.inner, t.minimizer, options))
    }),
    description: "Perses: syntax-guided deletion and node replacement",
    guarantee: "1-tree-minimal at its fixpoint",
    algo: Some(AlgoDoc {
        listing: "syntax-guided deletion and node replacement; fewest tests on real programs.",
        works_on: "parse tree",
        tests: "O(n²)",
        pick_when: "programs: deletes wrappers, not only lists",
    }),
};

pub(crate) static TPDD: Entry = Entry {
    name: "tpdd",
    role: Role::Tree,
    needs_tree: true,
    takes_inner: false,
    builder: Some(|cx| Box::new(TPdd::new(cx.tree(), cx.tuning.tpdd))),
    description: "Tree-based probabilistic DD",
    guarantee: "none",
    algo: Some(AlgoDoc {
        listing: "\
tree-based probabilistic DD: one belief per node for the whole run
           (--sigma, --min-gain). Not 1-minimal.",
        works_on: "parse tree",
        tests: "O(n) per pass",
        pick_when: "many scattered essential parts",
    }),
};

pub(crate) static LINES: Entry = Entry {
    name: "lines",
    role: Role::Pass,
    needs_tree: false,
    takes_inner: false,
    builder: Some(|cx| {
        let units = &cx.units;
        let line_starts = (0..units.len())
            .filter(|&u| u == 0 || units.text(u - 1).contains(&b'\n'))
            .chain([units.len()])
            .collect();
        let drdd = Minimizer::DrDd.build(&cx.tuning.minimizer);
        Box::new(FlatPolicy::new(drdd, cx.weights()).by_lines(Arc::new(line_starts)))
    }),
    description: "Dr. DD over the input's lines, each a run of token units (text without a grammar)",
    guarantee: "1-minimal in lines",
    algo: None,
};

pub(crate) static SIMPLIFY: Entry = Entry {
    name: "simplify",
    role: Role::Pass,
    needs_tree: true,
    takes_inner: false,
    builder: Some(|cx| Box::new(Simplify::new(cx.tree(), cx.units()))),
    description: "Per-language replacements: an expression by `0`, a block by `{}`, a subtree by a smaller one",
    guarantee: "none: no rewrite left that the oracle accepts, one at a time",
    algo: None,
};

/// The end of a very large text cut after what the test needs.
pub(crate) static TAIL: Entry = Entry {
    name: "tail",
    role: Role::Pass,
    needs_tree: true,
    takes_inner: false,
    builder: Some(|cx| Box::new(Tail::new(cx.tree(), cx.tuning.tail))),
    description: "The end of a text of a million units or more, cut by binary search down the last kept element",
    guarantee: "none: at each level searched, no shorter prefix of its elements passes",
    algo: None,
};

/// Function bodies made declarations (or empty), many at once
/// (`names.bodies` in grammars/*.json).
pub(crate) static BODIES: Entry = Entry {
    name: "bodies",
    role: Role::Pass,
    needs_tree: true,
    takes_inner: false,
    builder: Some(|cx| Box::new(Bulk::new(Bodies::new(cx.tree())))),
    description: "Function bodies made declarations or emptied, all at once, then in halves",
    guarantee: "none: no chunk of the halving left that the oracle accepts",
    algo: None,
};

/// Declarations nothing mentions, with what only they mentioned, many at
/// once (`names` in grammars/*.json).
pub(crate) static UNUSED: Entry = Entry {
    name: "unused",
    role: Role::Pass,
    needs_tree: true,
    takes_inner: false,
    builder: Some(|cx| Box::new(Bulk::new(Unused::new(cx.tree(), cx.names())))),
    description: "Declarations whose name nothing mentions, all at once, then in halves",
    guarantee: "none: no unused name left alone that the oracle lets go",
    algo: None,
};

/// Declarations with the statements that mention them, many names at once.
pub(crate) static USES: Entry = Entry {
    name: "uses",
    role: Role::Pass,
    needs_tree: true,
    takes_inner: false,
    builder: Some(|cx| Box::new(Bulk::new(WithUses::new(cx.tree(), cx.names())))),
    description: "A declaration with every statement that mentions it, all names at once, then in halves",
    guarantee: "none: no name left alone that goes with its uses",
    algo: None,
};

/// Variables used once replaced by their value, many at once.
pub(crate) static SUBSTITUTE: Entry = Entry {
    name: "substitute",
    role: Role::Pass,
    needs_tree: true,
    takes_inner: false,
    builder: Some(|cx| {
        Box::new(Bulk::new(Substitute::new(
            cx.tree(),
            cx.units(),
            cx.names(),
        )))
    }),
    description: "A variable used once replaced by its value at the use, all at once, then in halves",
    guarantee: "none: no variable left alone that the oracle lets inline",
    algo: None,
};

/// A name's uses replaced by a literal, so its declaration can go, many
/// names at once.
pub(crate) static LITERALS: Entry = Entry {
    name: "literals",
    role: Role::Pass,
    needs_tree: true,
    takes_inner: false,
    builder: Some(|cx| Box::new(Bulk::new(Literals::new(cx.tree(), cx.names())))),
    description: "A name's uses replaced by `0`, its declaration deleted, all names at once, then in halves",
    guarantee: "none: no name left alone that the oracle lets become a literal",
    algo: None,
};

/// Declarations moved to the top level without their implied tokens
/// (`hoists` in grammars/*.json): the default pipeline's closing move, so
/// that a move that gains nothing never costs another round. It follows the
/// lenient scan, which would otherwise find the moved text in the rewrite
/// of a token it could delete alone (an implied `int` before a function's
/// name).
pub(crate) static HOISTS: Entry = Entry {
    name: "hoists",
    role: Role::LenientPass,
    needs_tree: true,
    takes_inner: false,
    builder: Some(|cx| Box::new(Simplify::hoists(cx.tree(), cx.units()))),
    description: "Declarations moved to the top level without their implied tokens",
    guarantee: "none: no move left that the oracle accepts, one at a time",
    algo: None,
};

pub(crate) static IDREPLACE: Entry = Entry {
    name: "idreplace",
    role: Role::Enabler,
    needs_tree: true,
    takes_inner: false,
    builder: Some(|cx| Box::new(IdReplace::new(cx.tree(), cx.units()))),
    description: "A name's uses rewritten to another name, so that its declaration can go",
    guarantee: "none",
    algo: None,
};

/// Literal insides shortened (`literal_insides` in grammars/*.json), once
/// the rounds are over: a character cut inside a string enables no
/// deletion.
pub(crate) static INTERIORS: Entry = Entry {
    name: "interiors",
    role: Role::Finisher,
    needs_tree: true,
    takes_inner: false,
    builder: Some(|cx| Box::new(Interiors::new(cx.tree(), cx.units()))),
    description: "The characters inside strings, regular expressions and templates, whole first, then chunks",
    guarantee: "none: chunks down to single characters, up to 256 a level",
    algo: None,
};

pub(crate) static WINDOWS: Entry = Entry {
    name: "windows",
    role: Role::Pass,
    needs_tree: true,
    takes_inner: false,
    builder: Some(|cx| Box::new(TokenWindows::new(cx.tree()))),
    description: "Runs of a few consecutive tokens that no node holds (`} g ( ) {`)",
    guarantee: "none",
    algo: None,
};

/// One scan: the filtered phases before it are 1-minimal already, and a
/// second scan found nothing on any shared bench case while costing as many
/// tests as the first (docs/benchmarks.md). Brackets stay: no consumer takes
/// one without its partner.
pub(crate) static LENIENT_SCAN: Entry = Entry {
    name: "lenient-scan",
    role: Role::LenientPass,
    needs_tree: true,
    takes_inner: false,
    builder: Some(|cx| {
        let tree = cx.tree();
        let brackets = (0..tree.unit_count())
            .filter(|&u| tree.grammar.is_paired_token(tree.kind(tree.leaf_of(u))));
        let spared = Arc::new(BitSet::from_units(tree.unit_count(), brackets));
        let scan = Box::new(DrDd::single_scans(Some(1)));
        Box::new(FlatPolicy::new(scan, cx.weights()).sparing(spared))
    }),
    description: "One scan of single-token deletions that may leave missing tokens (C's last pass)",
    guarantee: "none: one scan",
    algo: None,
};

/// Binary input's first pass: length-prefixed records deleted whole.
pub(crate) static RECORDS: Entry = Entry {
    name: "records",
    role: Role::Pass,
    needs_tree: false,
    takes_inner: false,
    builder: Some(|cx| Box::new(Records::new(&cx.units, cx.weights()))),
    description: "Dr. DD over length-prefixed records found in binary input, each deleted whole",
    guarantee: "1-minimal in records",
    algo: None,
};

/// Binary input: Dr. DD's blocks (its coarse levels) only; its single-byte
/// scans come after the fill pass, where runs of one byte value make most
/// of them cache hits.
pub(crate) static BYTE_BLOCKS: Entry = Entry {
    name: "byte-blocks",
    role: Role::Pass,
    needs_tree: false,
    takes_inner: false,
    builder: Some(|cx| Box::new(FlatPolicy::new(Box::new(DrDd::new(Some(0))), cx.weights()))),
    description: "Dr. DD's coarse levels over bytes, without its single-byte scans (binary input)",
    guarantee: "none",
    algo: None,
};

/// Binary input's last pass: single-byte deletions until a scan deletes
/// nothing.
pub(crate) static BYTE_SCANS: Entry = Entry {
    name: "byte-scans",
    role: Role::Pass,
    needs_tree: false,
    takes_inner: false,
    builder: Some(|cx| {
        Box::new(FlatPolicy::new(
            Box::new(DrDd::single_scans(None)),
            cx.weights(),
        ))
    }),
    description: "Single-byte deletions until a scan deletes nothing (binary input's last pass)",
    guarantee: "1-minimal",
    algo: None,
};

/// Binary input, between Dr. DD's blocks and its scans: what afl-tmin does
/// besides deletion.
pub(crate) static FILL: Entry = Entry {
    name: "fill",
    role: Role::Pass,
    needs_tree: false,
    takes_inner: false,
    builder: Some(|cx| Box::new(Fill::new(cx.units()))),
    description: "Runs of bytes set to zeros, or to one repeated byte, by halves (binary input)",
    guarantee: "none: the size does not change",
    algo: None,
};

pub(crate) static LENGTHS: Entry = Entry {
    name: "lengths",
    role: Role::Pass,
    needs_tree: false,
    takes_inner: false,
    builder: Some(|cx| Box::new(Lengths::new(cx.units()))),
    description: "A length field (1, 2 or 4 bytes, either byte order) shrunk with the payload it counts, by halves (binary input)",
    guarantee: "none: no length field left that a smaller length with its payload shortened passes",
    algo: None,
};

pub(crate) static RENAME: Entry = Entry {
    name: "rename",
    role: Role::Pass,
    needs_tree: true,
    takes_inner: false,
    builder: Some(|cx| Box::new(Rename::new(cx.tree(), cx.units()))),
    description: "Identifiers renamed to short names, one name at a time (`--rename`)",
    guarantee: "none: no renaming left that the oracle accepts",
    algo: None,
};

pub(crate) static FORMAT: Entry = Entry {
    name: "format",
    role: Role::Pass,
    needs_tree: false,
    takes_inner: false,
    builder: Some(|cx| {
        let style = cx.tuning.format;
        let language = cx.language.filter(|_| style.lays_out_by_tree());
        Box::new(
            Format::new(style.layouts(), cx.units())
                .laid_out_as(language)
                .formatted(cx.formatted.clone()),
        )
    }),
    description: "Other whitespace layouts, the first the oracle accepts kept (`--format`)",
    guarantee: "none: the first layout the oracle accepts",
    algo: None,
};

/// Every entry: first those `--algo` offers, in its order, then the
/// default pipeline's passes.
pub static ENTRIES: &[&Entry] = &[
    &AUTO,
    &DDMIN,
    &DRDD,
    &PROBDD,
    &CDD,
    &WDD,
    &HDD,
    &PERSES,
    &TPDD,
    &LINES,
    &SIMPLIFY,
    &TAIL,
    &BODIES,
    &UNUSED,
    &USES,
    &SUBSTITUTE,
    &LITERALS,
    &HOISTS,
    &IDREPLACE,
    &INTERIORS,
    &WINDOWS,
    &LENIENT_SCAN,
    &RECORDS,
    &BYTE_BLOCKS,
    &FILL,
    &BYTE_SCANS,
    &LENGTHS,
    &RENAME,
    &FORMAT,
];

/// The entries `--algo` offers, in its order.
pub fn algorithms() -> impl Iterator<Item = &'static Entry> {
    ENTRIES.iter().copied().filter(|e| e.algo.is_some())
}

/// The entry `--algo name` chooses.
pub fn algorithm(name: &str) -> Option<&'static Entry> {
    algorithms().find(|e| e.name == name)
}

/// The text of `--list-algos`.
pub fn list_algos() -> String {
    let mut text = String::from("Algorithms (--algo):\n");
    for entry in algorithms() {
        let doc = entry.algo.expect("offered");
        text.push_str(&format!("  {:<8} {}\n", entry.name, doc.listing));
    }
    let with_inner: Vec<&str> = algorithms()
        .filter(|e| e.takes_inner)
        .map(|e| e.name)
        .collect();
    let inner: Vec<String> = Minimizer::ALL
        .iter()
        .map(|&m| match m {
            Minimizer::DdMin => format!("{} (default)", m.name()),
            _ => m.name().to_string(),
        })
        .collect();
    text.push_str(&format!(
        "\nInner minimizers (--inner, for {}): {}.\n",
        with_inner.join(" and "),
        inner.join(", ")
    ));
    text
}

/// The README's table of algorithms, one row per entry `--algo` offers.
pub fn readme_rows() -> Vec<String> {
    algorithms()
        .map(|e| {
            let doc = e.algo.expect("offered");
            let default = if *e == AUTO { " (default)" } else { "" };
            format!(
                "| `{}`{default} | {} | {} | {} | {} |",
                e.name, doc.works_on, e.guarantee, doc.tests, doc.pick_when
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_has_its_own_name_and_all_but_auto_build_a_policy() {
        let mut names: Vec<&str> = ENTRIES.iter().map(|e| e.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ENTRIES.len(), "two entries share a name");
        for e in ENTRIES {
            assert_eq!(e.builder.is_none(), e.role == Role::Pipeline, "{}", e.name);
            assert_eq!(algorithm(e.name).is_some(), e.algo.is_some(), "{}", e.name);
        }
    }

    /// A file of src/policy/ is a policy, and must be in the registry under
    /// its file name, unless it is the module itself (`mod.rs`), this
    /// registry, tests (`*_tests.rs`), or `flat.rs`, the adapter that runs
    /// a list minimizer over units (its entries are the minimizers' names
    /// and the passes built on it: `lines`, `lenient-scan`). The list
    /// minimizers' files (`ddmin.rs`, ...) are named as their entries.
    #[test]
    fn every_policy_file_has_a_registry_entry() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/policy");
        let mut missing = Vec::new();
        for file in std::fs::read_dir(dir).expect("src/policy") {
            let path = file.expect("a directory entry").path();
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            let exempt =
                matches!(stem, "mod" | "registry" | "flat" | "bulk") || stem.ends_with("_tests");
            if path.extension().is_some_and(|e| e == "rs")
                && !exempt
                && !ENTRIES.iter().any(|e| e.name == stem)
            {
                missing.push(stem.to_string());
            }
        }
        assert!(missing.is_empty(), "not in the registry: {missing:?}");
    }
}
