//! Deletions of a few consecutive tokens that cut across the parse tree.
//!
//! The tree policies delete whole nodes and runs of sibling nodes; the token
//! passes delete tokens one at a time. Neither can delete `} g ( ) {`
//! between two functions, which leaves one function holding both bodies:
//! a few tokens whose removal keeps the text grammatical only all together,
//! and which no node holds. This pass proposes every run of `MAX_WIDTH`
//! down to 2 consecutive kept tokens (C-Reduce's token-window passes do the
//! same), skipping runs that are a node's or a run of siblings' whole kept
//! text, which the tree policies have tried already (but not every element
//! of a list at once, which they never try), and runs that would
//! unbalance the brackets (a grammar's `paired_tokens`), which no consumer
//! takes even where the parser recovers. The syntax filter rejects most
//! other runs without an oracle test.
//!
//! A pass ends at the first interesting run; the next pass goes on from the
//! same width and position, so one sweep costs at most one proposal per
//! width and kept token. It is a finishing pass: on a text of more than
//! `MAX_KEPT` tokens (a large input the tree policies could not shrink)
//! it proposes nothing, since every proposal renders the whole text.

use std::sync::Arc;

use crate::configuration::{Configuration, Delta, Proposal};
use crate::policy::Policy;
use crate::tree::{NodeId, Tree};

/// The longest run proposed. `} static int g ( int x ) {` is nine tokens.
pub(crate) const MAX_WIDTH: usize = 10;

/// The most kept tokens a text may have for runs to be proposed in it:
/// a sweep then renders it at most `MAX_WIDTH - 1` times per token (about
/// 40,000 renderings of some 30 KB; the shared bench's results after the
/// tree phase are 20–450 tokens).
pub(crate) const MAX_KEPT: u32 = 4096;

/// Proposes runs of consecutive kept tokens, widest first.
#[derive(Clone)]
pub(crate) struct TokenWindows {
    tree: Arc<Tree>,
    /// The kept units of the current pass, in order (none on a text of
    /// more than [`MAX_KEPT`] tokens); shared by speculative copies.
    kept: Arc<Vec<u32>>,
    /// The width being swept.
    width: usize,
    /// The start (an index into `kept`) of the next run to consider.
    next: usize,
}

impl TokenWindows {
    pub fn new(tree: Arc<Tree>) -> Self {
        TokenWindows {
            tree,
            kept: Arc::default(),
            width: MAX_WIDTH,
            next: 0,
        }
    }

    /// Whether deleting `run` leaves the text's brackets (`paired_tokens`
    /// in grammars/*.json) balanced as they were: pairs within the run go
    /// together, and the closing brackets left over close what its opening
    /// ones left over will (`} g ( ) {`: the `}` of `g` closes `f`'s block).
    fn keeps_brackets_balanced(&self, run: &[u32]) -> bool {
        let tree = &*self.tree;
        let mut opens = Vec::new();
        let mut closes = Vec::new();
        for &unit in run {
            match tree.grammar.bracket(tree.kind(tree.leaf_of(unit))) {
                Some((pair, true)) => opens.push(pair),
                Some((pair, false)) => match opens.last() {
                    Some(&open) if open == pair => {
                        opens.pop();
                    }
                    Some(_) => return false,
                    None => closes.push(pair),
                },
                None => {}
            }
        }
        closes.iter().eq(opens.iter().rev())
    }

    /// Whether the kept units `first..=last` are the whole kept text of one
    /// deletable node or of a run of siblings each deletable (or a list's
    /// separator): a deletion the tree policies propose themselves.
    fn follows_the_tree(&self, first: u32, last: u32, config: &Configuration) -> bool {
        let tree = &*self.tree;
        let kept = &config.kept;
        let inside = |n: NodeId| {
            let tokens = tree.tokens(n);
            !kept.any_in(tokens.start..first.max(tokens.start))
                && !kept.any_in((last + 1).min(tokens.end)..tokens.end)
        };
        // The largest node starting at `first` that ends within the run.
        let mut node = tree.leaf_of(first);
        while let Some(parent) = tree.parent(node) {
            if !inside(parent) {
                break;
            }
            node = parent;
        }
        let Some(parent) = tree.parent(node) else {
            return true; // the whole text
        };
        let deletable = |n: NodeId| tree.deletable(n) || tree.is_separator_child(parent, n);
        if !deletable(node) {
            return false;
        }
        if tree.tokens(node).end > last {
            return true;
        }
        // Then its next siblings with kept tokens, each deletable and
        // wholly inside, up to one that ends the run: unless they are all
        // the parent's deletable children with kept tokens (every element
        // of a list), which the tree policies never delete at once (ddmin
        // takes the empty list to fail).
        let element = |n: NodeId| {
            tree.present(n, config) && tree.deletable(n) && !tree.is_separator_child(parent, n)
        };
        for sibling in tree.later_siblings(node) {
            if !tree.present(sibling, config) {
                continue;
            }
            if !deletable(sibling) || !inside(sibling) {
                return false;
            }
            if tree.tokens(sibling).end > last {
                let before = tree.children(parent).take_while(|&c| c != node);
                return tree.later_siblings(sibling).chain(before).any(element);
            }
        }
        false
    }
}

impl Policy for TokenWindows {
    fn name(&self) -> String {
        "windows".into()
    }

    fn start_pass(&mut self, config: &Configuration) {
        self.kept = Arc::new(if config.len() <= MAX_KEPT {
            config.kept.iter().collect()
        } else {
            Vec::new()
        });
    }

    fn next_proposal(&mut self, config: &Configuration) -> Option<Proposal> {
        let kept = Arc::clone(&self.kept);
        while self.width >= 2 {
            while self.next + self.width <= kept.len() {
                let run = &kept[self.next..self.next + self.width];
                self.next += 1;
                let (first, last) = (run[0], run[run.len() - 1]);
                if !self.keeps_brackets_balanced(run) || self.follows_the_tree(first, last, config)
                {
                    continue;
                }
                return Some(Proposal::delete(Delta::from_units(run.iter().copied())));
            }
            self.width -= 1;
            self.next = 0;
        }
        None
    }

    /// After a deletion the same width goes on where the deleted run
    /// started (the tokens after it have moved there).
    fn on_reduced(&mut self, reduced: Option<&Configuration>) -> bool {
        if reduced.is_some() {
            self.next = self.next.saturating_sub(1);
            true
        } else {
            false
        }
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::languages::Language;
    use crate::units::Units;

    fn parse(text: &str) -> (Arc<Tree>, Units) {
        let (tree, units) =
            crate::tree::parse::parse(Language::named("c"), text.as_bytes().to_vec())
                .expect("the C parser is built in");
        (Arc::new(tree), units)
    }

    /// The text of the units `proposal` deletes, tokens joined by spaces.
    fn run_text(units: &Units, proposal: &Proposal) -> String {
        let tokens: Vec<String> = proposal
            .delta
            .ranges()
            .iter()
            .flat_map(|r| r.clone())
            .map(|u| String::from_utf8_lossy(units.text(u)).trim().to_string())
            .collect();
        tokens.join(" ")
    }

    /// Every run the pass proposes on `text` (each one failing), as text.
    fn proposed_runs(text: &str) -> Vec<String> {
        let (tree, units) = parse(text);
        let config = Configuration::full(units.len());
        let mut windows = TokenWindows::new(tree);
        windows.start_pass(&config);
        std::iter::from_fn(|| windows.next_proposal(&config))
            .map(|p| run_text(&units, &p))
            .collect()
    }

    #[test]
    fn runs_that_cross_node_boundaries_are_proposed_widest_first() {
        let runs = proposed_runs("f() { } g() { f(); }");
        let at = |run: &str| runs.iter().position(|r| r == run);
        // The boundary between the two functions, which merges them.
        let merge = at("} g ( ) {").expect("the merging run is proposed");
        // Widest first: every run before it is at least as wide.
        assert!(runs[..merge].iter().all(|r| r.split(' ').count() >= 5));
        assert_eq!(runs.last().unwrap().split(' ').count(), 2);
        // Two statements' halves: no node holds them.
        let runs = proposed_runs("f() { a = 1; b = 2; }");
        assert!(runs.iter().any(|r| r == "1 ; b ="), "{runs:?}");
    }

    #[test]
    fn runs_that_are_deletable_nodes_or_sibling_runs_are_left_to_the_tree_policies() {
        let runs = proposed_runs("int a; int b; int c;");
        for whole in ["int a ;", "int a ; int b ;", "int b ; int c ;"] {
            assert!(!runs.iter().any(|r| r == whole), "{whole} proposed");
        }
        for across in ["; int", "a ; int b", "a ;"] {
            assert!(runs.iter().any(|r| r == across), "{across} not in {runs:?}");
        }
        // An argument with its separator is what deleting the argument
        // deletes.
        let runs = proposed_runs("f(a, b); g(c);");
        assert!(!runs.iter().any(|r| r == ", b"), "{runs:?}");
        assert!(runs.iter().any(|r| r == "b ) ; g ( c"), "{runs:?}");
    }

    #[test]
    fn every_element_of_a_list_at_once_is_proposed() {
        // The tree policies delete some of a list's elements, never all:
        // `f(int, char *, ...)` to `f()` is the window's.
        let runs = proposed_runs("int f(int, char *, ...); g(a, b, c);");
        for all in ["int , char * , ...", "a , b , c"] {
            assert!(runs.iter().any(|r| r == all), "{all} not in {runs:?}");
        }
        for some in ["int , char *", "b , c"] {
            assert!(!runs.iter().any(|r| r == some), "{some} proposed");
        }
    }

    #[test]
    fn runs_that_would_unbalance_the_brackets_are_not_proposed() {
        let runs = proposed_runs("f(a, b); g(c);");
        for unbalanced in ["( a", "b ) ;", "f ( a", "; g ("] {
            assert!(
                !runs.iter().any(|r| r == unbalanced),
                "{unbalanced} proposed"
            );
        }
        // A closing bracket then an opening one of the same pair: the
        // closing bracket after the run takes the place of the deleted one.
        let runs = proposed_runs("f() { } g() { x; }");
        assert!(runs.iter().any(|r| r == "} g ( ) {"), "{runs:?}");
        let runs = proposed_runs("f(a, b); g(c);");
        assert!(runs.iter().any(|r| r == ") ; g ("), "{runs:?}");
        let runs = proposed_runs("f() { a[1]; }");
        assert!(!runs.iter().any(|r| r == "] ; }"), "{runs:?}");
        assert!(!runs.iter().any(|r| r == ") {"), "{runs:?}");
        assert!(runs.iter().any(|r| r == "[ 1 ]"), "{runs:?}");
    }

    #[test]
    fn a_pass_goes_on_where_the_last_deletion_started() {
        let (tree, units) = parse("f() { } g() { f(); f(); }");
        let mut config = Configuration::full(units.len());
        let mut windows = TokenWindows::new(tree);
        windows.start_pass(&config);
        let merge = std::iter::from_fn(|| windows.next_proposal(&config))
            .find(|p| run_text(&units, p) == "} g ( ) {")
            .expect("the merge is proposed");
        config = config.apply(&merge).unwrap();
        assert!(windows.on_reduced(Some(&config)));
        assert_eq!(units.render(&config), b"f() { f(); f(); }");
        windows.start_pass(&config);
        // The merge started at the fifth token; the next run is the five
        // from there, not five from the start of the text.
        let next = windows.next_proposal(&config).expect("more runs");
        assert_eq!(run_text(&units, &next), "f ( ) ; f");
        assert!(!windows.on_reduced(None));
    }

    #[test]
    fn a_text_too_long_for_a_finishing_pass_gets_no_runs() {
        let statements = "x = 1; ".repeat(MAX_KEPT as usize / 4 + 1);
        let (tree, units) = parse(&format!("f() {{ {statements}}}"));
        assert!(units.len() > MAX_KEPT);
        let full = Configuration::full(units.len());
        let mut windows = TokenWindows::new(Arc::clone(&tree));
        windows.start_pass(&full);
        assert!(windows.next_proposal(&full).is_none());
        // The same text cut below the bound gets them.
        let short = Configuration::from_units(units.len(), 0..MAX_KEPT - 1);
        let mut windows = TokenWindows::new(tree);
        windows.start_pass(&short);
        assert!(windows.next_proposal(&short).is_some());
    }
}
