//! Runs of bytes set to one value, by halves: binary input's pass between
//! Dr. DD's blocks and its single-byte scans.
//!
//! What afl-tmin does besides deletion (its block normalization, alphabet
//! and character minimization, all to `'0'`), in one scan per level: blocks
//! of half the kept bytes, then quarters, and so on down to single bytes;
//! each block not all zero yet is proposed as zeros, and, if the oracle
//! refuses that, a block of two bytes or more not uniform yet as its most
//! common byte but zero, repeated (a C string or a payload whose length
//! matters but whose bytes do not, which zeros would cut short). A byte
//! that took a value is never tried again in the pass, nor is a block
//! whose bytes all did.
//!
//! The size never changes here: the pass makes a result read as what it
//! needs (the bytes still as they were are the ones the bug depends on),
//! and the single-byte scans after it cheap: deleting any byte of a run of
//! one value gives the same candidate, which the verdict cache answers.
//! **Cost:** at most two tests per block of every level above single
//! bytes and one per byte, so under 3n for n kept bytes, and as few as one
//! when the whole input may be zeros. **Guarantee:** none beyond the
//! oracle's verdict on every step.

use std::sync::Arc;

use crate::configuration::{Configuration, Delta, Proposal};
use crate::policy::Policy;
use crate::units::Units;

/// What the current block was last proposed as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tried {
    Nothing,
    Zeros,
    Repeated,
}

/// The fill pass's state: a level (block size) and a position in the kept
/// bytes, which a fill never changes.
#[derive(Clone, Debug)]
pub(crate) struct Fill {
    units: Arc<Units>,
    /// The kept units, in order (fixed: a fill deletes nothing).
    kept: Vec<u32>,
    /// The block size of the current level (0 before the first pass).
    size: usize,
    /// Where the current block starts in `kept`.
    pos: usize,
    tried: Tried,
    /// Which of `kept` took a value in this pass (never tried again).
    filled: Vec<bool>,
}

impl Fill {
    pub(crate) fn new(units: Arc<Units>) -> Self {
        Fill {
            units,
            kept: Vec::new(),
            size: 0,
            pos: 0,
            tried: Tried::Nothing,
            filled: Vec::new(),
        }
    }

    /// `block` filled with `value`: a rewrite of every byte that differs.
    fn filled(&self, config: &Configuration, block: &[u32], value: u8) -> Proposal {
        let text: Arc<[u8]> = Arc::from(&[value][..]);
        let rewrites = block
            .iter()
            .filter(|&&u| self.units.byte(config, u) != value)
            .map(|&u| (u, Arc::clone(&text)))
            .collect();
        Proposal {
            delta: Delta::new(),
            rewrites,
            layout: None,
        }
    }

    /// The next fill of the current block after `self.tried`, if any.
    fn next_fill(&self, config: &Configuration, block: &[u32]) -> Option<(Tried, u8)> {
        let bytes: Vec<u8> = block.iter().map(|&u| self.units.byte(config, u)).collect();
        let uniform = bytes.iter().all(|&b| b == bytes[0]);
        if self.tried == Tried::Nothing && !bytes.iter().all(|&b| b == 0) {
            return Some((Tried::Zeros, 0));
        }
        if self.tried != Tried::Repeated && block.len() >= 2 && !uniform {
            let mut counts = [0u32; 256];
            for &b in &bytes {
                counts[b as usize] += 1;
            }
            // The most common byte but zero (tried already); the first to
            // reach the top count on a tie.
            counts[0] = 0;
            let top = *counts.iter().max().unwrap_or(&0);
            let value = bytes.iter().copied().find(|&b| counts[b as usize] == top);
            if let Some(value) = value.filter(|_| top > 0) {
                return Some((Tried::Repeated, value));
            }
        }
        None
    }
}

impl Policy for Fill {
    fn name(&self) -> String {
        "fill".into()
    }

    fn start_pass(&mut self, config: &Configuration) {
        if self.size == 0 {
            self.kept = config.kept.iter().collect();
            let len = self.kept.len();
            self.filled = vec![false; len];
            self.size = if len == 0 {
                0
            } else {
                (len.next_power_of_two() / 2).max(1)
            };
        }
    }

    fn next_proposal(&mut self, config: &Configuration) -> Option<Proposal> {
        loop {
            if self.size == 0 {
                return None;
            }
            if self.pos >= self.kept.len() {
                self.size /= 2;
                self.pos = 0;
                self.tried = Tried::Nothing;
                continue;
            }
            let end = (self.pos + self.size).min(self.kept.len());
            let block = &self.kept[self.pos..end];
            let filled = self.filled[self.pos..end].iter().all(|&f| f);
            match self.next_fill(config, block).filter(|_| !filled) {
                Some((tried, value)) => {
                    self.tried = tried;
                    return Some(self.filled(config, block, value));
                }
                None => {
                    self.pos = end;
                    self.tried = Tried::Nothing;
                }
            }
        }
    }

    fn on_reduced(&mut self, reduced: Option<&Configuration>) -> bool {
        if reduced.is_none() {
            return false;
        }
        // The block took the value: on to the next one.
        let end = (self.pos + self.size).min(self.kept.len());
        self.filled[self.pos..end].fill(true);
        self.pos = end;
        self.tried = Tried::Nothing;
        true
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::testing::run_over_bytes;

    /// Runs the pass over `source` as bytes; returns the result and the
    /// number of tests.
    fn fill(source: &[u8], interesting: impl Fn(&[u8]) -> bool + Sync) -> (Vec<u8>, u32) {
        run_over_bytes(|units| Box::new(Fill::new(units)), source, interesting)
    }

    #[test]
    fn bytes_the_oracle_does_not_read_become_zeros_in_few_tests() {
        // Only the magic at the start matters: the first half goes at
        // once, then the second quarter, and so on down to the magic.
        let mut input = b"MZ".to_vec();
        input.extend((0..62).map(|i| i as u8 + 1));
        let (result, calls) = fill(&input, |b| b.starts_with(b"MZ"));
        let mut want = b"MZ".to_vec();
        want.extend([0; 62]);
        assert_eq!(result, want);
        assert!(calls < 20, "{calls} tests");
    }

    #[test]
    fn a_run_that_must_not_hold_a_zero_becomes_one_repeated_byte() {
        // A string whose length matters (at least 8 bytes before a NUL),
        // not its bytes: zeros cut it short, its most common byte does not.
        let input = b"\x01\x02abcaaaaa\x00".to_vec();
        let interesting =
            |b: &[u8]| b.len() == 11 && b[..2] == [1, 2] && b[2..10].iter().all(|&c| c != 0);
        let (result, _) = fill(&input, interesting);
        // The last block of the first level took `a`s too, its NUL with
        // them: a byte that took a value is not tried again.
        assert_eq!(result, b"\x01\x02aaaaaaaaa");
    }

    #[test]
    fn bytes_whose_value_matters_are_left_as_they_were() {
        let input = b"\x7fELF\x02\x01".to_vec();
        let (result, calls) = fill(&input, |b| b == input.as_slice());
        assert_eq!(result, input);
        // Blocks of 4 (2 values each), of 2 (2 each, 1 for a uniform
        // block), then 6 single bytes: under three tests a byte.
        assert!(calls <= 18, "{calls} tests");
    }
}
