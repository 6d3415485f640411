//! CDD (counter-based delta debugging, ICSE'25), as in the paper's artifact.
//!
//! CDD is ProbDD with the probabilities replaced by what they amount to:
//! per-element counters of failed deletions. It first tries deleting
//! everything (once per minimizer). Then each step takes the smallest counter
//! c among the undecided elements, computes the deletion size
//! s = round(−1 / ln(1 − p0)) shrunk c times by s := ⌊s · (1 − 1/e)⌋ and
//! clamped to [1, number of undecided], and proposes deleting the first s
//! undecided elements ordered by (counter, position). If that would delete
//! the whole list again, it counts as a failure without a test. A failure
//! (being asked for the next proposal) adds 1 to the counter of each element
//! in the deletion, and a failed single element is decided: kept for good. A
//! success removes the elements. Counters and decisions persist across
//! passes by element id; the minimizer is done when no element is undecided.
//!
//! **Guarantee:** the result is interesting, but not 1-minimal in general:
//! an element kept after its deletion failed once is never tried again. With
//! a monotone oracle it is 1-minimal.
//!
//! **Cost:** O(n) tests in the worst case for a fixed `p0`: at each counter
//! value c, failures move blocks of s_c elements up a counter, and once the
//! size is 1 every failure decides an element.
//!
//! **Parameters:** `p0` (`--p0`, default 0.1), the prior of ProbDD from
//! which the deletion sizes derive (p0 = 0.1 gives 9, 5, 3, then 1). It is
//! clamped to [1e-9, 1].

use crate::policy::{ElemList, ListMinimizer, Selection, carry_state, merge_front, selection_of};

/// The counter of an element decided to stay.
const KEPT: u32 = u32::MAX;

/// What the last proposal was, while it is not yet judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    Nothing,
    /// The whole list (the first proposal).
    Everything,
    /// The first `k` entries of the order.
    Prefix(usize),
}

/// CDD's state: one counter per element of the pass.
#[derive(Clone, Debug)]
pub struct Cdd {
    p0: f64,
    /// Whether deleting everything has been tried.
    tried_everything: bool,
    /// This pass's element ids, to carry counters into the next pass.
    ids: Vec<u32>,
    /// `counter[i]`: failed deletions of element `i` of this pass, or [`KEPT`].
    counter: Vec<u32>,
    /// The undecided positions, sorted by `(counter, position)`.
    order: Vec<u32>,
    pending: Pending,
    /// Working space for [`carry_state`] (always empty in between).
    scratch: Vec<u32>,
}

impl Cdd {
    pub fn new(p0: f64) -> Self {
        let p0 = if p0.is_nan() {
            0.1
        } else {
            p0.clamp(1e-9, 1.0)
        };
        Cdd {
            p0,
            tried_everything: false,
            ids: Vec::new(),
            counter: Vec::new(),
            order: Vec::new(),
            pending: Pending::Nothing,
            scratch: Vec::new(),
        }
    }

    /// How many elements to delete when the smallest counter is `cmin`
    /// (before clamping to the number of undecided elements).
    fn deletion_size(&self, cmin: u32) -> usize {
        let shrink = 1.0 - (-1.0f64).exp();
        let mut size = (-1.0 / (1.0 - self.p0).ln()).round();
        for _ in 0..cmin {
            if size < 1.0 {
                break;
            }
            size = (size * shrink).floor();
        }
        size.max(1.0) as usize
    }

    /// Deleting the first `k` undecided elements failed.
    fn learn_failure(&mut self, k: usize) {
        let Cdd { counter, order, .. } = self;
        if k == 1 {
            counter[order[0] as usize] = KEPT;
            order.remove(0);
            return;
        }
        for &i in &order[..k] {
            counter[i as usize] = (counter[i as usize] + 1).min(KEPT - 1);
        }
        // Adding 1 to all of them keeps the prefix sorted.
        merge_front(order, k, |a, b| by_counter(counter, a, b));
    }
}

/// Whether position `a` sorts before position `b`: by counter, then position.
fn by_counter(counter: &[u32], a: u32, b: u32) -> bool {
    (counter[a as usize], a) < (counter[b as usize], b)
}

impl ListMinimizer for Cdd {
    fn name(&self) -> String {
        "cdd".into()
    }

    fn start_pass(&mut self, elems: &ElemList) {
        let Cdd {
            ids,
            counter,
            order,
            scratch,
            ..
        } = self;
        if !carry_state(ids, counter, order, &elems.ids, 0, scratch) {
            order.extend((0..counter.len() as u32).filter(|&i| counter[i as usize] != KEPT));
            order.sort_unstable_by_key(|&i| (counter[i as usize], i));
        }
        self.pending = Pending::Nothing;
    }

    fn next_deletion(&mut self) -> Option<Selection> {
        if let Pending::Prefix(k) = self.pending {
            self.learn_failure(k);
        }
        self.pending = Pending::Nothing;
        let len = self.ids.len();
        if !self.tried_everything && len > 0 {
            self.tried_everything = true;
            self.pending = Pending::Everything;
            let everything = 0..len as u32;
            return Some(vec![everything]);
        }
        loop {
            let &first = self.order.first()?;
            let cmin = self.counter[first as usize];
            let size = self.deletion_size(cmin).min(self.order.len());
            if size == len {
                // Everything again: known to fail.
                self.learn_failure(size);
                continue;
            }
            self.pending = Pending::Prefix(size);
            return Some(selection_of(self.order[..size].to_vec()));
        }
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
    fn cdd_keeps_2_and_7_in_10_calls() {
        // Deleting everything fails (1). Sizes for p0 = 0.1: 9, 5, 3, 1.
        // Counter 0, size 9 → 8 = everything again: all counters become 1
        // untested. Size 5: {1..5} fails (2); {6,7,8,1,2} fails (3); counter
        // 2 now smallest, size 3: {3,4,5} goes (4). Over [1,2,6,7,8]:
        // {6,7,8} fails (5); size 1: 1 goes (6), 2 stays (7), 6 goes (8),
        // 7 stays (9), 8 goes (10); nothing is undecided.
        let (kept, calls) = run_flat(Box::new(Cdd::new(0.1)), 8, |keeps| keeps(1) && keeps(6));
        assert_eq!(kept, vec![1, 6]);
        assert_eq!(calls, 10);
    }

    #[test]
    fn deletion_sizes_shrink_by_1_minus_1_over_e() {
        let cdd = Cdd::new(0.1);
        let sizes: Vec<usize> = (0..6).map(|c| cdd.deletion_size(c)).collect();
        assert_eq!(sizes, vec![9, 5, 3, 1, 1, 1]);
        assert_eq!(Cdd::new(0.25).deletion_size(0), 3);
        assert_eq!(Cdd::new(1.0).deletion_size(0), 1);
    }

    #[test]
    fn everything_is_tried_once_and_a_single_element_is_then_kept_untested() {
        let mut m = Cdd::new(0.1);
        m.start_pass(&ElemList::unweighted(vec![7]));
        assert_eq!(m.next_deletion(), Some(vec![0..1]));
        assert_eq!(m.next_deletion(), None);
        assert_eq!(m.counter, vec![KEPT]);
        assert!(!m.on_reduced(None));
    }

    #[test]
    fn counters_and_decisions_carry_across_passes_by_id() {
        let mut m = Cdd::new(0.1);
        m.start_pass(&ElemList::unweighted(vec![3, 4, 5, 6]));
        assert_eq!(m.next_deletion(), Some(vec![0..4])); // everything: fails
        // Size 9 → 4 = everything: counted as failed; then size 5 → 4 again;
        // then size 3.
        assert_eq!(m.next_deletion(), Some(vec![0..3]));
        assert_eq!(m.counter, vec![2, 2, 2, 2]);
        // That went: only 6 is left, with its counter.
        m.start_pass(&ElemList::unweighted(vec![6]));
        assert_eq!(m.counter, vec![2]);
        assert_eq!(m.order, vec![0]);
        // A new list that is not a subsequence goes through the hash map.
        m.start_pass(&ElemList::unweighted(vec![9, 6]));
        assert_eq!(m.counter, vec![0, 2]);
        assert_eq!(m.order, vec![0, 1]);
    }
}
