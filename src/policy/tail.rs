//! The end of a very large text cut after the last thing the test needs,
//! by binary search, level by level down the last kept element.
//!
//! Why: on a preprocessed unit of several megabytes a test takes many
//! seconds, and the first passes (bodies, unused names) test chunks of
//! edits spread over the whole text, most of which fail while the text is
//! whole. A compiler reads a unit in order, so what follows the code a
//! diagnostic or crash needs can usually go at once: on a 9.4 MB LLVM unit
//! whose warning stands at 58% of the text, the bodies pass committed 2.7%
//! of the text in its first 97 tests (16 s each), where cutting the end
//! costs a test per halving.
//!
//! The search: the elements of a level are the kept deletable children of
//! a node (the root first). A test deletes the elements from a middle
//! position to the end; a pass moves the end down to it, a failure moves
//! the start above it, until the shortest prefix of elements that passes
//! is found (about `log2(n)` tests). Then the search goes down into the
//! last kept element, to the first node on its path of last children
//! whose own last structured child is deletable (a block's statements, a
//! namespace's declarations), while that element holds at least
//! [`DESCEND_SHARE`] of the text.
//!
//! Only texts of [`MIN_UNITS`] kept units or more are searched: on smaller
//! ones a test is cheap, the tree policies reach the same deletions, and
//! where the interesting code ends the text (most reduced units) every
//! test of the search would fail.
//!
//! Determinism: the proposals are a function of the configuration and the
//! outcomes before, so `-j N` proposes what `-j 1` does.

use std::sync::Arc;

use crate::configuration::{Configuration, Proposal};
use crate::policy::Policy;
use crate::tree::{NodeId, Tree};

/// Texts with fewer kept units are left to the other passes (the
/// default of [`TailOptions::min_units`]).
const MIN_UNITS: u32 = 1_000_000;

/// Which texts the search runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TailOptions {
    /// Texts with fewer kept units are not searched: the binary's
    /// [`MIN_UNITS`]; the every-policy tests search small texts.
    pub min_units: u32,
}

impl Default for TailOptions {
    fn default() -> Self {
        TailOptions {
            min_units: MIN_UNITS,
        }
    }
}

/// The search goes into an element only if it holds at least one in this
/// many of the kept units: below that, the tree policies' deletions cost
/// less than the levels of the search.
const DESCEND_SHARE: u32 = 100;

/// The search at one level.
#[derive(Clone)]
struct Level {
    /// The kept deletable children of the level's node, in order.
    elements: Arc<[NodeId]>,
    /// The shortest prefix known to pass (the elements after it are gone).
    end: usize,
    /// Every prefix shorter than `start` failed.
    start: usize,
    /// The last proposal's cut (the prefix it tested) and `start` before
    /// it, which a pass restores.
    last: (usize, usize),
}

/// Cuts the end of the text, level by level.
#[derive(Clone)]
pub(crate) struct Tail {
    tree: Arc<Tree>,
    /// The current level; `None` before the first pass.
    level: Option<Level>,
    /// The search is over.
    done: bool,
    options: TailOptions,
}

impl Tail {
    pub(crate) fn new(tree: Arc<Tree>, options: TailOptions) -> Self {
        Tail {
            tree,
            level: None,
            done: false,
            options,
        }
    }

    /// The level below `n`: the first node on `n`'s path of last kept
    /// children whose last kept structured child is deletable, with its
    /// kept deletable children.
    fn level_in(&self, mut n: NodeId, config: &Configuration) -> Option<Level> {
        let tree = &*self.tree;
        loop {
            let last = tree
                .children(n)
                .filter(|&c| !tree.is_leaf(c) && tree.present(c, config))
                .last()?;
            if tree.deletable(last) {
                break;
            }
            n = last;
        }
        let elements: Arc<[NodeId]> = tree
            .children(n)
            .filter(|&c| tree.deletable(c) && tree.present(c, config))
            .collect();
        Some(Level {
            end: elements.len(),
            start: 0,
            last: (0, 0),
            elements,
        })
    }

    /// The level below the last kept element of the finished `level`, if
    /// it holds enough of the text to be worth its tests.
    fn next_level(&self, level: &Level, config: &Configuration) -> Option<Level> {
        let last = *level.elements[..level.end].last()?;
        let size = self.tree.size(last, config);
        if size.saturating_mul(DESCEND_SHARE) < config.len() {
            return None;
        }
        self.level_in(last, config)
    }
}

impl Policy for Tail {
    fn name(&self) -> String {
        "tail".to_string()
    }

    fn start_pass(&mut self, config: &Configuration) {
        if self.level.is_none() && !self.done {
            if config.len() < self.options.min_units {
                self.done = true;
            } else {
                self.level = self.level_in(self.tree.root(), config);
                self.done = self.level.is_none();
            }
        }
    }

    fn next_proposal(&mut self, config: &Configuration) -> Option<Proposal> {
        loop {
            let level = self.level.as_mut()?;
            if level.start < level.end {
                // Asked again means the cut before failed: `start` is
                // already above it.
                let cut = level.start + (level.end - level.start) / 2;
                level.last = (cut, level.start);
                level.start = cut + 1;
                let gone = &level.elements[cut..level.end];
                let delta = self.tree.deletion_delta(gone, config);
                return Some(Proposal::delete(delta));
            }
            let finished = self.level.take()?;
            self.level = self.next_level(&finished, config);
            if self.level.is_none() {
                self.done = true;
                return None;
            }
        }
    }

    fn on_reduced(&mut self, reduced: Option<&Configuration>) -> bool {
        match (reduced, self.level.as_mut()) {
            (Some(_), Some(level)) => {
                // The cut passed: the prefix up to it is the new end, and
                // the prefixes below the cut are still to search.
                (level.end, level.start) = level.last;
                true
            }
            _ => false,
        }
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;
    use crate::engine::Engine;
    use crate::interfaces::{Candidate, Quiet, Verdict};
    use crate::languages::Language;
    use crate::tree::parse::parse;

    /// Forty C functions; the twenty-sixth calls `crash()` between two
    /// other statements.
    fn forty_functions() -> String {
        (0..40)
            .map(|i| match i {
                25 => {
                    format!("int f{i}(void) {{ int a; a = 1; crash(); a = 2; a = 3; return a; }}\n")
                }
                _ => format!("int f{i}(void) {{ int a; a = {i}; return a; }}\n"),
            })
            .collect()
    }

    /// Runs a tail search of texts of `min_units` units or more over C
    /// `source`, a candidate passing while it calls `crash()`; returns the
    /// result and the number of tests.
    fn search(source: &str, min_units: u32) -> (String, u32) {
        let (tree, units) = parse(Language::named("c"), source.as_bytes().to_vec()).unwrap();
        let calls = AtomicU32::new(0);
        let oracle = |c: &Candidate<'_>| {
            calls.fetch_add(1, Ordering::SeqCst);
            match String::from_utf8_lossy(c.bytes).contains("crash();") {
                true => Verdict::Interesting,
                false => Verdict::NotInteresting,
            }
        };
        let mut engine = Engine::new(&units, &oracle).with_cache(false);
        let mut policy: Box<dyn Policy> =
            Box::new(Tail::new(Arc::new(tree), TailOptions { min_units }));
        let full = Configuration::full(units.len());
        let (result, _) = engine.run(&mut policy, full, &mut Quiet);
        let text = String::from_utf8(units.render(&result)).unwrap();
        (text, calls.load(Ordering::SeqCst))
    }

    #[test]
    fn the_end_after_the_needed_statement_goes_in_a_test_per_halving() {
        let (text, calls) = search(&forty_functions(), 0);
        // The functions after the crash's are gone, and in its body the
        // statements after the call.
        assert!(text.starts_with("int f0(void)"), "{text}");
        assert!(text.contains("int f24(void)"), "{text}");
        assert!(!text.contains("f26"), "{text}");
        assert!(
            text.trim_end()
                .ends_with("int f25(void) { int a; a = 1; crash(); }"),
            "{text}"
        );
        // About log2(40) tests for the functions, log2(6) for the statements.
        assert!(calls <= 6 + 3 + 2, "{calls} tests");
    }

    #[test]
    fn a_text_that_ends_with_what_the_test_needs_loses_nothing() {
        let source = "int f(void) { return 0; }\nint g(void) { crash(); }\n";
        let (text, calls) = search(source, 0);
        assert_eq!(text, source);
        // One test per halving of the two functions, then of g's body.
        assert!((1..=3).contains(&calls), "{calls} tests");
    }

    #[test]
    fn a_text_below_the_least_size_searched_is_not_tested() {
        let source = forty_functions();
        let (text, calls) = search(&source, 1_000_000);
        assert_eq!((text, calls), (source, 0));
    }
}
