//! HDD: hierarchical delta debugging, one tree level at a time.
//!
//! Why: a flat minimizer cuts the input anywhere; HDD only ever removes
//! whole subtrees, coarse levels first, so one test high in the tree can drop
//! a whole function and most candidates stay grammatical.
//!
//! How: starting at `start_level`, the level's elements are the *present*
//! nodes at that depth (nodes with at least one kept token), filtered by
//! [`Tree::deletable`], ordered by [`Tree::rank`]. A fresh list minimizer
//! (`Minimizer::build`) is built per level and kept across that level's
//! passes, so a learning minimizer (ProbDD) keeps its model while the level
//! lasts. Each selection it makes becomes [`Tree::deletion_delta`] of the
//! selected nodes. When the minimizer's `on_reduced` reports the level
//! minimal, HDD descends; it stops after [`Tree::max_depth`]. Element weights
//! (read by WDD) are the nodes' kept-token counts. Present rather than
//! live, as in the tutorial: after a replacement (say, a Perses phase that
//! ran first) a dead wrapper still holds the promoted node's tokens, and
//! deleting the wrapper is how the slot it fills gets emptied.
//!
//! Guarantee: each level ends minimal in the inner minimizer's sense
//! (1-minimal for ddmin) given the levels above it; plain HDD never goes
//! back up, so a node may become removable after a deeper level changed.
//! With `fixpoint` (HDD*) sweeps restart at the start level until a whole
//! sweep removes nothing, so with a 1-minimal inner minimizer no single
//! candidate node can be removed from the result (1-tree-minimality).
//!
//! Cost: computing a level walks down from the root, skipping subtrees with
//! no kept token, so it costs O(present nodes at depth ≤ L) plus one
//! word-level range check per visited child (the ranges at one depth are
//! disjoint, so that is O(units/64) per depth); then O(k log k) to sort the
//! level's k nodes by rank. A pass does this once, plus once more in
//! `on_reduced` for the new configuration; each proposal costs what the
//! inner minimizer costs plus O(selected nodes log) for the delta.
//!
//! Options ([`HddOptions`]): `start_level` (1 by default: level 0 holds only
//! the root, which is never deleted; the Perses and T-PDD chapters start at
//! 0, which is harmless because the root is filtered out), `fixpoint` (HDD*)
//! and `any_node` (the tutorial's "Delete anything?" variant: every present
//! node but the root is a candidate, deletable or not — most such candidates
//! break the syntax, so the oracle or a syntax filter must reject them).
//!
//! Deviation from the tutorial's code, with no effect on its numbers: a level
//! with no candidate is skipped without building a minimizer (the tutorial
//! runs a pass that proposes nothing, which costs no test either).

use std::sync::Arc;

use crate::configuration::{Configuration, Proposal};
use crate::policy::{ElemList, ListMinimizer, Minimizer, MinimizerSettings, Policy, Selection};
use crate::tree::{NodeId, Tree};

/// How HDD walks the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HddOptions {
    /// The first level minimized (the root is level 0).
    pub start_level: u32,
    /// HDD*: after the deepest level, start again until a sweep removes nothing.
    pub fixpoint: bool,
    /// Let every present node but the root be deleted, not only deletable ones.
    pub any_node: bool,
}

impl Default for HddOptions {
    fn default() -> Self {
        HddOptions {
            start_level: 1,
            fixpoint: false,
            any_node: false,
        }
    }
}

/// Hierarchical delta debugging over a parse tree.
#[derive(Clone)]
pub(crate) struct Hdd {
    tree: Arc<Tree>,
    inner: Minimizer,
    settings: MinimizerSettings,
    options: HddOptions,
    /// The level being minimized.
    level: u32,
    /// The current level's minimizer (built on the level's first pass).
    minimizer: Option<Box<dyn ListMinimizer>>,
    /// This pass's elements: the level's candidate nodes in rank order.
    nodes: Arc<Vec<NodeId>>,
    /// Whether the current sweep (start level to the deepest) removed anything.
    sweep_removed: bool,
    /// No level is left: the run is over.
    finished: bool,
}

impl Hdd {
    pub fn new(
        tree: Arc<Tree>,
        inner: Minimizer,
        settings: MinimizerSettings,
        options: HddOptions,
    ) -> Self {
        Hdd {
            tree,
            inner,
            settings,
            options,
            level: options.start_level,
            minimizer: None,
            nodes: Arc::new(Vec::new()),
            sweep_removed: false,
            finished: false,
        }
    }

    /// The level's candidates in `config`, in rank order.
    fn level_nodes(&self, config: &Configuration) -> Vec<NodeId> {
        level_nodes(&self.tree, self.level, config, self.options.any_node)
    }

    fn elems_of(&self, nodes: &[NodeId], config: &Configuration) -> ElemList {
        ElemList {
            ids: nodes.iter().map(|&n| self.tree.rank(n)).collect(),
            weights: nodes
                .iter()
                .map(|&n| self.tree.size(n, config) as u64)
                .collect(),
        }
    }

    /// Moves to the next level; at the bottom, wraps around for HDD* when
    /// the sweep removed something. Returns false when the run is over.
    fn descend(&mut self) -> bool {
        self.level += 1;
        self.minimizer = None;
        if self.level <= self.tree.max_depth() {
            return true;
        }
        if self.options.fixpoint && self.sweep_removed {
            self.level = self.options.start_level;
            self.sweep_removed = false;
            return true;
        }
        false
    }
}

/// The present nodes at depth `level` that HDD may delete, in rank order:
/// deletable ones, or (with `any_node`) all but the root. Walks down from
/// the root and never enters a subtree without kept tokens, so the cost is
/// O(present nodes at depth ≤ `level`), not O(kept tokens × depth).
pub(crate) fn level_nodes(
    tree: &Tree,
    level: u32,
    config: &Configuration,
    any_node: bool,
) -> Vec<NodeId> {
    let mut out = Vec::new();
    if tree.is_empty() || !tree.present(tree.root(), config) {
        return out;
    }
    // Nodes with their depths.
    let mut stack = vec![(tree.root(), 0)];
    while let Some((n, depth)) = stack.pop() {
        if depth == level {
            if n != tree.root() && (any_node || tree.deletable(n)) {
                out.push(n);
            }
            continue;
        }
        // Pushed in reverse so that the first child is popped first.
        let at = stack.len();
        stack.extend(
            tree.children(n)
                .filter(|&c| tree.present(c, config))
                .map(|c| (c, depth + 1)),
        );
        stack[at..].reverse();
    }
    out.sort_unstable_by_key(|&n| tree.rank(n));
    out
}

impl Policy for Hdd {
    fn name(&self) -> String {
        let mut name = String::from("hdd");
        if self.options.fixpoint {
            name.push('*');
        }
        if self.options.any_node {
            name.push_str("-any");
        }
        format!("{name}+{}", self.inner.name())
    }

    fn start_pass(&mut self, config: &Configuration) {
        if self.finished {
            return;
        }
        // A sweep may wrap around at most once without removing anything.
        loop {
            if self.level > self.tree.max_depth() && !self.descend() {
                self.finished = true;
                self.nodes = Arc::new(Vec::new());
                return;
            }
            let nodes = self.level_nodes(config);
            if nodes.is_empty() {
                if !self.descend() {
                    self.finished = true;
                    self.nodes = Arc::new(Vec::new());
                    return;
                }
                continue;
            }
            let elems = self.elems_of(&nodes, config);
            let minimizer = self
                .minimizer
                .get_or_insert_with(|| self.inner.build(&self.settings));
            minimizer.start_pass(&elems);
            self.nodes = Arc::new(nodes);
            return;
        }
    }

    fn next_proposal(&mut self, config: &Configuration) -> Option<Proposal> {
        if self.finished {
            return None;
        }
        let selection: Selection = self.minimizer.as_mut()?.next_deletion()?;
        let mut chosen: Vec<NodeId> = selection
            .iter()
            .flat_map(|r| r.clone())
            .map(|p| self.nodes[p as usize])
            .collect();
        // `deletion_delta` wants ascending ids (siblings together).
        chosen.sort_unstable();
        Some(Proposal::delete(self.tree.deletion_delta(&chosen, config)))
    }

    fn on_reduced(&mut self, reduced: Option<&Configuration>) -> bool {
        if self.finished {
            return false;
        }
        if reduced.is_some() {
            self.sweep_removed = true;
        }
        let elems = reduced.map(|c| {
            let nodes = self.level_nodes(c);
            self.elems_of(&nodes, c)
        });
        let not_minimal = match self.minimizer.as_mut() {
            Some(m) => m.on_reduced(elems.as_ref()),
            None => false,
        };
        if not_minimal {
            return true;
        }
        if self.descend() {
            true
        } else {
            self.finished = true;
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
    use crate::tree::toy::ToyBuilder;

    fn node_of_rank(tree: &Tree, rank: u32) -> NodeId {
        (0..tree.len() as NodeId)
            .find(|&n| tree.rank(n) == rank)
            .unwrap()
    }

    #[test]
    fn a_level_holds_the_present_nodes_at_that_depth_in_rank_order() {
        // 0 ─┬─ 5 ─┬─ 7 "a"
        //    │     └─ 6 "b"
        //    ├─ 1 "c"
        //    └─ 2 ─── 3 "d"
        let mut b = ToyBuilder::generic();
        b.insert(0, "", &[5, 1, 2]);
        b.insert(5, "", &[7, 6]);
        b.insert(7, "a", &[]);
        b.insert(6, "b", &[]);
        b.insert(1, "c", &[]);
        b.insert(2, "", &[3]);
        b.insert(3, "d", &[]);
        let (tree, units) = b.build(0);
        let full = Configuration::full(units.len());
        let ranks = |nodes: Vec<NodeId>| nodes.iter().map(|&n| tree.rank(n)).collect::<Vec<_>>();
        assert_eq!(
            ranks(level_nodes(&tree, 0, &full, false)),
            Vec::<u32>::new()
        );
        assert_eq!(ranks(level_nodes(&tree, 0, &full, true)), Vec::<u32>::new());
        assert_eq!(ranks(level_nodes(&tree, 1, &full, false)), vec![1, 2, 5]);
        assert_eq!(ranks(level_nodes(&tree, 2, &full, false)), vec![3, 6, 7]);
        // Drop "a" and "d": node 7 and the whole of node 2 are gone.
        let a = tree.tokens(node_of_rank(&tree, 7)).start;
        let d = tree.tokens(node_of_rank(&tree, 3)).start;
        let config =
            Configuration::from_units(units.len(), (0..units.len()).filter(|&u| u != a && u != d));
        assert_eq!(ranks(level_nodes(&tree, 1, &config, false)), vec![1, 5]);
        assert_eq!(ranks(level_nodes(&tree, 2, &config, false)), vec![6]);
        assert_eq!(
            ranks(level_nodes(&tree, 3, &config, false)),
            Vec::<u32>::new()
        );
    }
}
