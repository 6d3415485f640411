//! ddmin, as the tutorial builds it: partition, test subsets then complements, refine.
//!
//! Each pass walks the granularities n = 2, 4, 8, … up to the list length.
//! At each it cuts the list into chunks of ⌈len/n⌉ elements and proposes,
//! first, keeping only each chunk (deleting its complement), then deleting
//! each chunk. Any success ends the pass, and the next pass starts again at
//! n = 2. A pass that finds nothing has tried every single-element deletion,
//! so the result is 1-minimal. Worst case O(n²) tests. No parameters.
//!
//! The schedule itself (`Schedule`) is shared with WDD, which only cuts
//! the chunks by weight instead of by count.

use crate::policy::{ElemList, ListMinimizer, Selection, complement};

/// Which half of a granularity's proposals is being made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Keep only chunk `i` (delete its complement).
    KeepOnly,
    /// Delete chunk `i`.
    Drop,
}

/// ddmin's schedule within one pass, over any cut of the list into
/// contiguous chunks: granularities n = 2, 4, 8, … up to the length, at each
/// first keep-only-chunk then drop-chunk proposals. Shared by ddmin (chunks
/// of equal count) and WDD (chunks of equal weight).
#[derive(Clone, Debug)]
pub(crate) struct Schedule {
    len: u32,
    n: u32,
    phase: Phase,
    index: u32,
    /// Chunk `i` of granularity `n` is `bounds[i]..bounds[i + 1]`; empty
    /// until the granularity's chunks have been cut.
    bounds: Vec<u32>,
    done: bool,
}

impl Schedule {
    /// A schedule with nothing to propose until [`Schedule::start`].
    pub(crate) fn new() -> Self {
        Schedule {
            len: 0,
            n: 2,
            phase: Phase::KeepOnly,
            index: 0,
            bounds: Vec::new(),
            done: true,
        }
    }

    /// A pass over `len` elements begins, at n = 2.
    pub(crate) fn start(&mut self, len: u32) {
        self.len = len;
        self.n = 2;
        self.phase = Phase::KeepOnly;
        self.index = 0;
        self.bounds.clear();
        self.done = len == 0;
    }

    /// Moves to the next granularity; false when the list is done.
    fn refine(&mut self) -> bool {
        if self.n >= self.len {
            return false;
        }
        self.n = (2 * self.n).min(self.len);
        self.phase = Phase::KeepOnly;
        self.index = 0;
        self.bounds.clear();
        true
    }

    /// The next deletion of the pass. `cut(len, n, bounds)` fills `bounds`
    /// with the chunk boundaries of granularity `n`: `0`, the start of each
    /// further chunk, then `len`; chunks must not be empty.
    pub(crate) fn next(&mut self, cut: impl Fn(u32, u32, &mut Vec<u32>)) -> Option<Selection> {
        while !self.done {
            if self.bounds.is_empty() {
                cut(self.len, self.n, &mut self.bounds);
            }
            let count = self.bounds.len() as u32 - 1;
            if self.index >= count {
                match self.phase {
                    Phase::KeepOnly => {
                        self.phase = Phase::Drop;
                        self.index = 0;
                    }
                    Phase::Drop => {
                        if !self.refine() {
                            self.done = true;
                        }
                    }
                }
                continue;
            }
            let i = self.index as usize;
            let piece = self.bounds[i]..self.bounds[i + 1];
            self.index += 1;
            let selection = match self.phase {
                Phase::KeepOnly => complement(std::slice::from_ref(&piece), self.len),
                Phase::Drop => vec![piece],
            };
            if !selection.is_empty() {
                return Some(selection);
            }
        }
        None
    }
}

/// Cuts `len` positions into chunks of ⌈len/n⌉ (the last may be shorter, so
/// there can be fewer than `n` chunks).
fn even_bounds(len: u32, n: u32, bounds: &mut Vec<u32>) {
    let size = len.div_ceil(n).max(1);
    bounds.clear();
    bounds.extend((0..len).step_by(size as usize));
    bounds.push(len);
}

/// The tutorial's ddmin: no state beyond the position inside one pass.
#[derive(Clone, Debug)]
pub struct DdMin {
    schedule: Schedule,
}

impl Default for DdMin {
    fn default() -> Self {
        Self::new()
    }
}

impl DdMin {
    pub fn new() -> Self {
        DdMin {
            schedule: Schedule::new(),
        }
    }
}

impl ListMinimizer for DdMin {
    fn name(&self) -> String {
        "ddmin".into()
    }

    fn start_pass(&mut self, elems: &ElemList) {
        self.schedule.start(elems.len() as u32);
    }

    fn next_deletion(&mut self) -> Option<Selection> {
        self.schedule.next(even_bounds)
    }

    fn clone_box(&self) -> Box<dyn ListMinimizer> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};

    use crate::configuration::Configuration;
    use crate::engine::Engine;
    use crate::interfaces::{Quiet, Verdict};
    use crate::policy::Policy;
    use crate::policy::flat::FlatPolicy;
    use crate::units::Units;

    #[test]
    fn the_tutorial_demo_keeps_2_and_7_in_33_calls() {
        let units = Units::from_pieces(&["1", "2", "3", "4", "5", "6", "7", "8"]);
        let calls = AtomicU32::new(0);
        let oracle = |c: &crate::interfaces::Candidate<'_>| {
            calls.fetch_add(1, Ordering::SeqCst);
            if c.keeps(1) && c.keeps(6) {
                Verdict::Interesting
            } else {
                Verdict::NotInteresting
            }
        };
        let mut engine = Engine::new(&units, &oracle).with_cache(false);
        let mut policy: Box<dyn Policy> = Box::new(FlatPolicy::new(
            Box::new(super::DdMin::new()),
            Arc::new(vec![1; 8]),
        ));
        let (result, _) = engine.run(&mut policy, Configuration::full(8), &mut Quiet);
        assert_eq!(result.kept.iter().collect::<Vec<_>>(), vec![1, 6]);
        assert_eq!(calls.load(Ordering::SeqCst), 33);
    }
}
