//! ProbDD (probabilistic delta debugging), as the tutorial builds it.
//!
//! Every element has a belief p that it is essential (survives into the
//! result), starting at the prior `p0`. Each step sorts the elements by p
//! (ascending, ties by position) and proposes deleting the prefix of length
//! k that maximises the expected number of deleted elements,
//! k · ∏(1 − p) over the prefix (the shortest such prefix on ties).
//! Being asked for the next proposal means that deletion failed, so every
//! element in it gets the Bayesian update p := min(1, p / (1 − ∏(1 − p))); a
//! failed singleton goes straight to p = 1 (set exactly, so that rounding
//! cannot leave it just below 1 and have it retried). A pass ends when a
//! deletion succeeds or every element has p ≥ 1; the beliefs persist
//! across passes by element id (elements no longer present are forgotten,
//! new ones start at `p0`), so the whole run is one ProbDD run.
//!
//! **Guarantee:** the result is interesting, but it is not 1-minimal in
//! general: an element pinned at p = 1 is never tried again, even after
//! later deletions might have made it removable. With a monotone oracle that
//! cannot happen and the result is 1-minimal. (The tutorial calls its
//! version 1-minimal because the loop reaches a fixpoint; the fixpoint is
//! ProbDD's own stop, not a re-check, so the claim does not hold.)
//!
//! **Cost:** O(n) tests in the worst case (the paper's Theorem 4.1).
//!
//! **Parameters:** `p0` (`--p0`, default 0.1), the prior belief that an
//! element is essential — about the fraction of the input expected to
//! remain. Small p0 means large first deletions. It is clamped to
//! [1e-9, 1]; p0 = 1 stops at once.
//!
//! Like the tutorial (and the paper), this stops only at p ≥ 1; the
//! artifact's and Perses' extra retirement of elements above p = 0.8 is not
//! done, and ties are broken by position instead of randomly.

use std::cmp::Ordering;

use crate::policy::{ElemList, ListMinimizer, Selection, carry_state, merge_front, selection_of};

/// ProbDD's state: one belief per element of the pass, and the elements
/// kept sorted by belief so that a proposal is always a prefix.
#[derive(Clone, Debug)]
pub struct ProbDd {
    p0: f64,
    /// This pass's element ids, to carry beliefs into the next pass.
    ids: Vec<u32>,
    /// `p[i]`: the belief that element `i` of this pass is essential.
    p: Vec<f64>,
    /// Every position, sorted by `(p, position)`.
    order: Vec<u32>,
    /// Length of the prefix of `order` proposed last and not yet judged (0: none).
    pending: usize,
    /// Working space for [`carry_state`] (always empty in between).
    scratch: Vec<u32>,
}

/// How positions `a` and `b` sort: by belief, then by position.
fn by_belief(p: &[f64], a: u32, b: u32) -> Ordering {
    p[a as usize].total_cmp(&p[b as usize]).then(a.cmp(&b))
}

impl ProbDd {
    pub fn new(p0: f64) -> Self {
        let p0 = if p0.is_nan() {
            0.1
        } else {
            p0.clamp(1e-9, 1.0)
        };
        ProbDd {
            p0,
            ids: Vec::new(),
            p: Vec::new(),
            order: Vec::new(),
            pending: 0,
            scratch: Vec::new(),
        }
    }

    /// The length of the prefix of `order` with the greatest expected gain.
    fn best_prefix(&self) -> usize {
        let most = self.order.len() as f64;
        let mut survive = 1.0; // ∏(1 − p) over the prefix
        let (mut best_k, mut best_gain) = (0, 0.0);
        for (i, &pos) in self.order.iter().enumerate() {
            survive *= 1.0 - self.p[pos as usize];
            let gain = (i + 1) as f64 * survive;
            if gain > best_gain {
                (best_k, best_gain) = (i + 1, gain);
            }
            // No longer prefix can gain more than `most · survive`.
            if most * survive <= best_gain {
                break;
            }
        }
        best_k
    }

    /// Deleting the first `k` elements of `order` failed: raise their beliefs.
    fn learn_failure(&mut self, k: usize) {
        let ProbDd { p, order, .. } = self;
        let prefix = &order[..k];
        if let [only] = prefix {
            p[*only as usize] = 1.0;
        } else {
            let survive: f64 = prefix.iter().map(|&i| 1.0 - p[i as usize]).product();
            let denom = 1.0 - survive;
            if denom > 0.0 {
                for &i in prefix {
                    p[i as usize] = (p[i as usize] / denom).min(1.0);
                }
            }
        }
        // The update keeps the prefix's order except among beliefs that
        // became equal (clamped at 1); a stable sort of the nearly sorted
        // prefix fixes that, and a merge puts it back among the others.
        order[..k].sort_by(|&a, &b| by_belief(p, a, b));
        merge_front(order, k, |a, b| by_belief(p, a, b).is_lt());
    }
}

impl ListMinimizer for ProbDd {
    fn name(&self) -> String {
        "probdd".into()
    }

    fn start_pass(&mut self, elems: &ElemList) {
        let ProbDd {
            p0,
            ids,
            p,
            order,
            scratch,
            ..
        } = self;
        if !carry_state(ids, p, order, &elems.ids, *p0, scratch) {
            order.extend(0..p.len() as u32);
            order.sort_unstable_by(|&a, &b| by_belief(p, a, b));
        }
        self.pending = 0;
    }

    fn next_deletion(&mut self) -> Option<Selection> {
        if self.pending > 0 {
            self.learn_failure(self.pending);
            self.pending = 0;
        }
        let &first = self.order.first()?;
        if self.p[first as usize] >= 1.0 {
            return None; // every element is believed essential
        }
        let k = self.best_prefix();
        self.pending = k;
        Some(selection_of(self.order[..k].to_vec()))
    }

    fn clone_box(&self) -> Box<dyn ListMinimizer> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)] // one-block selections
mod tests {
    use super::*;
    use crate::policy::testing::run_flat;

    #[test]
    fn probdd_keeps_2_and_7_in_12_calls() {
        let (kept, calls) = run_flat(Box::new(ProbDd::new(0.1)), 8, |keeps| keeps(1) && keeps(6));
        assert_eq!(kept, vec![1, 6]);
        assert_eq!(calls, 12);
    }

    /// Drives a ProbDD by hand and returns its first proposals (as positions).
    fn proposals(p0: f64, len: u32, failures: usize) -> Vec<Selection> {
        let mut m = ProbDd::new(p0);
        m.start_pass(&ElemList::unweighted((0..len).collect()));
        (0..failures).map_while(|_| m.next_deletion()).collect()
    }

    #[test]
    fn the_first_proposal_deletes_everything_and_failures_shrink_the_next() {
        // With p0 = 0.1 the gain k · 0.9^k is largest at k = 9 or 10 (equal
        // up to rounding), so 8 elements are all proposed first; the trace
        // then matches the tutorial's.
        assert_eq!(
            proposals(0.1, 8, 4),
            vec![vec![0..8], vec![0..5], vec![5..8], vec![0..3]]
        );
    }

    #[test]
    fn beliefs_carry_across_passes_by_id() {
        let mut m = ProbDd::new(0.1);
        m.start_pass(&ElemList::unweighted(vec![10, 11, 12]));
        assert_eq!(m.next_deletion(), Some(vec![0..3]));
        assert_eq!(m.next_deletion(), Some(vec![0..2])); // {10, 11}: fails
        let raised = m.p[0];
        assert!(raised > 0.1);
        // Pretend {12} went instead; 13 is new.
        m.start_pass(&ElemList::unweighted(vec![10, 11, 13]));
        assert_eq!(m.p, vec![raised, raised, 0.1]);
        assert_eq!(m.order, vec![2, 0, 1]);
        // Deleting 13 went (a success); 10 and 11 keep their beliefs.
        m.start_pass(&ElemList::unweighted(vec![10, 11]));
        assert_eq!(m.p, vec![raised, raised]);
        assert_eq!(m.order, vec![0, 1]);
    }

    #[test]
    fn a_failed_singleton_is_pinned_and_the_pass_ends_when_all_are() {
        let mut m = ProbDd::new(0.5);
        m.start_pass(&ElemList::unweighted(vec![4, 5]));
        // Gains 0.5 and 2 · 0.25: a tie keeps the shorter prefix.
        assert_eq!(m.next_deletion(), Some(vec![0..1]));
        assert_eq!(m.next_deletion(), Some(vec![1..2]));
        assert_eq!(m.p, vec![1.0, 0.5]);
        assert_eq!(m.next_deletion(), None);
        assert_eq!(m.p, vec![1.0, 1.0]);
    }
}
