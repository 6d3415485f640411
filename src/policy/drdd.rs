//! Dr. DD (delta debugging with deferred restarts, ISSRE'26).
//!
//! Two phases, neither of which ever restarts after a success:
//!
//! 1. **Coarse levels, scanned once.** For granularities g = 2, 4, 8, …, as
//!    long as the block size ⌈len/g⌉ is at least 2 (len being the list's
//!    length when the level starts), scan the list left to right in blocks
//!    of that size, trying to delete each block. A deletion that succeeds is
//!    committed and the scan goes on with the block that has moved into the
//!    same position; one that fails moves the scan past the block. A block
//!    that is all that is left of the list (its predecessors all went) is
//!    skipped untested.
//! 2. **Single-element scans.** Scan the elements left to right, trying to
//!    delete each, the same way. At the end of a scan that removed
//!    something, scan again, up to the budget of scans; stop after a scan
//!    that removed nothing or when the budget is spent.
//!
//! Every success ends a pass of the reduce loop; the position inside the
//! current level or scan survives into the next pass (the next pass's list
//! is this one minus the committed deletion, so positions after it shifted
//! left by exactly its length).
//!
//! **Guarantee:** with an unbounded budget, 1-minimal, for any oracle: the
//! final scan tried deleting every single element and none went.
//! With a budget of R scans the result is 1-minimal only if the last scan
//! removed nothing; R = 1 can leave an element that a later deletion in the
//! same scan made removable.
//!
//! **Cost:** the coarse levels test fewer than 2n blocks in all (level g
//! tests at most g blocks, and g < n), each scan at most n elements, so at
//! most 2n + R·n tests: linear for a fixed R, O(n²) when unbounded (every
//! scan but the last removes an element).
//!
//! **Parameters:** `restarts` (`--restarts`), the budget R of single-element
//! scans; `None` (the default) scans until a scan removes nothing, which is
//! the paper's default R = |I|. R = 0 skips the single-element phase.

use std::ops::Range;

use crate::policy::{ElemList, ListMinimizer, Selection};

/// Where Dr. DD is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Coarse level `g`, deleting blocks of `size`; `size == 0` until the
    /// level starts (its block size depends on the length at that time).
    Coarse {
        g: u32,
        size: u32,
    },
    /// Single-element scan number `scan` (from 1); `removed` says whether
    /// it has deleted anything yet.
    Single {
        scan: u32,
        removed: bool,
    },
    Done,
}

/// Dr. DD's state: a stage and a position in the current list.
#[derive(Clone, Debug)]
pub(crate) struct DrDd {
    restarts: Option<u32>,
    stage: Stage,
    /// Length of this pass's list.
    len: u32,
    /// Start of the next block or element to try.
    pos: u32,
    /// End of the block proposed last and not yet judged: where the scan
    /// goes on if its deletion failed.
    pending: Option<u32>,
    /// The last wave's blocks (consecutive, one level's), for a merge.
    wave: Vec<Range<u32>>,
    /// The fewest blocks a coarse level starts with: the wave width once
    /// waves were asked for (1 before), so that a level fills a wave.
    min_blocks: u32,
}

impl DrDd {
    pub fn new(restarts: Option<u32>) -> Self {
        DrDd {
            restarts,
            stage: Stage::Coarse { g: 2, size: 0 },
            len: 0,
            pos: 0,
            pending: None,
            wave: Vec::new(),
            min_blocks: 1,
        }
    }

    /// Dr. DD without its coarse levels: single-element scans only, at most
    /// `restarts` of them (`None`: until one removes nothing). For a list
    /// whose blocks were all tried already, e.g. the default pipeline's
    /// last pass without the syntax filter.
    pub(crate) fn single_scans(restarts: Option<u32>) -> Self {
        DrDd {
            stage: Stage::Single {
                scan: 1,
                removed: false,
            },
            ..DrDd::new(restarts)
        }
    }

    /// A single-element scan has removed something.
    fn mark_removed(&mut self) {
        if let Stage::Single { scan, .. } = self.stage {
            self.stage = Stage::Single {
                scan,
                removed: true,
            };
        }
    }

    /// Whether another single-element scan may follow scan number `scan`.
    fn may_scan_after(&self, scan: u32) -> bool {
        self.restarts.is_none_or(|budget| scan < budget)
    }
}

impl ListMinimizer for DrDd {
    fn name(&self) -> String {
        "drdd".into()
    }

    fn start_pass(&mut self, elems: &ElemList) {
        self.len = elems.len() as u32;
        self.pos = self.pos.min(self.len);
        self.pending = None;
    }

    fn next_deletion(&mut self) -> Option<Selection> {
        if let Some(end) = self.pending.take() {
            self.pos = end; // that deletion failed: move past it
        }
        loop {
            match self.stage {
                Stage::Coarse { g, size: 0 } => {
                    let g = g.max(self.min_blocks);
                    let size = self.len.div_ceil(g);
                    self.pos = 0;
                    self.stage = if size >= 2 {
                        Stage::Coarse { g, size }
                    } else if self.may_scan_after(0) {
                        Stage::Single {
                            scan: 1,
                            removed: false,
                        }
                    } else {
                        Stage::Done
                    };
                }
                Stage::Coarse { g, size } => {
                    if self.pos >= self.len {
                        self.stage = Stage::Coarse {
                            g: g.saturating_mul(2),
                            size: 0,
                        };
                        continue;
                    }
                    let end = self.pos.saturating_add(size).min(self.len);
                    if self.pos == 0 && end == self.len {
                        // Earlier blocks went and this one is all that is
                        // left: not worth a test (the scans try the empty
                        // list when one element is left).
                        self.pos = end;
                        continue;
                    }
                    let block = self.pos..end;
                    self.pending = Some(end);
                    return Some(vec![block]);
                }
                Stage::Single { scan, removed } => {
                    if self.pos >= self.len {
                        self.pos = 0;
                        self.stage = if removed && self.may_scan_after(scan) {
                            Stage::Single {
                                scan: scan + 1,
                                removed: false,
                            }
                        } else {
                            Stage::Done
                        };
                        continue;
                    }
                    let element = self.pos..self.pos + 1;
                    self.pending = Some(element.end);
                    return Some(vec![element]);
                }
                Stage::Done => return None,
            }
        }
    }

    fn on_reduced(&mut self, reduced: Option<&ElemList>) -> bool {
        if reduced.is_none() {
            return false;
        }
        // The last proposal went; the scan stays where it was.
        self.pending = None;
        self.mark_removed();
        true
    }

    /// The blocks of the current level (or elements of the current scan)
    /// from the next one on, up to `k`: disjoint, so independent.
    fn next_wave(&mut self, k: usize) -> Vec<Selection> {
        self.wave.clear();
        self.min_blocks = self.min_blocks.max(u32::try_from(k).unwrap_or(u32::MAX));
        let Some(first) = self.next_deletion() else {
            return Vec::new();
        };
        self.wave.push(first[0].clone());
        let stage = self.stage;
        // While the level has blocks left, the next is the one after.
        while self.wave.len() < k && self.pending.is_some_and(|end| end < self.len) {
            let block = self.next_deletion().expect("the level has blocks left");
            debug_assert_eq!(self.stage, stage);
            self.wave.push(block[0].clone());
        }
        self.wave.iter().map(|b| vec![b.clone()]).collect()
    }

    /// The scan goes on after the wave: at the wave's first block, moved
    /// on by the blocks that stayed.
    fn on_merged(&mut self, _passed: &[bool], merged: &[bool], _reduced: &ElemList) -> bool {
        let start = self.wave.first().map_or(self.pos, |b| b.start);
        let stayed: u32 = self
            .wave
            .iter()
            .zip(merged)
            .filter(|(_, merged)| !**merged)
            .map(|(b, _)| b.end - b.start)
            .sum();
        self.pos = start + stayed;
        self.pending = None;
        self.mark_removed();
        true
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
    fn drdd_keeps_2_and_7_in_12_calls() {
        // Coarse g = 2, blocks of 4: {1..4} and {5..8} must stay (2 calls).
        // g = 4, blocks of 2: {1,2} stays (3), {3,4} goes (4), {5,6} moves
        // into its place and goes (5), {7,8} stays (6). g = 8 would use
        // blocks of 1: on to single elements over [1,2,7,8]: 1 goes (7), 2
        // stays (8), 7 stays (9), 8 goes (10); that scan removed something,
        // so a second one: 2 and 7 stay (11, 12) and nothing went.
        let (kept, calls) = run_flat(Box::new(DrDd::new(None)), 8, |keeps| keeps(1) && keeps(6));
        assert_eq!(kept, vec![1, 6]);
        assert_eq!(calls, 12);
        // One scan only: the same first 10 calls.
        let (kept, calls) = run_flat(Box::new(DrDd::new(Some(1))), 8, |keeps| {
            keeps(1) && keeps(6)
        });
        assert_eq!(kept, vec![1, 6]);
        assert_eq!(calls, 10);
    }

    #[test]
    fn single_scans_skip_the_coarse_levels() {
        // Elements 0..8, 1 and 6 needed: one scan tries each element once
        // (8 calls), deleting all but 1 and 6; no block is ever tried.
        let (kept, calls) = run_flat(Box::new(DrDd::single_scans(Some(1))), 8, |keeps| {
            keeps(1) && keeps(6)
        });
        assert_eq!(kept, vec![1, 6]);
        assert_eq!(calls, 8);
        // Unbounded: a second scan confirms (2 more calls).
        let (kept, calls) = run_flat(Box::new(DrDd::single_scans(None)), 8, |keeps| {
            keeps(1) && keeps(6)
        });
        assert_eq!(kept, vec![1, 6]);
        assert_eq!(calls, 10);
    }

    /// Units 0 and 3 are needed, and unit 2 needs unit 1 (the slides'
    /// `1e0+0/0`: the `1` can only go once `e0+` has gone, which comes later).
    fn two_needs_one(keeps: &dyn Fn(u32) -> bool) -> bool {
        keeps(0) && keeps(3) && (!keeps(2) || keeps(1))
    }

    #[test]
    fn a_deletion_that_frees_an_earlier_element_needs_a_second_scan() {
        // Coarse g = 2: {0,1} and {2,3} stay (2 calls); blocks of 1 next.
        // Scan 1: 0 stays, 1 stays (2 still needs it), 2 goes, 3 stays (6).
        let (kept, calls) = run_flat(Box::new(DrDd::new(Some(1))), 4, two_needs_one);
        assert_eq!(kept, vec![0, 1, 3]);
        assert_eq!(calls, 6);
        // Scan 2: 0 stays, 1 goes now, 3 stays (9); scan 3: 0, 3 stay (11).
        let (kept, calls) = run_flat(Box::new(DrDd::new(None)), 4, two_needs_one);
        assert_eq!(kept, vec![0, 3]);
        assert_eq!(calls, 11);
        let (kept, calls) = run_flat(Box::new(DrDd::new(Some(2))), 4, two_needs_one);
        assert_eq!(kept, vec![0, 3]);
        assert_eq!(calls, 9);
    }

    #[test]
    fn a_zero_budget_stops_after_the_coarse_levels() {
        let (kept, calls) = run_flat(Box::new(DrDd::new(Some(0))), 8, |keeps| {
            keeps(1) && keeps(6)
        });
        assert_eq!(kept, vec![0, 1, 6, 7]);
        assert_eq!(calls, 6);
    }

    #[test]
    fn blocks_after_a_deleted_one_are_tried_at_the_same_position() {
        let mut m = DrDd::new(None);
        m.start_pass(&ElemList::unweighted((0..9).collect()));
        // g = 2: blocks of ⌈9/2⌉ = 5.
        assert_eq!(m.next_deletion(), Some(vec![0..5]));
        assert!(m.on_reduced(Some(&ElemList::unweighted((5..9).collect()))));
        m.start_pass(&ElemList::unweighted((5..9).collect()));
        // The next block, 5..9, is now at position 0, but it is the whole
        // list, so it is skipped; g = 4 over 4 elements means blocks of 1,
        // which ends the coarse phase.
        assert_eq!(m.next_deletion(), Some(vec![0..1]));
        assert_eq!(
            m.stage,
            Stage::Single {
                scan: 1,
                removed: false
            }
        );
    }
}
