//! A length field shrunk together with the payload it counts: binary
//! input's pass after the blocks of bytes.
//!
//! Deleting bytes of a length-prefixed payload alone breaks its framing
//! (the reader then takes the next bytes as payload), and changing the
//! length alone does too; so a payload that only needs to be longer than
//! something (an overflow of a fixed buffer) keeps whatever length the
//! original had. This pass reads every place of the kept bytes as a
//! length field (one byte; two and four bytes, little and big endian) whose
//! value `v` fits in the bytes after it, and searches by halves for the
//! smallest `v'` the oracle accepts with the payload's last `v - v'` bytes
//! deleted and the field set to `v'`; then, the same way, for the fewest
//! of the remaining payload's *last* bytes it needs (the bytes a bug
//! needs may sit at a payload's end: an index past a table's end after
//! valid ones). A field whose value cannot be a length there (zero, one,
//! past the end) costs nothing.
//!
//! **Cost:** about 2·log2(v) tests per field read, on results of at most
//! [`MAX_KEPT`] bytes (on more, every byte value fits as a length, and the
//! block and byte passes before it have the most to do). **Guarantee:**
//! none beyond the oracle's verdict on every step.

use std::sync::Arc;

use crate::configuration::{Configuration, Delta, Proposal};
use crate::policy::Policy;
use crate::units::Units;

/// The largest result the pass reads fields in.
const MAX_KEPT: usize = 512;

/// A field's width in bytes and byte order.
const SHAPES: [(usize, bool); 5] = [(1, false), (2, false), (2, true), (4, false), (4, true)];

/// One length field being searched: where it is, its shape, and the
/// range of lengths left (the smallest known good is `hi`).
#[derive(Clone, Copy, Debug)]
struct Search {
    /// Index of the field's first byte in the kept bytes.
    at: usize,
    shape: (usize, bool),
    /// Lengths below `lo` were refused (or are the smallest tried).
    lo: u64,
    /// The current length, which the oracle accepted.
    hi: u64,
    /// The length proposed last.
    tried: u64,
    /// Whether that proposal awaits its verdict.
    pending: bool,
    /// Which end of the payload goes: its tail first, then its head.
    head: bool,
}

/// The pass's state: the kept bytes as the current configuration has
/// them, the next field to read, and the search under way.
#[derive(Clone, Debug)]
pub(crate) struct Lengths {
    units: Arc<Units>,
    /// The kept units, in order, and their bytes (re-read after a success).
    kept: Vec<u32>,
    bytes: Vec<u8>,
    /// The next (position, shape index) to read as a field.
    next: (usize, usize),
    search: Option<Search>,
}

impl Lengths {
    pub(crate) fn new(units: Arc<Units>) -> Self {
        Lengths {
            units,
            kept: Vec::new(),
            bytes: Vec::new(),
            next: (0, 0),
            search: None,
        }
    }

    /// Reads the kept units and their bytes from `config` (none past
    /// [`MAX_KEPT`], where no field is read).
    fn read(&mut self, config: &Configuration) {
        self.kept.clear();
        self.bytes.clear();
        if config.len() as usize > MAX_KEPT {
            return;
        }
        self.kept = config.kept.iter().collect();
        self.bytes = self
            .kept
            .iter()
            .map(|&u| self.units.byte(config, u))
            .collect();
    }

    /// The value of a field of `shape` at `at`, if it fits in the bytes.
    fn value(&self, at: usize, (width, big): (usize, bool)) -> Option<u64> {
        let field = self.bytes.get(at..at + width)?;
        let value = if big {
            field.iter().fold(0u64, |v, &b| v << 8 | u64::from(b))
        } else {
            field.iter().rev().fold(0u64, |v, &b| v << 8 | u64::from(b))
        };
        Some(value)
    }

    /// The next field worth a search: a value of 2 or more that fits in
    /// the bytes after the field.
    fn next_search(&mut self) -> Option<Search> {
        while self.next.0 < self.bytes.len() {
            let (at, s) = self.next;
            self.next = if s + 1 < SHAPES.len() {
                (at, s + 1)
            } else {
                (at + 1, 0)
            };
            let shape = SHAPES[s];
            let Some(v) = self.value(at, shape) else {
                continue;
            };
            let room = (self.bytes.len() - at - shape.0) as u64;
            if v >= 2 && v <= room {
                return Some(Search {
                    at,
                    shape,
                    lo: 0,
                    hi: v,
                    tried: v,
                    pending: false,
                    head: false,
                });
            }
        }
        None
    }

    /// The field of `search` set to `length`, the payload's bytes past it
    /// deleted (its first bytes, in the head phase).
    fn shrink(&self, search: &Search, length: u64) -> Proposal {
        let (width, big) = search.shape;
        let field = &self.kept[search.at..search.at + width];
        let mut rewrites = Vec::new();
        for (i, &u) in field.iter().enumerate() {
            let shift = if big { 8 * (width - 1 - i) } else { 8 * i };
            let byte = (length >> shift) as u8;
            if self.bytes[search.at + i] != byte {
                rewrites.push((u, Arc::from(&[byte][..])));
            }
        }
        let payload = search.at + width;
        let (length, hi) = (length as usize, search.hi as usize);
        let cut = if search.head {
            &self.kept[payload..payload + hi - length]
        } else {
            &self.kept[payload + length..payload + hi]
        };
        Proposal {
            delta: Delta::from_units(cut.iter().copied()),
            rewrites,
            layout: None,
        }
    }
}

impl Policy for Lengths {
    fn name(&self) -> String {
        "lengths".into()
    }

    /// A pass is one proposal after another until one is accepted; the
    /// next pass goes on where this one stopped, on the new bytes.
    fn start_pass(&mut self, config: &Configuration) {
        self.read(config);
    }

    fn next_proposal(&mut self, _config: &Configuration) -> Option<Proposal> {
        // Called again: the length proposed last was refused.
        if let Some(search) = self.search.as_mut()
            && search.pending
        {
            search.lo = search.tried + 1;
            search.pending = false;
        }
        let mut search = match self.search {
            Some(s) if s.lo < s.hi => s,
            // The tail's search is over: the head's, down to one byte
            // (the empty payload was the tail's to try).
            Some(s) if !s.head && s.hi >= 2 => Search {
                lo: 1,
                head: true,
                ..s
            },
            _ => self.next_search()?,
        };
        // The middle of the lengths left (the good one is `hi`).
        search.tried = search.lo + (search.hi - search.lo) / 2;
        search.pending = true;
        self.search = Some(search);
        Some(self.shrink(&search, search.tried))
    }

    fn on_reduced(&mut self, reduced: Option<&Configuration>) -> bool {
        if let Some(search) = self.search.as_mut() {
            search.pending = false;
            if reduced.is_some() {
                search.hi = search.tried;
            }
        }
        reduced.is_some()
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
    fn lengths(source: &[u8], interesting: impl Fn(&[u8]) -> bool + Sync) -> (Vec<u8>, u32) {
        run_over_bytes(|units| Box::new(Lengths::new(units)), source, interesting)
    }

    /// A reader of `tag, length, payload` records that "overflows" when a
    /// name record (`N`) is longer than 8 bytes, framing intact.
    fn overflows(bytes: &[u8]) -> bool {
        let mut i = 0;
        while i + 1 < bytes.len() {
            let (tag, n) = (bytes[i], bytes[i + 1] as usize);
            if i + 2 + n > bytes.len() {
                return false;
            }
            if tag == b'N' && n > 8 {
                return true;
            }
            i += 2 + n;
        }
        false
    }

    #[test]
    fn a_payload_goes_with_its_length_down_to_what_the_bug_needs() {
        let mut input = vec![b'N', 16];
        input.extend([0u8; 16]);
        let (result, calls) = lengths(&input, overflows);
        let mut want = vec![b'N', 9];
        want.extend([0u8; 9]);
        assert_eq!(result, want);
        assert!(calls <= 12, "{calls} tests");
    }

    #[test]
    fn a_big_endian_four_byte_length_is_shrunk_with_its_payload() {
        // A chunk: a 4-byte big-endian length, then the payload; the bug
        // needs at least 40 payload bytes.
        let mut input = vec![0, 0, 0, 100];
        input.extend([b'A'; 100]);
        let needs = |b: &[u8]| {
            b.len() >= 4
                && u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize == b.len() - 4
                && b.len() - 4 >= 40
        };
        let (result, _) = lengths(&input, needs);
        assert_eq!(result.len(), 44);
        assert_eq!(result[..4], [0, 0, 0, 40]);
    }

    #[test]
    fn a_payload_keeps_only_its_last_byte_when_that_is_what_the_bug_needs() {
        // `I n index…`: an index of 8 or more reads past a table of 8.
        let reads_past = |b: &[u8]| {
            b.len() >= 2 && b[0] == b'I' && b[1] as usize == b.len() - 2 && b[2..].contains(&9)
        };
        let (result, _) = lengths(b"I\x05\x01\x02\x03\x04\x09", reads_past);
        assert_eq!(result, b"I\x01\x09");
    }

    #[test]
    fn bytes_that_are_no_length_cost_no_test() {
        // Every byte is zero or larger than what follows it.
        let input = vec![0, 0, 200, 0, 250, 0];
        let (result, calls) = lengths(&input, |b| b.len() == 6);
        assert_eq!(result, input);
        assert_eq!(calls, 0);
    }
}
