//! ddmin, as the tutorial builds it: partition, test subsets then complements, refine.
//!
//! Each pass walks the granularities n = 2, 4, 8, … up to the list length.
//! At each it cuts the list into chunks of ⌈len/n⌉ elements and proposes,
//! first, keeping only each chunk (deleting its complement), then deleting
//! each chunk. Any success ends the pass, and the next pass starts again at
//! n = 2. A pass that finds nothing has tried every single-element deletion,
//! so the result is 1-minimal. Worst case O(n²) tests.

use crate::policy::{ElemList, ListMinimizer, Selection, complement};

/// Which half of a granularity's proposals is being made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Keep only chunk `i` (delete its complement).
    KeepOnly,
    /// Delete chunk `i`.
    Drop,
}

/// The tutorial's ddmin: no state beyond the position inside one pass.
#[derive(Clone, Debug)]
pub struct DdMin {
    len: u32,
    n: u32,
    phase: Phase,
    index: u32,
    done: bool,
}

impl Default for DdMin {
    fn default() -> Self {
        Self::new()
    }
}

impl DdMin {
    pub fn new() -> Self {
        DdMin {
            len: 0,
            n: 2,
            phase: Phase::KeepOnly,
            index: 0,
            done: true,
        }
    }

    fn chunk_size(&self) -> u32 {
        self.len.div_ceil(self.n)
    }

    fn chunk_count(&self) -> u32 {
        self.len.div_ceil(self.chunk_size())
    }

    /// Moves to the next granularity; false when the list is done.
    fn refine(&mut self) -> bool {
        if self.n >= self.len {
            return false;
        }
        self.n = (2 * self.n).min(self.len);
        self.phase = Phase::KeepOnly;
        self.index = 0;
        true
    }
}

/// Splits `len` positions into chunks of `size` and returns chunk `i`.
pub(crate) fn chunk(len: u32, size: u32, i: u32) -> std::ops::Range<u32> {
    let start = i * size;
    start..(start + size).min(len)
}

impl ListMinimizer for DdMin {
    fn name(&self) -> String {
        "ddmin".into()
    }

    fn start_pass(&mut self, elems: &ElemList) {
        self.len = elems.len() as u32;
        self.n = 2;
        self.phase = Phase::KeepOnly;
        self.index = 0;
        self.done = self.len == 0;
    }

    fn next_deletion(&mut self) -> Option<Selection> {
        while !self.done {
            let count = self.chunk_count();
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
            let piece = chunk(self.len, self.chunk_size(), self.index);
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

    fn clone_box(&self) -> Box<dyn ListMinimizer> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};

    use crate::configuration::Configuration;
    use crate::policy::Policy;
    use crate::policy::flat::FlatPolicy;
    use crate::reducer::{Quiet, Reducer, Verdict};
    use crate::units::Units;

    #[test]
    fn the_tutorial_demo_keeps_2_and_7_in_33_calls() {
        let units = Units::from_pieces(&["1", "2", "3", "4", "5", "6", "7", "8"]);
        let calls = AtomicU32::new(0);
        let oracle = |c: &crate::reducer::Candidate<'_>| {
            calls.fetch_add(1, Ordering::SeqCst);
            if c.keeps(1) && c.keeps(6) {
                Verdict::Interesting
            } else {
                Verdict::NotInteresting
            }
        };
        let mut reducer = Reducer::new(&units, &oracle).with_cache(false);
        let mut policy: Box<dyn Policy> = Box::new(FlatPolicy::new(
            Box::new(super::DdMin::new()),
            Arc::new(vec![1; 8]),
        ));
        let (result, _) = reducer.run(&mut policy, Configuration::full(8), &mut Quiet);
        assert_eq!(result.kept.iter().collect::<Vec<_>>(), vec![1, 6]);
        assert_eq!(calls.load(Ordering::SeqCst), 33);
    }
}
