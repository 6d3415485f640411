//! WDD (weighted delta debugging), as the tutorial builds it: ddmin with chunks of equal weight.
//!
//! Elements carry a weight (their size: bytes of a unit, tokens under a tree
//! node, from `ElemList::weights`). WDD runs ddmin's schedule unchanged —
//! granularities n = 2, 4, 8, … up to the list length, at each first keeping
//! only each chunk and then dropping each chunk, any success ending the pass
//! and the next pass restarting at n = 2 — but cuts the n chunks so that
//! each carries about the same total weight rather than the same number of
//! elements. A heavy element (likely to hold the failure) then ends up alone
//! in a chunk early, instead of being bundled with light ones into deletions
//! that were bound to fail.
//!
//! The cut walks the list left to right with a target share of total/n and
//! closes the current chunk before an element when the chunk's weight is
//! already at least as close to the share as it would be with that element
//! (ties close), as long as fewer than n − 1 chunks are closed; chunks are
//! contiguous and never empty, and there may be fewer than n of them. At
//! n ≥ len every element is its own chunk.
//!
//! **Guarantee:** 1-minimal. The paper ends with an explicit 1-minimality
//! check (delete single elements until none goes); here it is subsumed,
//! because a pass that finds nothing has reached n = len and tried deleting
//! every single element.
//!
//! **Cost:** worst case O(n²) tests, like ddmin.
//!
//! **Parameters:** none (the weights come with the elements).
//!
//! This is the tutorial's WDD, not the paper's, which starts from one
//! partition, splits every partition into two weight-balanced halves per
//! round and handles subset and complement successes differently.

use std::sync::Arc;

use crate::policy::ddmin::Schedule;
use crate::policy::{ElemList, ListMinimizer, Selection};

/// WDD: ddmin's schedule over a weight-balanced cut.
#[derive(Clone, Debug)]
pub(crate) struct Wdd {
    schedule: Schedule,
    /// This pass's element weights.
    weights: Arc<[u64]>,
}

impl Default for Wdd {
    fn default() -> Self {
        Self::new()
    }
}

impl Wdd {
    pub fn new() -> Self {
        Wdd {
            schedule: Schedule::new(),
            weights: Arc::from(Vec::new()),
        }
    }
}

/// Cuts `weights.len()` elements into at most `n` contiguous chunks of about
/// equal total weight; fills `bounds` as [`Schedule::next`] wants them.
fn weighted_bounds(weights: &[u64], n: u32, bounds: &mut Vec<u32>) {
    let len = weights.len();
    bounds.clear();
    if n as usize >= len {
        bounds.extend(0..=len as u32);
        return;
    }
    let total: u128 = weights.iter().map(|&w| w as u128).sum();
    let share = total as f64 / n as f64;
    let max_closed = n as usize - 1;
    bounds.push(0);
    let mut acc = 0.0f64;
    for (i, &w) in weights.iter().enumerate() {
        let w = w as f64;
        let current_is_empty = *bounds.last().expect("starts with 0") as usize == i;
        let closed = bounds.len() - 1;
        if !current_is_empty
            && closed < max_closed
            && (acc - share).abs() <= (acc + w - share).abs()
        {
            bounds.push(i as u32);
            acc = 0.0;
        }
        acc += w;
    }
    bounds.push(len as u32);
}

impl ListMinimizer for Wdd {
    fn name(&self) -> String {
        "wdd".into()
    }

    fn start_pass(&mut self, elems: &ElemList) {
        self.weights = Arc::from(elems.weights.as_slice());
        self.schedule.start(elems.len() as u32);
    }

    fn next_deletion(&mut self) -> Option<Selection> {
        let weights = &self.weights;
        self.schedule
            .next(|_, n, bounds| weighted_bounds(weights, n, bounds))
    }

    fn clone_box(&self) -> Box<dyn ListMinimizer> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::ddmin::DdMin;
    use crate::policy::testing::{run_flat, run_weighted};

    fn cut(weights: &[u64], n: u32) -> Vec<u32> {
        let mut bounds = Vec::new();
        weighted_bounds(weights, n, &mut bounds);
        bounds
    }

    #[test]
    fn the_cut_balances_weight_and_isolates_a_heavy_element() {
        assert_eq!(cut(&[1, 1, 1, 1, 1, 1, 9], 2), vec![0, 6, 7]);
        assert_eq!(cut(&[9, 1, 1, 1, 1, 1, 1], 2), vec![0, 1, 7]);
        // Equal weights at n = 2 give ddmin's halves…
        assert_eq!(cut(&[1; 8], 2), vec![0, 4, 8]);
        // …but a tie closes the chunk early, and the last chunk takes the rest.
        assert_eq!(cut(&[1; 6], 4), vec![0, 1, 2, 3, 6]);
        // At n >= len every element is its own chunk.
        assert_eq!(cut(&[5, 1, 2], 3), vec![0, 1, 2, 3]);
        assert_eq!(cut(&[5, 1, 2], 8), vec![0, 1, 2, 3]);
    }

    #[test]
    fn wdd_keeps_the_heavy_unit_in_3_calls_where_ddmin_needs_5() {
        let weights = vec![1, 1, 1, 1, 1, 1, 9];
        let needs_heavy = |keeps: &dyn Fn(u32) -> bool| keeps(6);
        // WDD at n = 2 cuts [1,1,1,1,1,1 | 9] (share 7.5): keeping only the
        // light half fails (1), keeping only the heavy unit succeeds (2); the
        // next pass over one unit can only try deleting it, which fails (3).
        let (kept, wdd_calls) = run_weighted(Box::new(Wdd::new()), weights.clone(), needs_heavy);
        assert_eq!(kept, vec![6]);
        assert_eq!(wdd_calls, 3);
        // ddmin cuts by count, [0..4 | 4..7]: keep-only fails (1), keep-only
        // {4,5,6} succeeds (2); then [4,5 | 6]: keep-only fails (3), keep-only
        // {6} succeeds (4); then deleting the last unit fails (5).
        let (kept, ddmin_calls) = run_weighted(Box::new(DdMin::new()), weights, needs_heavy);
        assert_eq!(kept, vec![6]);
        assert_eq!(ddmin_calls, 5);
    }

    #[test]
    fn wdd_with_equal_weights_keeps_2_and_7_in_53_calls() {
        // Not ddmin's 33: with equal weights the cut's tie rule closes a
        // chunk as soon as it reaches the share, so chunks come out uneven.
        // Over 6 units n = 4 gives 1, 1, 1, 3 (ddmin: 2, 2, 2), so 5 and 6
        // go in two passes instead of one; over [2, 7, 8] n = 2 gives
        // [2 | 7, 8] (ddmin: [2, 7 | 8]), so {2, 7} is never kept alone and
        // 8 only goes at n = 3. Passes cost 10, 9, 10, 10, 10 and the final
        // one 4 calls; a direct transcription of the tutorial's WDD agrees.
        let (kept, calls) = run_flat(Box::new(Wdd::new()), 8, |keeps| keeps(1) && keeps(6));
        assert_eq!(kept, vec![1, 6]);
        assert_eq!(calls, 53);
    }
}
