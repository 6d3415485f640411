//! Which policies run, on which units, in which order: from `--algo` to phases.
//!
//! A [`Plan`] holds the input cut into units (a parse tree's tokens, or flat
//! bytes, lines or tokens) and the list of phases the chosen algorithm runs,
//! each an entry of the policy registry (`crate::policy::registry`).
//! Single algorithms are one phase. `auto` is a tree policy to its fixpoint,
//! then per-language simplifications, identifier replacement and token-level
//! Dr. DD, repeated while a round still changes something, each round on a
//! fresh parse of the text (without a grammar, Dr. DD over lines then
//! tokens, or over bytes).

use std::sync::Arc;

use anyhow::Result;

use crate::interfaces::SyntaxFilter;
use crate::languages::Lang;
use crate::policy::format::Style;
use crate::policy::perses::PersesSchedule;
use crate::policy::registry::{self, BuildContext, Entry, Role, Tuning};
use crate::policy::{Minimizer, Policy};
use crate::units::{UnitKind, Units};

mod rounds;

/// How to reduce: the algorithm and its settings, as the command line
/// gives them; the defaults are the binary's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strategy {
    /// An entry that `--algo` offers.
    pub algo: &'static Entry,
    /// The list minimizer inside tree policies (`None`: drdd in the
    /// default pipeline, ddmin in a tree policy asked for by name).
    pub inner: Option<Minimizer>,
    /// Flat units instead of a grammar's tokens (`None`: a grammar's
    /// tokens, else tokens for text and bytes for binary input).
    pub unit: Option<UnitKind>,
    /// End with identifiers renamed to short names.
    pub rename: bool,
    pub tuning: Tuning,
}

impl Default for Strategy {
    fn default() -> Self {
        Strategy {
            algo: &registry::AUTO,
            inner: None,
            unit: None,
            rename: false,
            tuning: Tuning::default(),
        }
    }
}

/// What will run, and on what.
pub struct Plan {
    algo: &'static Entry,
    /// What the units are.
    unit: UnitKind,
    syntax: Option<Box<dyn SyntaxFilter>>,
    phases: Vec<&'static Entry>,
    /// Repeat the phases while a round removes something.
    repeat: bool,
    /// Phases run once at the end, in order: auto's literal insides under
    /// the strict filter, its last token pass under the lenient one (for
    /// languages whose consumers accept more than the grammar), then
    /// without a filter `--rename` and a whitespace layout
    /// (`--format compact`, or the default pipeline's tidy one).
    closing: Vec<&'static Entry>,
    /// The units, the tree and the tuning every phase's policy is built from.
    context: BuildContext,
    /// The share of the input in parse-error regions, when that made the
    /// plan reduce a grammar's input as text blocks.
    fell_back: Option<f64>,
}

/// The phases of `algo` on `lang`, and whether they repeat in rounds.
fn phases_of(algo: &'static Entry, lang: Lang) -> (Vec<&'static Entry>, bool) {
    use registry::{
        BODIES, DRDD, IDREPLACE, LITERALS, PERSES, SIMPLIFY, SUBSTITUTE, TAIL, UNUSED, USES,
        WINDOWS,
    };
    match (algo.role, lang) {
        // Bulk passes first: on a large input one of their tests may cut
        // half the text, where the tree phase cuts a list element a test;
        // on a very large one, the end of the text before them.
        (Role::Pipeline, Lang::Tree(_)) => (
            vec![
                &TAIL,
                &BODIES,
                &UNUSED,
                &PERSES,
                &SIMPLIFY,
                &USES,
                &SUBSTITUTE,
                &LITERALS,
                &IDREPLACE,
                &DRDD,
                &WINDOWS,
            ],
            true,
        ),
        // Text: the block tree's deletions, then lines and tokens.
        (Role::Pipeline, Lang::Text) => (vec![&PERSES, &DRDD], false),
        // Binary input: whole records, blocks of bytes, length fields
        // shrunk with their payloads (on the forty four-bugs files, 10%
        // fewer tests than after the single bytes: the runs of one value
        // then have less to fill), runs of bytes set to one value, then
        // single bytes (runs of one value are cache hits).
        (Role::Pipeline, Lang::Bytes) => {
            use registry::{BYTE_BLOCKS, BYTE_SCANS, FILL, LENGTHS, RECORDS};
            (
                vec![&RECORDS, &BYTE_BLOCKS, &LENGTHS, &FILL, &BYTE_SCANS],
                false,
            )
        }
        _ => (vec![algo], false),
    }
}

/// The two parts of the closing phases: the lenient scans and the literal
/// insides, which may free more deletions (after which the caller runs
/// another round), then the renaming and layout that finish the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Closing {
    Lenient,
    Finishing,
}

/// What [`cut`] gives: the units, their kind, the tree over them and the
/// syntax filter.
type Cut = (
    Units,
    UnitKind,
    Option<Arc<crate::tree::Tree>>,
    Option<Box<dyn SyntaxFilter>>,
);

/// The units `parsed` is cut into for `strategy` on `lang` (after any fall
/// back to text), their kind, the tree over them and the syntax filter.
/// The flags were checked against the language before
/// (`Settings::check_for`).
fn cut(strategy: &Strategy, lang: Lang, parsed: Parsed) -> Cut {
    match (lang, flat_units(strategy.unit, lang), parsed) {
        (Lang::Tree(l), _, Parsed::Tree(tree, units)) => {
            let syntax: Box<dyn SyntaxFilter> = Box::new(crate::syntax::SyntaxCheck::for_input(
                l,
                units.source(),
                tree.parse_errors,
            ));
            (units, UnitKind::Token, Some(Arc::new(*tree)), Some(syntax))
        }
        (Lang::Text, _, Parsed::Text(source)) if builds_tree(strategy, lang) => {
            let (tree, units) = crate::tree::blocks::build(source);
            (units, UnitKind::Token, Some(Arc::new(tree)), None)
        }
        (_, _, Parsed::Tree(..)) => unreachable!("only a grammar's language is parsed"),
        (_, Some(kind), Parsed::Text(source)) => (Units::flat(source, kind), kind, None, None),
        (_, None, _) => unreachable!("flat units are chosen for inputs without a grammar"),
    }
}

/// The input as a plan gets it: parsed by its grammar, or still text.
enum Parsed {
    Tree(Box<crate::tree::Tree>, Units),
    Text(Vec<u8>),
}

/// Above this share of the input in parse-error regions, a grammar's tree
/// says little about the text (tree-sitter's recovery strings the rest into
/// odd nodes or flat tokens, and the syntax check allows as many errors),
/// so the input is reduced as text blocks instead. On a TypeScript file
/// whose root the grammar could not parse (a construct it lacks), blocks
/// ended at 20 tokens where the grammar's tree was at 955 when cut off.
const MOSTLY_ERRORS: f64 = 0.5;

/// Parses `source` when the plan reduces a tree over a grammar's tokens;
/// when `may_fall_back`, falls back to text (`Lang::Text`, so blocks) when
/// the parse leaves more than [`MOSTLY_ERRORS`] of the input in error
/// regions and text blocks can serve the strategy.
/// The share of the input in error regions is returned with a fallback.
fn parse_or_fall_back(
    strategy: &Strategy,
    lang: Lang,
    source: Vec<u8>,
    may_fall_back: bool,
) -> Result<(Lang, Parsed, Option<f64>)> {
    let Lang::Tree(l) = lang else {
        return Ok((lang, Parsed::Text(source), None));
    };
    if !builds_tree(strategy, lang) {
        return Ok((lang, Parsed::Text(source), None));
    }
    let (tree, units) = crate::tree::parse::parse(l, source)?;
    let share = tree.error_bytes as f64 / units.source().len().max(1) as f64;
    if may_fall_back && share > MOSTLY_ERRORS && builds_tree(strategy, Lang::Text) {
        let source = units.source().to_vec();
        return Ok((Lang::Text, Parsed::Text(source), Some(share)));
    }
    Ok((lang, Parsed::Tree(Box::new(tree), units), None))
}

/// The flat units asked for, or that an input without a grammar gets
/// (`None`: a grammar's tokens).
fn flat_units(unit: Option<UnitKind>, lang: Lang) -> Option<UnitKind> {
    match (unit, lang) {
        (Some(UnitKind::Token), Lang::Tree(_)) | (None, Lang::Tree(_)) => None,
        (Some(kind), _) => Some(kind),
        (None, Lang::Text) => Some(UnitKind::Token),
        (None, Lang::Bytes) => Some(UnitKind::Byte),
    }
}

/// The units a run of `strategy` on `lang` cuts: a tree's leaves are
/// tokens (a grammar's, or text blocks'), else the flat units asked for or
/// that the input gets.
pub(crate) fn unit_of(strategy: &Strategy, lang: Lang) -> UnitKind {
    match flat_units(strategy.unit, lang) {
        Some(kind) if !builds_tree(strategy, lang) => kind,
        _ => UnitKind::Token,
    }
}

/// Whether a run of `strategy` on `lang` parses the input: a phase needs
/// the tree, or a grammar's tokens are the units (flat units were not asked
/// for). Text is parsed into blocks (`tree::blocks`) when a phase needs a
/// tree and its units are tokens.
pub(crate) fn builds_tree(strategy: &Strategy, lang: Lang) -> bool {
    let (phases, _) = phases_of(strategy.algo, lang);
    let needs_tree = phases.iter().any(|p| p.needs_tree);
    match lang {
        Lang::Tree(_) => needs_tree || flat_units(strategy.unit, lang).is_none(),
        Lang::Text => needs_tree && flat_units(strategy.unit, lang) == Some(UnitKind::Token),
        Lang::Bytes => false,
    }
}

/// The strategies `--restart` tries from the original, in turn, once the
/// first run reached its fixpoint: the same phases on other paths, since
/// the same path would only replay the cache. First the other list
/// minimizer inside the tree phase (ddmin's halves where Dr. DD's coarse
/// levels went, or the reverse), then Perses's other schedule.
pub(crate) fn restart_variants(strategy: &Strategy) -> Vec<Strategy> {
    let auto = strategy.algo.role == Role::Pipeline;
    let inner = strategy.inner.unwrap_or(if auto {
        Minimizer::DrDd
    } else {
        Minimizer::DdMin
    });
    let mut other_inner = *strategy;
    other_inner.inner = Some(if inner == Minimizer::DdMin {
        Minimizer::DrDd
    } else {
        Minimizer::DdMin
    });
    let mut other_schedule = *strategy;
    other_schedule.tuning.perses.schedule = match strategy.tuning.perses.schedule {
        PersesSchedule::Sweep => PersesSchedule::Tutorial,
        PersesSchedule::Tutorial => PersesSchedule::Sweep,
    };
    vec![other_inner, other_schedule]
}

impl Plan {
    /// Cuts `source` into units for `lang` and lays out the phases of
    /// `strategy.algo`; a grammar's input mostly in parse errors goes as
    /// text blocks (see [`MOSTLY_ERRORS`]).
    pub fn new(strategy: &Strategy, lang: Lang, source: Vec<u8>) -> Result<Self> {
        Plan::build(strategy, lang, source, true)
    }

    /// [`Plan::new`] on the grammar's tree whatever its parse errors: the
    /// plan of a round after one on that tree. An input the grammar reads
    /// may be reduced to a text mostly in error regions (the GNU
    /// extensions tree-sitter-cpp does not know, once the code around them
    /// is gone); blocks would then give up the grammar's rewrites for the
    /// rest of the run.
    pub(crate) fn on_grammar(strategy: &Strategy, lang: Lang, source: Vec<u8>) -> Result<Self> {
        Plan::build(strategy, lang, source, false)
    }

    fn build(
        strategy: &Strategy,
        lang: Lang,
        source: Vec<u8>,
        may_fall_back: bool,
    ) -> Result<Self> {
        let algo = strategy.algo;
        let auto = algo.role == Role::Pipeline;
        let (lang, parsed, fell_back) = parse_or_fall_back(strategy, lang, source, may_fall_back)?;
        let (mut phases, repeat) = phases_of(algo, lang);
        // Blocks for a grammar's input go round by round, each on a fresh
        // parse, so that once the text parses the grammar's tree takes over.
        let repeat = repeat || (auto && fell_back.is_some());
        let flat_kind = flat_units(strategy.unit, lang);
        let (units, unit, tree, syntax) = cut(strategy, lang, parsed);
        // Text without a grammar: blocks first, then lines, then the tokens left.
        if auto && lang == Lang::Text && flat_kind == Some(UnitKind::Token) {
            phases.insert(1, &registry::LINES);
        } else if tree.is_none() {
            phases.retain(|p| !p.needs_tree);
        }
        // The tail search only pays on the largest texts (and a phase that
        // cannot test would still be listed in the stats).
        if units.len() < strategy.tuning.tail.min_units {
            phases.retain(|p| !std::ptr::eq(*p, &registry::TAIL));
        }
        let finish_lenient = match (auto, lang) {
            (true, Lang::Tree(l)) => l.grammar().consumers_accept_more,
            _ => false,
        };
        let compact = strategy.tuning.format == Style::Compact;
        // The default pipeline tidies the whitespace deletions leave behind.
        let format = compact || (auto && unit == UnitKind::Token);
        let hoists = tree.as_ref().is_some_and(|t| t.grammar.has_hoists());
        let insides = tree
            .as_ref()
            .is_some_and(|t| t.grammar.has_literal_insides());
        // The insides first: the strict filter judges against the
        // stage's parse, which the lenient scan's deletions leave behind.
        let closing = [
            (auto && insides).then_some(&registry::INTERIORS),
            finish_lenient.then_some(&registry::LENIENT_SCAN),
            (finish_lenient && hoists).then_some(&registry::HOISTS),
            strategy.rename.then_some(&registry::RENAME),
            format.then_some(&registry::FORMAT),
        ];
        let mut context = BuildContext::new(tree, Arc::new(units));
        if let Lang::Tree(l) = lang {
            context.language = Some(l);
        }
        // The default pipeline's tree phase uses Dr. DD: on the shared
        // bench's C cases it needed fewer tests and less time than ddmin
        // and ProbDD (its coarse levels drop a large host quickly; ProbDD
        // deletes ~1/p0 elements at a time). A tree policy asked for by
        // name keeps the tutorial's ddmin.
        context.inner = strategy.inner.unwrap_or(if auto {
            Minimizer::DrDd
        } else {
            Minimizer::DdMin
        });
        context.tuning = strategy.tuning;
        Ok(Plan {
            algo,
            unit,
            syntax,
            phases,
            repeat,
            closing: closing.into_iter().flatten().collect(),
            context,
            fell_back,
        })
    }

    /// A plan over units its caller cut (the pool of a set of files,
    /// `crate::multi`): Dr. DD over them, every candidate through `syntax`.
    pub(crate) fn over_units(
        strategy: &Strategy,
        units: Units,
        unit: UnitKind,
        syntax: Box<dyn SyntaxFilter>,
    ) -> Plan {
        let mut context = BuildContext::new(None, Arc::new(units));
        context.inner = Minimizer::DrDd;
        context.tuning = strategy.tuning;
        // The default pipeline's role keeps the filter on whatever `--algo` is.
        Plan {
            algo: &registry::AUTO,
            unit,
            syntax: Some(syntax),
            phases: vec![&registry::DRDD],
            repeat: false,
            closing: Vec::new(),
            context,
            fell_back: None,
        }
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
    pub(crate) fn for_a_later_round(mut self) -> Self {
        self.context.later_round = true;
        self
    }

    pub fn units(&self) -> &Units {
        &self.context.units
    }

    /// What the units are.
    pub(crate) fn unit(&self) -> UnitKind {
        self.unit
    }

    /// The share of the input in parse-error regions, when that made the
    /// plan reduce it as text blocks instead of its grammar's tree.
    pub fn fell_back_to_blocks(&self) -> Option<f64> {
        self.fell_back
    }

    /// Parse errors in the original (tree inputs only).
    pub fn parse_errors(&self) -> Option<usize> {
        self.context.tree.as_ref().map(|t| t.parse_errors)
    }

    pub(crate) fn syntax_filter(&self) -> Option<&dyn SyntaxFilter> {
        self.syntax.as_deref()
    }

    /// The algorithm's name as stats report it, e.g. `hdd+probdd`.
    pub(crate) fn algo_name(&self) -> String {
        let inner = self.context.inner;
        if self.algo.takes_inner && inner != Minimizer::DdMin {
            format!("{}+{}", self.algo.name, inner.name())
        } else {
            self.algo.name.to_string()
        }
    }

    /// The first phase's policy, as a run starts it (the scale benchmark
    /// measures its first proposal).
    pub fn first_policy(&self) -> Box<dyn Policy> {
        self.phases[0].policy(&self.context)
    }

    /// Whether the text is parsed afresh between rounds (the default
    /// pipeline on a grammar): the caller runs one round per parse
    /// ([`Self::run_rounds`]) and parses the result again while a round
    /// changes it, so that each round's tree policies and replacements see
    /// the text's structure as it is, not as it was before token-level
    /// deletions (`if (c) ;` minus `if` is an expression statement, whose
    /// parentheses may go).
    pub(crate) fn reparses_between_rounds(&self) -> bool {
        self.repeat && self.context.tree.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configuration::Configuration;
    use crate::engine::{Engine, StopReason};
    use crate::interfaces::{Candidate, Quiet, Verdict};
    use crate::languages::Language;

    #[test]
    fn an_input_mostly_in_parse_errors_is_reduced_as_text_blocks() {
        let plan = |text: &str| {
            let c = Lang::Tree(Language::named("c"));
            Plan::new(&Strategy::default(), c, text.as_bytes().to_vec()).unwrap()
        };
        let garbage = plan("@ @ @ @ @ @ @ @ @ @ @ @ int x;\n");
        let share = garbage
            .fell_back_to_blocks()
            .expect("most of it is in errors");
        assert!(share > MOSTLY_ERRORS && share <= 1.0, "{share}");
        assert!(garbage.syntax_filter().is_none());
        assert_eq!(garbage.units().len(), 15);
        let slip = plan("int f(void) { return 1; }\nint g(void) { return 2; }\nint h = @;\n");
        assert_eq!(slip.fell_back_to_blocks(), None);
        assert!(slip.parse_errors().is_some_and(|e| e > 0));
        assert!(slip.syntax_filter().is_some());
    }

    #[test]
    fn a_round_told_its_tree_phase_found_nothing_before_runs_without_it() {
        let source = b"int g(void) { return 2; }\nint f(void) { return 1 + 2 + g(); }\n";
        let plan = Plan::new(
            &Strategy::default(),
            Lang::Tree(Language::named("c")),
            source.to_vec(),
        )
        .unwrap();
        let oracle = |c: &Candidate<'_>| {
            if String::from_utf8_lossy(c.bytes).contains("f(void) { return") {
                Verdict::Interesting
            } else {
                Verdict::NotInteresting
            }
        };
        let round = |tree_phase: bool| {
            let mut engine = Engine::new(plan.units(), &oracle).with_filter(plan.syntax_filter());
            let full = Configuration::full(plan.units().len());
            let (result, reason, tree_changed) =
                plan.run_rounds(&mut engine, full, &mut Quiet, tree_phase);
            assert_eq!(reason, StopReason::Finished);
            let text = String::from_utf8(plan.units().render(&result)).unwrap();
            let names: Vec<String> = engine
                .into_carried()
                .phases
                .into_iter()
                .map(|p| p.name)
                .collect();
            (names, tree_changed, text)
        };
        // The first round's bulk passes make `g` a prototype (f's body
        // must stay); then Perses deletes it, and says so.
        let (names, tree_changed, text) = round(true);
        assert_eq!(&names[..3], ["bodies", "unused", "perses-sweep+drdd"]);
        assert!(tree_changed && !text.contains("g(void)"), "{text}");
        // Told that the tree phase found nothing last time, a round runs
        // the other phases alone (token-level Dr. DD deletes the prototype
        // here) and reports no change by a tree phase.
        let (names, tree_changed, text) = round(false);
        assert!(!names.iter().any(|n| n.starts_with("perses")), "{names:?}");
        assert_eq!(&names[..3], ["bodies", "unused", "simplify"]);
        assert!(!tree_changed && !text.contains("g(void)"), "{text}");
    }

    /// How many tokens `phase`'s first proposal deletes from `source` (C),
    /// in the first round and in a later one.
    fn first_deletions_in_the_first_and_a_later_round(
        source: &[u8],
        phase: &Entry,
    ) -> (u32, u32, u32) {
        let strategy = Strategy::default();
        let first =
            Plan::new(&strategy, Lang::Tree(Language::named("c")), source.to_vec()).unwrap();
        let later = Plan::new(&strategy, Lang::Tree(Language::named("c")), source.to_vec())
            .unwrap()
            .for_a_later_round();
        let full = Configuration::full(first.units().len());
        let first_proposal = |plan: &Plan| {
            let mut policy = phase.policy(&plan.context);
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
            &registry::DRDD,
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
            &registry::PERSES,
        );
        // The first round's Perses tries half the declarations first, a
        // later round's one.
        assert_eq!(first, 6);
        assert_eq!(later, 3);
    }
}
