//! T-PDD: one Bayesian belief per tree node, for the whole run.
//!
//! Why: HDD rebuilds its list minimizer at every level, so nothing learned
//! about one level helps the next. T-PDD keeps a belief `p(n)` =
//! P(n survives | its parent survives) for every node and always tests the
//! single node, at any depth, whose deletion is expected to remove the most
//! tokens.
//!
//! Model (the tutorial's, after the ISSRE'23 paper):
//! * priors: σ (default 0.5) for deletable nodes, 1 for every other node
//!   (the root included, which is never a candidate);
//! * q(n), the belief that n's subtree keeps no token: 1 − p(n) for a leaf,
//!   (1 − p(n)) + p(n)·Π q(c) over n's live children otherwise;
//! * pass(d), the belief that deleting d keeps the input interesting: q(d)
//!   folded up the ancestors a₁ (the parent) … a_k (the root) by
//!   P ← (1 − p(a)) + p(a)·P;
//! * gain(d) = kept tokens under d × pass(d); the candidate is the live
//!   non-root node with p < 1 of highest gain (ties: lowest rank); the run
//!   stops when that gain is ≤ `min_gain` (default 1.0);
//! * when asked for the next proposal (so the last one failed):
//!   p(d) ← min(1, p(d) / (1 − pass(d))). A success needs no update.
//!
//! Cost: each fold step is the affine map x ↦ 1 − p(a)(1 − x), and a
//! composition of such maps is x ↦ 1 − β(1 − x) with β the product of the
//! p's composed. So pass(d) = 1 − β(d)·(1 − q(d)) with β(d) the product of
//! p over d's proper ancestors, and β(child) = β(n)·p(n) top-down. One
//! selection is therefore one bottom-up sweep for q (children multiplied in
//! child order, as the tutorial's product), one top-down sweep for β and one
//! scan for the best gain: O(nodes). Liveness and sizes are computed once per
//! pass (O(nodes + units)). The update reuses the pass(d) computed when d
//! was picked (p has not changed since).
//!
//! Deviations, both for robustness, neither reached by the tutorial's
//! example: when pass(d) = 1 (a node the model was sure could go) fails,
//! the tutorial skips the update and would propose d forever; here d is
//! pinned to 1. And a posterior within 1e-9 of 1 is rounded to 1 (in exact
//! arithmetic the update always reaches 1, since 1 − pass(d) ≤ p(d); float
//! rounding could otherwise leave d a candidate).
//!
//! Options ([`TPddOptions`]): `sigma`, `min_gain`.

use std::sync::Arc;

use crate::configuration::{Configuration, Proposal};
use crate::policy::Policy;
use crate::tree::{Liveness, NodeId, Sizes, Tree};

/// T-PDD's two parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TPddOptions {
    /// Prior that a deletable node survives.
    pub sigma: f64,
    /// Stop when the best expected gain is at most this many tokens.
    pub min_gain: f64,
}

impl Default for TPddOptions {
    fn default() -> Self {
        TPddOptions {
            sigma: 0.5,
            min_gain: 1.0,
        }
    }
}

/// What a pass knows about its configuration.
struct PassData {
    live: Liveness,
    size: Sizes,
}

/// Tree-based probabilistic delta debugging.
#[derive(Clone)]
pub(crate) struct TPdd {
    tree: Arc<Tree>,
    options: TPddOptions,
    /// Belief that each node survives given its parent does.
    p: Arc<Vec<f64>>,
    pass: Option<Arc<PassData>>,
    /// The last proposal's node and its pass probability when proposed.
    last: Option<(NodeId, f64)>,
}

impl TPdd {
    pub fn new(tree: Arc<Tree>, options: TPddOptions) -> Self {
        let p = (0..tree.len() as NodeId)
            .map(|n| {
                if tree.deletable(n) {
                    options.sigma
                } else {
                    1.0
                }
            })
            .collect();
        TPdd {
            tree,
            options,
            p: Arc::new(p),
            pass: None,
            last: None,
        }
    }

    /// The current belief that `n` survives given its parent does.
    #[cfg(test)]
    pub(crate) fn belief(&self, n: NodeId) -> f64 {
        self.p[n as usize]
    }

    /// pass(d) for every node, in the current configuration and belief.
    fn pass_probabilities(&self, pass: &PassData) -> Vec<f64> {
        let tree = &self.tree;
        let p = &self.p;
        let n = tree.len();
        // q bottom-up: children have larger ids than their parent.
        let mut q = vec![0.0f64; n];
        for id in (0..n).rev() {
            let pn = p[id];
            q[id] = if tree.is_leaf(id as NodeId) {
                1.0 - pn
            } else {
                let product: f64 = tree
                    .children(id as NodeId)
                    .filter(|&c| pass.live.is_live(c))
                    .map(|c| q[c as usize])
                    .product();
                (1.0 - pn) + pn * product
            };
        }
        // β top-down: the product of p over the proper ancestors.
        let mut beta = vec![1.0f64; n];
        for id in 1..n {
            let parent = tree.parent(id as NodeId).expect("only the root has none") as usize;
            beta[id] = beta[parent] * p[parent];
        }
        q.iter()
            .zip(&beta)
            .map(|(&q, &b)| 1.0 - b * (1.0 - q))
            .collect()
    }

    /// The best candidate and its pass probability, if its gain is worth a test.
    fn best(&self, pass: &PassData) -> Option<(NodeId, f64)> {
        let tree = &self.tree;
        let probs = self.pass_probabilities(pass);
        let mut best: Option<(NodeId, f64, f64)> = None; // (node, gain, pass)
        for id in 1..tree.len() as NodeId {
            if self.p[id as usize] >= 1.0 || !pass.live.is_live(id) {
                continue;
            }
            let pass_d = probs[id as usize];
            let gain = pass.size.get(id) as f64 * pass_d;
            let better = match best {
                None => true,
                Some((b, bg, _)) => gain > bg || (gain == bg && tree.rank(id) < tree.rank(b)),
            };
            if better {
                best = Some((id, gain, pass_d));
            }
        }
        best.filter(|&(_, gain, _)| gain > self.options.min_gain)
            .map(|(d, _, pass_d)| (d, pass_d))
    }

    /// The deletion of `d` failed: raise its belief.
    fn learn_failure(&mut self, d: NodeId, pass_d: f64) {
        let p = Arc::make_mut(&mut self.p);
        let denom = 1.0 - pass_d;
        let mut next = if denom > 0.0 {
            (p[d as usize] / denom).min(1.0)
        } else {
            1.0
        };
        if next > 1.0 - 1e-9 {
            next = 1.0;
        }
        p[d as usize] = next;
    }
}

impl Policy for TPdd {
    fn name(&self) -> String {
        "tpdd".into()
    }

    fn start_pass(&mut self, config: &Configuration) {
        self.last = None;
        let earlier = self.pass.as_deref().map(|p| &p.live);
        let (size, live) = self.tree.sizes_and_liveness(config, earlier);
        self.pass = Some(Arc::new(PassData { live, size }));
    }

    fn next_proposal(&mut self, config: &Configuration) -> Option<Proposal> {
        if let Some((d, pass_d)) = self.last.take() {
            self.learn_failure(d, pass_d);
        }
        let pass = Arc::clone(self.pass.as_ref()?);
        let (d, pass_d) = self.best(&pass)?;
        self.last = Some((d, pass_d));
        Some(Proposal::delete(self.tree.deletion_delta(&[d], config)))
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::toy::ToyBuilder;

    /// The tutorial's fold, node by node up the ancestors.
    fn folded(t: &TPdd, pass: &PassData, d: NodeId) -> f64 {
        fn q(t: &TPdd, pass: &PassData, n: NodeId) -> f64 {
            let pn = t.p[n as usize];
            if t.tree.is_leaf(n) {
                return 1.0 - pn;
            }
            let product: f64 = t
                .tree
                .children(n)
                .filter(|&c| pass.live.is_live(c))
                .map(|c| q(t, pass, c))
                .product();
            (1.0 - pn) + pn * product
        }
        let mut result = q(t, pass, d);
        let mut node = d;
        while let Some(a) = t.tree.parent(node) {
            let pa = t.p[a as usize];
            result = (1.0 - pa) + pa * result;
            node = a;
        }
        result
    }

    #[test]
    fn the_top_down_recurrence_equals_the_fold_up_the_ancestors() {
        // A generic tree, three levels of deletable nodes, odd beliefs.
        let mut b = ToyBuilder::generic();
        b.insert(0, "", &[1, 2]);
        b.insert(1, "", &[3, 4, 5]);
        b.insert(2, "", &[6]);
        b.insert(3, "a", &[]);
        b.insert(4, "", &[7, 8]);
        b.insert(5, "b", &[]);
        b.insert(6, "c", &[]);
        b.insert(7, "d", &[]);
        b.insert(8, "e", &[]);
        let (tree, units) = b.build(0);
        let tree = Arc::new(tree);
        let mut t = TPdd::new(
            Arc::clone(&tree),
            TPddOptions {
                sigma: 0.3,
                min_gain: 1.0,
            },
        );
        let p = Arc::make_mut(&mut t.p);
        for (i, v) in p.iter_mut().enumerate().skip(1) {
            *v = 0.1 + 0.08 * i as f64;
        }
        let config = Configuration::from_units(units.len(), [0, 1, 3, 4]);
        let pass = PassData {
            live: tree.liveness(&config),
            size: tree.sizes(&config),
        };
        let probs = t.pass_probabilities(&pass);
        for d in 1..tree.len() as NodeId {
            assert!((probs[d as usize] - folded(&t, &pass, d)).abs() < 1e-12);
        }
    }

    fn units_of(p: Proposal) -> Vec<u32> {
        p.delta.ranges().iter().flat_map(|r| r.clone()).collect()
    }

    #[test]
    fn a_failure_pins_the_node_and_a_certain_one_is_never_proposed() {
        let mut b = ToyBuilder::generic();
        b.insert(0, "", &[1, 2]);
        b.insert(1, "a", &[]);
        b.insert(2, "", &[3, 4]);
        b.insert(3, "b", &[]);
        b.insert(4, "c", &[]);
        let (tree, units) = b.build(0);
        let tree = Arc::new(tree);
        let config = Configuration::full(units.len());
        // Node 2: q = 0.5 + 0.5·0.25, gain 2 × 0.625 beats every single token.
        let mut t = TPdd::new(Arc::clone(&tree), TPddOptions::default());
        t.start_pass(&config);
        assert_eq!(units_of(t.next_proposal(&config).unwrap()), vec![1, 2]);
        // It failed: node 2 is pinned, every token now gains 0.5 ≤ 1.
        assert!(t.next_proposal(&config).is_none());
        assert_eq!(t.belief(2), 1.0);
        // With a lower threshold the tie between the tokens goes to the lowest rank.
        let mut t = TPdd::new(
            tree,
            TPddOptions {
                sigma: 0.5,
                min_gain: 0.1,
            },
        );
        t.start_pass(&config);
        assert_eq!(units_of(t.next_proposal(&config).unwrap()), vec![1, 2]);
        let next = t.next_proposal(&config).unwrap();
        assert_eq!(units_of(next), vec![0]);
    }
}
