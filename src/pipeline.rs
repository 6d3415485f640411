//! Which policies run, on which units, in which order: from `--algo` to phases.
//!
//! A [`Plan`] holds the input cut into units (a parse tree's tokens, or flat
//! bytes, lines or tokens) and the list of phases the chosen algorithm runs.
//! Single algorithms are one phase. `auto` is a tree policy to its fixpoint,
//! then per-language simplifications, identifier replacement and token-level
//! Dr. DD, repeated while a round still changes something, each round on a
//! fresh parse of the text (without a grammar, Dr. DD over lines then
//! tokens, or over bytes).

use std::sync::{Arc, OnceLock};

use anyhow::{Result, bail};

use crate::bitset::BitSet;
use crate::cli::{Algo, Cli, FormatArg, Inner, PersesScheduleArg, UnitArg};
use crate::configuration::{Configuration, Layout};
use crate::interfaces::{Observer, Strictness, SyntaxFilter};
use crate::lang::Language;
use crate::policy::drdd::DrDd;
use crate::policy::flat::FlatPolicy;
use crate::policy::format::{COMPACT_LAYOUTS, Format, READABLE_LAYOUTS};
use crate::policy::hdd::{Hdd, HddOptions};
use crate::policy::idreplace::IdReplace;
use crate::policy::perses::{Perses, PersesOptions, PersesSchedule};
use crate::policy::rename::Rename;
use crate::policy::simplify::Simplify;
use crate::policy::tpdd::{TPdd, TPddOptions};
use crate::policy::windows::TokenWindows;
use crate::policy::{Minimizer, MinimizerSettings, Policy};
use crate::reducer::{Reducer, StopReason};
use crate::tree::Tree;
use crate::units::{UnitKind, Units};

/// The input's language as far as reduction is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Tree(Language),
    Text,
    Bytes,
}

impl Lang {
    pub fn name(self) -> &'static str {
        match self {
            Lang::Tree(Language::C) => "c",
            Lang::Tree(Language::Json) => "json",
            Lang::Text => "text",
            Lang::Bytes => "bytes",
        }
    }
}

/// One step of a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// A list minimizer over the units.
    Flat(Minimizer),
    /// A list minimizer over the input's lines (each a run of token units).
    FlatLines(Minimizer),
    Hdd,
    Perses,
    Tpdd,
    /// One scan of single-token deletions under the lenient syntax filter
    /// ([`Strictness::MissingTokensFree`]: auto's last pass for languages
    /// whose consumers accept more than the grammar).
    LenientScan,
    /// Per-language replacements (an expression by `0`, a block by `{}`, ...).
    Simplify,
    /// Declarations moved to the top level without their implied tokens
    /// (`hoists` in grammars/*.json), under the lenient syntax filter:
    /// auto's closing move, so that a move that gains nothing never
    /// costs another round. It follows the lenient scan, which would
    /// otherwise find the moved text in the rewrite of a token it could
    /// delete alone (an implied `int` before a function's name).
    Hoist,
    /// A name's uses rewritten to another name (Vulcan's identifier replacement).
    IdReplace,
    /// Runs of a few consecutive tokens that no node holds (`} g ( ) {`).
    Windows,
    /// Other whitespace layouts, the first the oracle accepts kept
    /// (`--format compact`; the default pipeline's tidy layout).
    Format(&'static [Layout]),
    /// Identifiers renamed to short names (`--rename`).
    Rename,
}

impl Phase {
    /// Whether this is a tree policy's deletion phase, the costly part of
    /// a round that the default pipeline leaves out of a round after one
    /// where it found nothing.
    fn is_tree_phase(&self) -> bool {
        matches!(self, Phase::Hdd | Phase::Perses | Phase::Tpdd)
    }
}

/// The tree-policy settings taken from the command line.
#[derive(Clone, Copy, Debug)]
pub struct TreeSettings {
    pub inner: Minimizer,
    pub minimizer: MinimizerSettings,
    pub fixpoint: bool,
    pub any_node: bool,
    pub sigma: f64,
    pub min_gain: f64,
    pub perses_schedule: PersesSchedule,
}

/// What will run, and on what.
pub struct Plan {
    algo: Algo,
    units: Arc<Units>,
    unit_name: &'static str,
    tree: Option<Arc<Tree>>,
    syntax: Option<Box<dyn SyntaxFilter>>,
    phases: Vec<Phase>,
    /// Repeat the phases while a round removes something.
    repeat: bool,
    /// Phases run once at the end, in order: auto's last token pass under
    /// the lenient filter (for languages whose consumers accept more than
    /// the grammar), then without a filter `--rename` and a whitespace layout
    /// (`--format compact`, or the default pipeline's tidy one).
    closing: Vec<Phase>,
    settings: TreeSettings,
    /// Each unit's length in bytes, the flat minimizers' weights; built
    /// when the first flat phase starts (a tree run's first phases do not
    /// need it, and it costs 8 bytes a unit).
    unit_weights: OnceLock<Arc<Vec<u64>>>,
    /// Whether this plan runs a round after the first on a fresh parse
    /// (see [`Self::for_a_later_round`]).
    later_round: bool,
}

fn minimizer_of(inner: Inner) -> Minimizer {
    match inner {
        Inner::Ddmin => Minimizer::DdMin,
        Inner::Drdd => Minimizer::DrDd,
        Inner::Probdd => Minimizer::ProbDd,
        Inner::Cdd => Minimizer::Cdd,
        Inner::Wdd => Minimizer::Wdd,
    }
}

impl Plan {
    /// Cuts `source` into units for `lang` and lays out the phases of `cli.algo`.
    pub fn new(cli: &Cli, lang: Lang, source: Vec<u8>) -> Result<Self> {
        let minimizer = MinimizerSettings {
            p0: cli.p0,
            restarts: cli.restarts,
        };
        let settings = TreeSettings {
            // The default pipeline's tree phase uses Dr. DD: on the shared
            // bench's C cases it needed fewer tests and less time than ddmin
            // and ProbDD (its coarse levels drop a large host quickly; ProbDD
            // deletes ~1/p0 elements at a time). A tree policy asked for by
            // name keeps the tutorial's ddmin.
            inner: cli.inner.map_or(
                if cli.algo == Algo::Auto {
                    Minimizer::DrDd
                } else {
                    Minimizer::DdMin
                },
                minimizer_of,
            ),
            minimizer,
            fixpoint: cli.fixpoint,
            any_node: cli.any_node,
            sigma: cli.sigma,
            min_gain: cli.min_gain,
            perses_schedule: match cli.perses_schedule {
                PersesScheduleArg::Tutorial => PersesSchedule::Tutorial,
                PersesScheduleArg::Sweep => PersesSchedule::Sweep,
            },
        };
        let flat = |m: Minimizer| Phase::Flat(m);
        let (mut phases, repeat) = match cli.algo {
            Algo::Auto => match lang {
                Lang::Tree(_) => (
                    vec![
                        Phase::Perses,
                        Phase::Simplify,
                        Phase::IdReplace,
                        flat(Minimizer::DrDd),
                        Phase::Windows,
                    ],
                    true,
                ),
                Lang::Text | Lang::Bytes => (vec![flat(Minimizer::DrDd)], false),
            },
            Algo::Ddmin => (vec![flat(Minimizer::DdMin)], false),
            Algo::Drdd => (vec![flat(Minimizer::DrDd)], false),
            Algo::Probdd => (vec![flat(Minimizer::ProbDd)], false),
            Algo::Cdd => (vec![flat(Minimizer::Cdd)], false),
            Algo::Wdd => (vec![flat(Minimizer::Wdd)], false),
            Algo::Hdd => (vec![Phase::Hdd], false),
            Algo::Perses => (vec![Phase::Perses], false),
            Algo::Tpdd => (vec![Phase::Tpdd], false),
        };
        let uses_tree = phases
            .iter()
            .any(|p| !matches!(p, Phase::Flat(_) | Phase::FlatLines(_)));
        // A grammar's tokens are the units unless flat units were asked for.
        let flat_kind = match (cli.unit, lang) {
            (Some(UnitArg::Byte), _) => Some(UnitKind::Byte),
            (Some(UnitArg::Line), _) => Some(UnitKind::Line),
            (Some(UnitArg::Token), Lang::Tree(_)) => None,
            (Some(UnitArg::Token), _) => Some(UnitKind::Token),
            (None, Lang::Tree(_)) => None,
            (None, Lang::Text) => Some(UnitKind::Token),
            (None, Lang::Bytes) => Some(UnitKind::Byte),
        };
        let (units, unit_name, tree, syntax) = match (lang, flat_kind) {
            (Lang::Tree(l), kind) if uses_tree || kind.is_none() => {
                let (tree, units) = crate::tree::parse::parse(l, source)?;
                let syntax: Box<dyn SyntaxFilter> =
                    Box::new(crate::lang::SyntaxCheck::new(l, tree.parse_errors));
                (units, "token", Some(Arc::new(tree)), Some(syntax))
            }
            (_, Some(kind)) => (Units::flat(source, kind), kind.name(), None, None),
            (_, None) => unreachable!("flat units are chosen for inputs without a grammar"),
        };
        // Text without a grammar: lines first, then the tokens left.
        if cli.algo == Algo::Auto && lang == Lang::Text && flat_kind == Some(UnitKind::Token) {
            phases.insert(0, Phase::FlatLines(Minimizer::DrDd));
        }
        let finish_lenient = match (cli.algo, lang) {
            (Algo::Auto, Lang::Tree(l)) => l.grammar().consumers_accept_more,
            _ => false,
        };
        let compact = cli.format == FormatArg::Compact;
        // The default pipeline tidies the whitespace deletions leave behind.
        let layouts = match cli.format {
            FormatArg::Compact => Some(COMPACT_LAYOUTS),
            FormatArg::Readable if cli.algo == Algo::Auto && unit_name == "token" => {
                Some(READABLE_LAYOUTS)
            }
            FormatArg::Readable => None,
        };
        if cli.rename && tree.is_none() {
            bail!("--rename needs a language with a grammar (C); drop --rename or --unit");
        }
        if compact && unit_name != "token" {
            bail!(
                "--format compact needs token units (C, JSON or text), not {unit_name}s; \
                 drop --unit or --format"
            );
        }
        let hoists = tree.as_ref().is_some_and(|t| t.grammar.has_hoists());
        let closing = [
            finish_lenient.then_some(Phase::LenientScan),
            (finish_lenient && hoists).then_some(Phase::Hoist),
            cli.rename.then_some(Phase::Rename),
            layouts.map(Phase::Format),
        ];
        Ok(Plan {
            algo: cli.algo,
            closing: closing.into_iter().flatten().collect(),
            units: Arc::new(units),
            unit_name,
            tree,
            syntax,
            phases,
            repeat,
            settings,
            unit_weights: OnceLock::new(),
            later_round: false,
        })
    }

    /// The same plan for a round after the first, on the text the rounds
    /// before left: its token-level minimizer rechecks a list it minimized
    /// before ([`Minimizer::build_rechecking`]: Dr. DD runs single-token
    /// scans only), and Perses takes every list as minimized before
    /// (`PersesOptions::lists_minimized_before`).
    /// That text is 1-minimal in tokens but for what the last round's
    /// other phases changed, and Dr. DD's coarse levels found nothing
    /// there: on the nested-struct case they were most of a later
    /// round's Dr. DD tests (147 of 147 in its third round).
    pub fn for_a_later_round(mut self) -> Self {
        self.later_round = true;
        self
    }

    pub fn units(&self) -> &Units {
        &self.units
    }

    pub fn unit_name(&self) -> &'static str {
        self.unit_name
    }

    /// Parse errors in the original (tree inputs only).
    pub fn parse_errors(&self) -> Option<usize> {
        self.tree.as_ref().map(|t| t.parse_errors)
    }

    pub fn syntax_filter(&self) -> Option<&dyn SyntaxFilter> {
        self.syntax.as_deref()
    }

    /// The algorithm's name as stats report it, e.g. `hdd+probdd`.
    pub fn algo_name(&self) -> String {
        let base = format!("{:?}", self.algo).to_lowercase();
        match self.algo {
            Algo::Hdd | Algo::Perses if self.settings.inner != Minimizer::DdMin => {
                format!("{base}+{}", self.settings.inner.name())
            }
            _ => base,
        }
    }

    fn unit_weights(&self) -> Arc<Vec<u64>> {
        Arc::clone(
            self.unit_weights
                .get_or_init(|| Arc::new(self.units.byte_lengths())),
        )
    }

    /// The first phase's policy, as a run starts it (the scale benchmark
    /// measures its first proposal).
    pub fn first_policy(&self) -> Box<dyn Policy> {
        self.build(self.phases[0])
    }

    fn build(&self, phase: Phase) -> Box<dyn Policy> {
        let s = &self.settings;
        match phase {
            Phase::Format(layouts) => Box::new(Format::new(layouts, Arc::clone(&self.units))),
            Phase::Rename => Box::new(Rename::new(
                Arc::clone(
                    self.tree
                        .as_ref()
                        .expect("--rename is refused without a tree"),
                ),
                Arc::clone(&self.units),
            )),
            // One scan: the filtered phases before it are 1-minimal already,
            // and a second scan found nothing on any shared bench case while
            // costing as many tests as the first (docs/benchmarks.md).
            // Brackets stay: no consumer takes one without its partner.
            Phase::LenientScan => {
                let tree = self.tree.as_ref().expect("the lenient scan has a tree");
                let brackets = (0..tree.unit_count())
                    .filter(|&u| tree.grammar.is_paired_token(tree.kind(tree.leaf_of(u))));
                Box::new(
                    FlatPolicy::new(Box::new(DrDd::single_scans(Some(1))), self.unit_weights())
                        .sparing(Arc::new(BitSet::from_units(tree.unit_count(), brackets))),
                )
            }
            Phase::Flat(m) => {
                // A later round's tokens were minimized in the round before.
                let rechecking = self
                    .later_round
                    .then(|| m.build_rechecking(&s.minimizer))
                    .flatten();
                Box::new(FlatPolicy::new(
                    rechecking.unwrap_or_else(|| m.build(&s.minimizer)),
                    self.unit_weights(),
                ))
            }
            Phase::FlatLines(m) => {
                let units = &self.units;
                let line_starts = (0..units.len())
                    .filter(|&u| u == 0 || units.text(u - 1).contains(&b'\n'))
                    .chain([units.len()])
                    .collect();
                Box::new(
                    FlatPolicy::new(m.build(&s.minimizer), self.unit_weights())
                        .by_lines(Arc::new(line_starts)),
                )
            }
            Phase::Hdd
            | Phase::Perses
            | Phase::Tpdd
            | Phase::Simplify
            | Phase::Hoist
            | Phase::IdReplace
            | Phase::Windows => {
                let tree = Arc::clone(self.tree.as_ref().expect("tree phases have a tree"));
                match phase {
                    Phase::Hdd => Box::new(Hdd::new(
                        tree,
                        s.inner,
                        s.minimizer,
                        HddOptions {
                            start_level: 1,
                            fixpoint: s.fixpoint,
                            any_node: s.any_node,
                        },
                    )),
                    Phase::Perses => Box::new(Perses::new(
                        tree,
                        s.inner,
                        s.minimizer,
                        PersesOptions {
                            schedule: s.perses_schedule,
                            lists_minimized_before: self.later_round,
                            ..PersesOptions::default()
                        },
                    )),
                    Phase::Simplify => Box::new(Simplify::new(tree, Arc::clone(&self.units))),
                    Phase::Hoist => Box::new(Simplify::hoists(tree, Arc::clone(&self.units))),
                    Phase::IdReplace => Box::new(IdReplace::new(tree, Arc::clone(&self.units))),
                    Phase::Windows => Box::new(TokenWindows::new(tree)),
                    _ => Box::new(TPdd::new(
                        tree,
                        TPddOptions {
                            sigma: s.sigma,
                            min_gain: s.min_gain,
                        },
                    )),
                }
            }
        }
    }

    /// Whether the text is parsed afresh between rounds (the default
    /// pipeline on a grammar): the caller runs one round per parse
    /// ([`Self::run_rounds`]) and parses the result again while a round
    /// changes it, so that each round's tree policies and replacements see
    /// the text's structure as it is, not as it was before token-level
    /// deletions (`if (c) ;` minus `if` is an expression statement, whose
    /// parentheses may go).
    pub fn reparses_between_rounds(&self) -> bool {
        self.repeat && self.tree.is_some()
    }

    /// Runs the phases, once if the plan re-parses between rounds, else
    /// repeated while a round changes something; returns the result, why
    /// it stopped, and whether the tree phase changed anything in the
    /// last round it ran.
    ///
    /// With `tree_phase` false the round leaves out the tree phase; the
    /// caller passes false after a round whose tree phase changed nothing
    /// (on the shared bench such a tree phase, run again after the other
    /// phases' small changes, never found anything, while on the nested
    /// struct it cost 411 tests), and a round repeated here leaves it out
    /// on the same condition.
    pub fn run_rounds(
        &self,
        reducer: &mut Reducer<'_>,
        start: Configuration,
        observer: &mut dyn Observer,
        mut tree_phase: bool,
    ) -> (Configuration, StopReason, bool) {
        // The syntax filter serves tree policies and the default pipeline; a
        // list algorithm asked for by name sees every candidate, as in the papers.
        let named_list_algo = matches!(
            self.algo,
            Algo::Ddmin | Algo::Drdd | Algo::Probdd | Algo::Cdd | Algo::Wdd
        );
        reducer.set_filter((!named_list_algo).then_some(Strictness::Strict));
        // The tree phase comes first in every plan that has one.
        let (tree, rest): (Vec<Phase>, Vec<Phase>) =
            self.phases.iter().partition(|p| p.is_tree_phase());
        let mut config = start;
        loop {
            let round_start = config.clone();
            if tree_phase {
                let (next, reason) = self.run_phases(&tree, reducer, config, observer);
                tree_phase = next != round_start;
                if reason != StopReason::Finished {
                    return (next, reason, tree_phase);
                }
                config = next;
            }
            config = match self.run_phases(&rest, reducer, config, observer) {
                (config, StopReason::Finished) => config,
                (config, reason) => return (config, reason, tree_phase),
            };
            if !self.repeat || self.reparses_between_rounds() || config == round_start {
                return (config, StopReason::Finished, tree_phase);
            }
        }
    }

    /// Runs the closing phases, once the rounds are over.
    pub fn run_closing(
        &self,
        reducer: &mut Reducer<'_>,
        mut config: Configuration,
        observer: &mut dyn Observer,
    ) -> (Configuration, StopReason) {
        // The last token pass may leave missing tokens (the parser's
        // insertions) but no text the grammar cannot place; renamings and
        // layouts are for the oracle alone to judge.
        for &phase in &self.closing {
            let lenient = matches!(phase, Phase::LenientScan | Phase::Hoist);
            let strictness = lenient.then_some(Strictness::MissingTokensFree);
            reducer.set_filter(strictness);
            config = match self.run_phases(&[phase], reducer, config, observer) {
                (config, StopReason::Finished) => config,
                stopped => return stopped,
            };
        }
        (config, StopReason::Finished)
    }

    /// Runs `phases` in order; stops at the first that does not finish.
    fn run_phases(
        &self,
        phases: &[Phase],
        reducer: &mut Reducer<'_>,
        mut config: Configuration,
        observer: &mut dyn Observer,
    ) -> (Configuration, StopReason) {
        for &phase in phases {
            let mut policy = self.build(phase);
            let (next, reason) = reducer.run(&mut policy, config, observer);
            config = next;
            if reason != StopReason::Finished {
                return (config, reason);
            }
        }
        (config, StopReason::Finished)
    }
}

/// The text of `--list-algos`.
pub fn list_algos() -> String {
    "\
Algorithms (--algo):
  auto     default: perses (sweep schedule, inner drdd) to its fixpoint, then simplify
           (per-language rewrites, smaller subtrees from elsewhere), then idreplace (a
           name's uses become another name, so its declaration can go), then
           token-level drdd, then runs of 2-10 tokens that cross node boundaries,
           repeated on a fresh parse while a round still changes something (perses
           only while it found something in the round before); for C,
           a last scan of single-token deletions that may leave missing tokens or
           drop implied types (implicit int and the like); then the whitespace
           tidied; without a grammar, drdd over lines then over tokens (bytes for
           binary input).
  ddmin    ddmin over flat units. 1-minimal. O(n²) tests worst case, O(log n) at best.
  drdd     Dr. DD: coarse levels scanned once, single-unit scans until one changes nothing.
           1-minimal (with the default --restarts). Pick it for flat inputs.
  probdd   probabilistic DD: learns which units matter. Not 1-minimal. O(n) tests. --p0.
  cdd      counter-based DD, ProbDD's deterministic simplification. Not 1-minimal. O(n). --p0.
  wdd      ddmin with weight-balanced chunks (weights = unit sizes). 1-minimal.
  hdd      hierarchical DD over the parse tree, level by level (--fixpoint: HDD*,
           1-tree-minimal; --any-node: every node deletable). Needs C or JSON.
  perses   syntax-guided deletion and node replacement; fewest tests on real programs.
  tpdd     tree-based probabilistic DD: one belief per node for the whole run
           (--sigma, --min-gain). Not 1-minimal.

Inner minimizers (--inner, for hdd and perses): ddmin (default), drdd, probdd, cdd, wdd.
"
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interfaces::{Candidate, Quiet, Verdict};
    use clap::Parser;

    #[test]
    fn a_round_told_its_tree_phase_found_nothing_before_runs_without_it() {
        let cli = Cli::parse_from(["reduce", "--oracle", "x", "in.c"]);
        let source = b"int unused(void) { return 2; }\nint f(void) { return 1 + 2; }\n";
        let plan = Plan::new(&cli, Lang::Tree(Language::C), source.to_vec()).unwrap();
        let oracle = |c: &Candidate<'_>| {
            if String::from_utf8_lossy(c.bytes).contains("f(void)") {
                Verdict::Interesting
            } else {
                Verdict::NotInteresting
            }
        };
        let round = |tree_phase: bool| {
            let mut reducer = Reducer::new(plan.units(), &oracle).with_filter(plan.syntax_filter());
            let full = Configuration::full(plan.units().len());
            let (result, reason, tree_changed) =
                plan.run_rounds(&mut reducer, full, &mut Quiet, tree_phase);
            assert_eq!(reason, StopReason::Finished);
            let text = String::from_utf8(plan.units().render(&result)).unwrap();
            let names: Vec<String> = reducer
                .into_carried()
                .phases
                .into_iter()
                .map(|p| p.name)
                .collect();
            (names, tree_changed, text)
        };
        // The first round's Perses deletes `unused`, and says so.
        let (names, tree_changed, text) = round(true);
        assert!(names[0].starts_with("perses"), "{names:?}");
        assert!(tree_changed && !text.contains("unused"), "{text}");
        // Told that the tree phase found nothing last time, a round runs
        // the other phases alone (token-level Dr. DD deletes `unused` here)
        // and reports no change by a tree phase.
        let (names, tree_changed, text) = round(false);
        assert!(!names.iter().any(|n| n.starts_with("perses")), "{names:?}");
        assert_eq!(names[0], "simplify", "{names:?}");
        assert!(!tree_changed && !text.contains("unused"), "{text}");
    }

    /// How many tokens `phase`'s first proposal deletes from `source` (C),
    /// in the first round and in a later one.
    fn first_deletions_in_the_first_and_a_later_round(
        source: &[u8],
        phase: Phase,
    ) -> (u32, u32, u32) {
        let cli = Cli::parse_from(["reduce", "--oracle", "x", "in.c"]);
        let first = Plan::new(&cli, Lang::Tree(Language::C), source.to_vec()).unwrap();
        let later = Plan::new(&cli, Lang::Tree(Language::C), source.to_vec())
            .unwrap()
            .for_a_later_round();
        let full = Configuration::full(first.units().len());
        let first_proposal = |plan: &Plan| {
            let mut policy = plan.build(phase);
            policy.start_pass(&full);
            let proposal = policy.next_proposal(&full).unwrap();
            proposal.delta.removes_from(&full)
        };
        (first_proposal(&first), first_proposal(&later), full.len())
    }

    #[test]
    fn a_later_rounds_token_pass_starts_with_single_tokens() {
        let (first, later, tokens) = first_deletions_in_the_first_and_a_later_round(
            b"int f(void) { return 1 + 2; }\n",
            Phase::Flat(Minimizer::DrDd),
        );
        // The first round's Dr. DD starts with half the tokens, a later
        // round's with one.
        assert_eq!(first, tokens / 2);
        assert_eq!(later, 1);
    }

    #[test]
    fn a_later_rounds_perses_starts_with_single_list_elements() {
        let (first, later, _) = first_deletions_in_the_first_and_a_later_round(
            b"int a;\nint b;\nint c;\nint d;\n",
            Phase::Perses,
        );
        // The first round's Perses tries half the declarations first, a
        // later round's one.
        assert_eq!(first, 6);
        assert_eq!(later, 3);
    }
}
