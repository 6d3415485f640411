//! Identifier replacement (Vulcan, algorithms.md §9): a name's uses are
//! rewritten to another name, so that its declaration can go.
//!
//! Why: deletion stops at `int a; int b; ... crash(a + b);` when the bug
//! needs an addition but not two variables; `crash(a + a)` leaves `int b;`
//! unused, and the next round's tree policy deletes it. Vulcan runs this
//! after its main reducer reached a fixpoint, then the main reducer again;
//! the default pipeline does the same by placing it in its repeated round.
//!
//! Which tokens are identifiers is grammar data (`identifiers` in
//! `grammars/<lang>.json`). A *name* is the set of kept identifier tokens
//! that currently read the same text, if that text is the original text of
//! some identifier token of the input (so a type a simplification rewrote
//! to `int` is no name). Every name has a fixed *rank*: the position of the
//! first identifier token of the original input that reads it.
//!
//! A proposal for names `a` and `b` keeps `a`'s first kept token and
//! rewrites every later kept token of `a` to `b`'s text. It is made only
//! when `b` ranks before `a` (in C, `b` is then usually declared earlier,
//! where `a`'s uses can see it) and when every identifier kind among the
//! rewritten tokens is also a kind of one of `b`'s tokens (a type's uses
//! become another type, a field's another field). Each name with at least
//! two kept tokens is tried, in rank order, against at most `MAX_TARGETS`
//! earlier names, nearest rank first; then against as many later names
//! (a global's uses may become the function declared after it, C-Vise's
//! `g() { g; }`), where the proposal also deletes what holds `a`'s first
//! token: its largest deletable ancestor that holds no other kept
//! identifier (`a;`, or `a` in `int a, b;`), which the rewrite leaves
//! unused. Without that declaration to delete, no later name is tried.
//!
//! Termination: a committed step either lowers the token count or keeps it
//! and lowers the sum, over kept identifier tokens that read a name, of
//! that name's rank (the rewritten tokens move to an earlier name; no other
//! token changes). Deletions lower the token count and the simplify
//! policy's rewrites never raise that sum, so the default pipeline, which
//! repeats its round while something changes, still ends.
//!
//! Schedule: like `crate::policy::simplify::Simplify`, a sweep over the
//! names of the configuration it starts on; a success ends the reduce
//! loop's pass, and the next pass resumes with the next name. A sweep that
//! committed something is followed by another.

use std::collections::HashMap;
use std::sync::Arc;

use crate::configuration::{Configuration, Delta, Proposal};
use crate::grammar::KindId;
use crate::policy::Policy;
use crate::tree::{NodeId, Tree};
use crate::units::Units;

/// How many earlier names, and then how many later ones, a name's uses are
/// tried with, nearest rank first.
/// Vulcan tries every other name; in reduced C, a name's replacement is
/// almost always one declared shortly before it, and the bound keeps a
/// sweep linear in the number of names.
pub(crate) const MAX_TARGETS: usize = 4;

/// The kept tokens of one name in a configuration.
#[derive(Clone, Debug, Default)]
struct Occurrences {
    /// Kept tokens reading the name, in order.
    units: Vec<u32>,
    /// The identifier kinds among them (a few at most).
    kinds: Vec<KindId>,
}

/// Replaces a name's later occurrences by another name.
#[derive(Clone)]
pub(crate) struct IdReplace {
    tree: Arc<Tree>,
    units: Arc<Units>,
    /// The rank of every name: the first original identifier token reading it.
    rank: Arc<HashMap<Vec<u8>, u32>>,
    /// This sweep's names (those with two or more kept tokens when it began),
    /// by rank; `None` until the next sweep begins.
    order: Option<Arc<Vec<Vec<u8>>>>,
    /// Position in `order` of the name being tried.
    cursor: usize,
    /// The next of that name's targets to try.
    next_target: usize,
    /// Whether this sweep committed anything.
    committed: bool,
    /// This pass's names and their occurrences.
    names: Arc<HashMap<Vec<u8>, Occurrences>>,
}

impl IdReplace {
    /// A policy over `tree`, whose tokens are `units` (shared, for the
    /// token texts).
    pub fn new(tree: Arc<Tree>, units: Arc<Units>) -> Self {
        assert_eq!(tree.unit_count(), units.len(), "the tree's units");
        let mut rank = HashMap::new();
        for u in 0..units.len() {
            if tree.grammar.is_identifier(tree.kind(tree.leaf_of(u))) {
                rank.entry(units.text(u).trim_ascii().to_vec()).or_insert(u);
            }
        }
        IdReplace {
            tree,
            units,
            rank: Arc::new(rank),
            order: None,
            cursor: 0,
            next_target: 0,
            committed: false,
            names: Arc::default(),
        }
    }

    /// The names of `config` and where they occur.
    fn names_in(&self, config: &Configuration) -> HashMap<Vec<u8>, Occurrences> {
        let mut names: HashMap<Vec<u8>, Occurrences> = HashMap::new();
        for u in config.kept.iter() {
            let kind = self.tree.kind(self.tree.leaf_of(u));
            if !self.tree.grammar.is_identifier(kind) {
                continue;
            }
            let text = self.units.token_text(config, u);
            if !self.rank.contains_key(text) {
                continue;
            }
            let entry = match names.get_mut(text) {
                Some(entry) => entry,
                None => names.entry(text.to_vec()).or_default(),
            };
            entry.units.push(u);
            if !entry.kinds.contains(&kind) {
                entry.kinds.push(kind);
            }
        }
        names
    }

    /// The names `name`'s later occurrences may become, best first: earlier
    /// names whose kinds cover those of the rewritten tokens, nearest rank
    /// first, then later ones, nearest first.
    fn targets(&self, name: &[u8]) -> Vec<&[u8]> {
        let Some(own) = self.names.get(name) else {
            return Vec::new();
        };
        let rewritten: Vec<KindId> = own.units[1..]
            .iter()
            .map(|&u| self.tree.kind(self.tree.leaf_of(u)))
            .collect();
        let rank = self.rank[name];
        let candidates = self.names.iter().filter(|(other, occ)| {
            other.as_slice() != name && rewritten.iter().all(|k| occ.kinds.contains(k))
        });
        let ranked = candidates.map(|(other, _)| (self.rank[other.as_slice()], other.as_slice()));
        let (mut earlier, mut later): (Vec<_>, Vec<_>) = ranked.partition(|&(r, _)| r < rank);
        earlier.sort_unstable_by_key(|&(r, _)| std::cmp::Reverse(r));
        later.sort_unstable_by_key(|&(r, _)| r);
        earlier.truncate(MAX_TARGETS);
        later.truncate(MAX_TARGETS);
        earlier.into_iter().chain(later).map(|(_, t)| t).collect()
    }

    /// What a rewrite to a later name deletes with it: the largest
    /// deletable ancestor of kept unit `first` (a name's first token)
    /// holding no other kept identifier, if there is one.
    fn declaration_of(&self, first: u32, config: &Configuration) -> Option<NodeId> {
        let tree = &self.tree;
        let holds_another_name = |n: NodeId| {
            let tokens = tree.tokens(n);
            (tokens.start..tokens.end).any(|u| {
                u != first
                    && config.kept.contains(u)
                    && tree.grammar.is_identifier(tree.kind(tree.leaf_of(u)))
            })
        };
        let mut node = tree.leaf_of(first);
        let mut found = None;
        loop {
            if tree.deletable(node) {
                found = Some(node);
            }
            match tree.parent(node) {
                Some(parent) if !holds_another_name(parent) => node = parent,
                _ => return found,
            }
        }
    }
}

impl Policy for IdReplace {
    fn name(&self) -> String {
        "idreplace".into()
    }

    fn start_pass(&mut self, config: &Configuration) {
        self.names = Arc::new(self.names_in(config));
        if self.order.is_none() {
            let mut order: Vec<Vec<u8>> = self
                .names
                .iter()
                .filter(|(_, occ)| occ.units.len() >= 2)
                .map(|(name, _)| name.clone())
                .collect();
            order.sort_unstable_by_key(|name| self.rank[name.as_slice()]);
            self.order = Some(Arc::new(order));
            self.cursor = 0;
            self.next_target = 0;
            self.committed = false;
        }
    }

    fn next_proposal(&mut self, config: &Configuration) -> Option<Proposal> {
        let order = Arc::clone(self.order.as_ref()?);
        while let Some(name) = order.get(self.cursor) {
            let occurrences = self.names.get(name).map_or(0, |o| o.units.len());
            let target = (occurrences >= 2)
                .then(|| self.targets(name).get(self.next_target).map(|t| t.to_vec()))
                .flatten();
            if let Some(target) = target {
                self.next_target += 1;
                let units = &self.names[name].units;
                // A later name needs the declaration deleted; without one,
                // the name's later targets are skipped with the rest.
                let later = self.rank[target.as_slice()] > self.rank[name.as_slice()];
                let delta = match later.then(|| self.declaration_of(units[0], config)) {
                    None => Some(Delta::new()),
                    Some(declaration) => {
                        declaration.map(|d| self.tree.deletion_delta(&[d], config))
                    }
                };
                if let Some(delta) = delta {
                    let text: Arc<[u8]> = Arc::from(target);
                    return Some(Proposal {
                        delta,
                        rewrites: units[1..].iter().map(|&u| (u, Arc::clone(&text))).collect(),
                        layout: None,
                    });
                }
            }
            self.cursor += 1;
            self.next_target = 0;
        }
        None
    }

    fn on_reduced(&mut self, reduced: Option<&Configuration>) -> bool {
        if reduced.is_some() {
            // The name now occurs once: the sweep goes on with the next.
            self.committed = true;
            self.cursor += 1;
            self.next_target = 0;
            return true;
        }
        self.order = None;
        std::mem::take(&mut self.committed)
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::interfaces::{Candidate, Observer, Verdict};
    use crate::languages::Language;
    use crate::syntax::SyntaxCheck;
    use crate::tree::parse::parse;

    /// Every committed configuration of a run.
    #[derive(Default)]
    struct Steps(Vec<Configuration>);

    impl Observer for Steps {
        fn on_improved(&mut self, config: &Configuration, _bytes: &[u8]) {
            self.0.push(config.clone());
        }
    }

    struct Outcome {
        text: String,
        steps: Vec<Configuration>,
        tests: u64,
    }

    /// Runs [`IdReplace`] from `start` (or the whole input) through the real
    /// reduce loop, with the syntax check as filter and `jobs` in flight.
    fn replace_from(
        source: &str,
        start: Option<Configuration>,
        jobs: usize,
        interesting: impl Fn(&str) -> bool + Sync,
    ) -> (Outcome, Configuration, Arc<Tree>, Units) {
        let (tree, units) = parse(Language::named("c"), source.as_bytes().to_vec()).unwrap();
        let check = SyntaxCheck::for_tree(Language::named("c"), &tree);
        let oracle = |c: &Candidate<'_>| {
            if interesting(&String::from_utf8_lossy(c.bytes)) {
                Verdict::Interesting
            } else {
                Verdict::NotInteresting
            }
        };
        let tree = Arc::new(tree);
        let mut policy: Box<dyn Policy> =
            Box::new(IdReplace::new(Arc::clone(&tree), Arc::new(units.clone())));
        let mut steps = Steps::default();
        let mut engine = Engine::new(&units, &oracle)
            .with_filter(Some(&check))
            .with_cache(false)
            .with_jobs(jobs);
        let start = start.unwrap_or_else(|| Configuration::full(units.len()));
        let (config, _) = engine.run(&mut policy, start, &mut steps);
        let outcome = Outcome {
            text: String::from_utf8(units.render(&config)).unwrap(),
            steps: steps.0,
            tests: engine.tests_total(),
        };
        (outcome, config, tree, units)
    }

    fn collapse(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    const SUM: &str = "int a;\nint b;\nint f(void) { return crash(a + b); }\n";

    /// Interesting while `crash` gets a sum and every name used is declared.
    fn sum_of_declared(text: &str) -> bool {
        let declared = |v: &str| text.contains(&format!("int {v};"));
        text.contains("crash(a + a)") && declared("a")
            || text.contains("crash(a + b)") && declared("a") && declared("b")
            || text.contains("crash(b + b)") && declared("b")
    }

    #[test]
    fn a_names_uses_become_an_earlier_name_and_its_declaration_stays_for_deletion() {
        // The bug needs `a` itself: `b`'s use becomes `a`, `int b;` stays
        // for the tree policy to delete.
        let needs_a = |t: &str| sum_of_declared(t) && t.contains("int a;");
        let (out, ..) = replace_from(SUM, None, 1, needs_a);
        assert_eq!(
            collapse(&out.text),
            "int a; int b; int f(void) { return crash(a + a); }"
        );
        assert_eq!(out.steps.len(), 1);
    }

    #[test]
    fn a_names_uses_become_a_later_name_only_together_with_the_declaration_they_leave_unused() {
        // `a` comes first, so its use may only become a later name, and
        // then `int a;` goes in the same step.
        let (out, ..) = replace_from(SUM, None, 1, sum_of_declared);
        assert_eq!(
            collapse(&out.text),
            "int b; int f(void) { return crash(b + b); }"
        );
        assert_eq!(out.steps.len(), 1);
        // A global's use becomes the function declared after it.
        let source = "int g;\nint f(void) { return crash(g); }\n";
        let proposals = first_pass_proposals(source);
        assert_eq!(
            proposals,
            [
                "int f(void) { return crash(f); }",
                "int f(void) { return crash(crash); }"
            ]
        );
        // Where every ancestor of the name's first token holding nothing
        // else cannot be deleted, no later name is tried: `f` is a
        // function's name, and its use may only become an earlier name.
        let source = "int f(void) { return f(); }\nint g(void) { return 1; }\n";
        assert!(first_pass_proposals(source).is_empty());
    }

    /// The sum, over kept identifier tokens that read a name, of its rank.
    fn rank_sum(policy: &IdReplace, config: &Configuration) -> u64 {
        policy
            .names_in(config)
            .iter()
            .map(|(name, occ)| u64::from(policy.rank[name]) * occ.units.len() as u64)
            .sum()
    }

    #[test]
    fn every_step_lowers_the_tokens_or_keeps_them_and_lowers_the_rank_sum_and_a_second_run_changes_nothing()
     {
        let source = "int a, b, c, d;\nint f(void) { return crash(d * c - b + a + d + c); }\n";
        let anything_calling_crash = |t: &str| t.contains("crash(");
        let (out, config, tree, units) = replace_from(source, None, 1, anything_calling_crash);
        let policy = IdReplace::new(tree, Arc::new(units.clone()));
        let full = Configuration::full(units.len());
        assert!(out.steps.len() >= 3, "{}", out.text);
        let mut before = (full.len(), rank_sum(&policy, &full));
        for step in &out.steps {
            let now = (step.len(), rank_sum(&policy, step));
            assert!(now < before, "{now:?} after {before:?}");
            before = now;
        }
        // Every use reads `f` now, the one later name whose use may stand
        // for them, and the declarations they left unused went with them.
        assert_eq!(
            collapse(&out.text),
            "int f(void) { return crash(f * f - f + f + f + f); }"
        );
        let (again, ..) = replace_from(source, Some(config), 1, anything_calling_crash);
        assert!(again.steps.is_empty());
    }

    /// Every proposal of a first pass over all of `source` in which all
    /// fail, rendered; the policy then stops.
    fn first_pass_proposals(source: &str) -> Vec<String> {
        let (tree, units) = parse(Language::named("c"), source.as_bytes().to_vec()).unwrap();
        let mut policy = IdReplace::new(Arc::new(tree), Arc::new(units.clone()));
        let full = Configuration::full(units.len());
        policy.start_pass(&full);
        let mut proposals = Vec::new();
        while let Some(p) = policy.next_proposal(&full) {
            let next = full.apply(&p).unwrap();
            proposals.push(collapse(&String::from_utf8_lossy(&units.render(&next))));
        }
        assert!(!policy.on_reduced(None), "nothing committed: it stops");
        proposals
    }

    #[test]
    fn a_variables_uses_never_become_a_type_or_a_field() {
        let source = "typedef int T;\nstruct s { int x; };\nint v;\nint f(void) { T t; struct s q; return q.x + v + v + t; }\n";
        let proposals = first_pass_proposals(source);
        // `t`'s use may become `f` (a function name is an `identifier` too)
        // or `v`, never `T` (a type) or `x` (a field); `v` has no earlier
        // variable; `s` may become `T` (both name types).
        for p in &proposals {
            assert!(!p.contains("+ T + T") && !p.contains("+ x + x"), "{p}");
        }
        assert!(
            proposals
                .iter()
                .any(|p| p.contains("return q.x + v + v + v;")),
            "{proposals:#?}"
        );
    }

    #[test]
    fn each_name_tries_at_most_the_nearest_earlier_names_then_the_nearest_later_ones() {
        let source = "int a, b, c, d, e, f, g;\nint h(void) { return g + g; }\n";
        let proposals = first_pass_proposals(source);
        let uses: Vec<&str> = proposals
            .iter()
            .map(|text| text.rsplit("return ").next().unwrap())
            .collect();
        assert_eq!(
            uses,
            ["f + f; }", "e + e; }", "d + d; }", "c + c; }", "h + h; }"]
        );
        assert_eq!(uses.len(), MAX_TARGETS + 1, "one later name: h");
        assert!(proposals[4].starts_with("int a, b, c, d, e, f; int h"));
    }

    #[test]
    fn speculative_runs_commit_the_same_steps() {
        let source = "int a, b, c, d;\nint f(void) { return crash(d * c - b + a + d + c); }\n";
        let needs_two_names = |t: &str| {
            let body = t.rsplit("crash(").next().unwrap();
            body.contains('a') && body.contains('b')
        };
        let (one, ..) = replace_from(source, None, 1, needs_two_names);
        let (four, ..) = replace_from(source, None, 4, needs_two_names);
        assert_eq!(one.text, four.text);
        assert_eq!(one.steps, four.steps);
        assert!(one.tests > 0 && !one.steps.is_empty());
    }
}
