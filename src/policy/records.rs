//! Length-prefixed records deleted whole: binary input's first pass, for
//! formats (chunks, TLV, packets) that byte-range deletion cannot shrink.
//!
//! In a file of records each led by its length, deleting bytes anywhere
//! before the crash point breaks the framing of every record after it, so
//! Dr. DD's blocks (and afl-tmin's) rarely line up with a record and the
//! records before the one that crashes stay. This pass looks for a length
//! field: a width (1, 2 or 4 bytes), a byte order, a header size and the
//! field's place in it, and a first record near the start, such that
//! following the lengths from record to record ends exactly at the end of
//! the input (a chain); of the chains found, the one with the most records
//! (a 4-byte field counting four times a 1-byte one, which random bytes
//! chain by chance far more often) gives the records. Dr. DD then deletes
//! whole records (what comes before the first is one more element), so
//! the framing holds. With no chain of four records or more the pass
//! proposes nothing and costs no test.
//!
//! **Cost:** Dr. DD's over r records (under 2r + r·scans), plus a search
//! for the chain in the input's first [`SEARCH_LIMIT`] bytes (no test).
//! **Guarantee:** 1-minimal in records, for the chain found.

use std::sync::Arc;

use crate::configuration::{Configuration, Proposal};
use crate::policy::Policy;
use crate::policy::drdd::DrDd;
use crate::policy::flat::FlatPolicy;
use crate::units::Units;

/// Inputs larger than this are not searched for records.
const SEARCH_LIMIT: usize = 1 << 20;
/// How far into the input the first record may start.
const MAX_START: usize = 32;
/// The fewest records a chain needs.
const MIN_RECORDS: usize = 4;

/// How a record's length is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Field {
    width: usize,
    big_endian: bool,
    /// Where the field is in the record's header.
    at: usize,
    /// The header's size: the record is `header + length` bytes.
    header: usize,
}

impl Field {
    fn length(&self, bytes: &[u8], record: usize) -> Option<usize> {
        let field = bytes.get(record + self.at..record + self.at + self.width)?;
        let mut value = 0usize;
        for i in 0..self.width {
            let byte = if self.big_endian {
                field[i]
            } else {
                field[self.width - 1 - i]
            };
            value = value << 8 | byte as usize;
        }
        Some(value)
    }

    /// The record starts of the chain from `start`, when it ends exactly
    /// at the end of `bytes` and some record has data.
    fn chain(&self, bytes: &[u8], start: usize) -> Option<Vec<usize>> {
        let mut starts = Vec::new();
        let mut at = start;
        let mut with_data = 0;
        while at < bytes.len() {
            let length = self.length(bytes, at)?;
            let next = at.checked_add(self.header)?.checked_add(length)?;
            if next > bytes.len() {
                return None;
            }
            with_data += usize::from(length > 0);
            starts.push(at);
            at = next;
        }
        (starts.len() >= MIN_RECORDS && with_data >= 2).then_some(starts)
    }
}

/// The fields looked for: widths 1, 2 and 4, both byte orders, the field
/// anywhere in a header of up to 8 bytes more than itself.
fn fields() -> impl Iterator<Item = Field> {
    [1usize, 2, 4].into_iter().flat_map(|width| {
        let orders: &[bool] = if width == 1 { &[true] } else { &[true, false] };
        orders.iter().flat_map(move |&big_endian| {
            (width..=width + 8).flat_map(move |header| {
                (0..=header - width).map(move |at| Field {
                    width,
                    big_endian,
                    at,
                    header,
                })
            })
        })
    })
}

/// Where the records of `bytes` start (the best chain), with 0 first when
/// something comes before them; `None` when no chain tiles the input.
pub(crate) fn record_starts(bytes: &[u8]) -> Option<Vec<usize>> {
    if bytes.len() > SEARCH_LIMIT {
        return None;
    }
    let mut best: Option<(usize, Vec<usize>)> = None;
    for field in fields() {
        for start in 0..=MAX_START.min(bytes.len()) {
            let Some(chain) = field.chain(bytes, start) else {
                continue;
            };
            let score = chain.len() * field.width;
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, chain));
            }
        }
    }
    let (_, mut starts) = best?;
    if starts[0] > 0 {
        starts.insert(0, 0);
    }
    Some(starts)
}

/// Dr. DD over whole records, or nothing when the input has none.
#[derive(Clone)]
pub(crate) struct Records {
    inner: Option<FlatPolicy>,
}

impl Records {
    /// The pass over `units` (bytes), weighing elements by `weights`.
    pub(crate) fn new(units: &Units, weights: Arc<Vec<u64>>) -> Self {
        let inner = record_starts(units.source()).map(|starts| {
            let mut lines: Vec<u32> = starts.into_iter().map(|s| s as u32).collect();
            lines.push(units.len());
            FlatPolicy::new(Box::new(DrDd::new(None)), weights).by_lines(Arc::new(lines))
        });
        Records { inner }
    }
}

impl Policy for Records {
    fn name(&self) -> String {
        "records".into()
    }

    fn start_pass(&mut self, config: &Configuration) {
        if let Some(inner) = &mut self.inner {
            inner.start_pass(config);
        }
    }

    fn next_proposal(&mut self, config: &Configuration) -> Option<Proposal> {
        self.inner.as_mut()?.next_proposal(config)
    }

    fn on_reduced(&mut self, reduced: Option<&Configuration>) -> bool {
        self.inner
            .as_mut()
            .is_some_and(|inner| inner.on_reduced(reduced))
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "MAGC", then records of a 2-byte big-endian length, a 1-byte type
    /// and the data.
    fn chunked(datas: &[&[u8]]) -> Vec<u8> {
        let mut out = b"MAGC".to_vec();
        for data in datas {
            out.extend((data.len() as u16).to_be_bytes());
            out.push(b'T');
            out.extend_from_slice(data);
        }
        out
    }

    #[test]
    fn a_chain_of_length_prefixed_records_is_found_with_what_comes_before_it() {
        let bytes = chunked(&[b"abc", b"", b"defgh", b"ij", b"k"]);
        assert_eq!(record_starts(&bytes), Some(vec![0, 4, 10, 13, 21, 26]));
    }

    #[test]
    fn input_without_records_or_with_too_few_has_none() {
        assert_eq!(record_starts(b""), None);
        assert_eq!(record_starts(&chunked(&[b"abc", b"de"])), None);
        assert_eq!(record_starts(&[0u8; 64]), None);
        let text = b"plain text with no lengths in it at all, just words.\n";
        assert_eq!(record_starts(text), None);
    }

    /// Whether `bytes` is "MAGC" and records that end exactly at its end.
    fn framed(bytes: &[u8]) -> bool {
        let mut at = 4;
        while at + 3 <= bytes.len() {
            at += 3 + (usize::from(bytes[at]) << 8 | usize::from(bytes[at + 1]));
        }
        bytes.starts_with(b"MAGC") && at == bytes.len()
    }

    #[test]
    fn records_are_deleted_whole_so_the_framing_holds() {
        use crate::engine::Engine;
        use crate::interfaces::{Candidate, Quiet, Verdict};
        use crate::units::UnitKind;
        let datas: Vec<Vec<u8>> = (0..12u8).map(|i| vec![b'a' + i; 3 + i as usize]).collect();
        let refs: Vec<&[u8]> = datas.iter().map(Vec::as_slice).collect();
        let bytes = chunked(&refs);
        let units = Units::flat(bytes.clone(), UnitKind::Byte);
        // Interesting while the framing holds and the record of `h`s is there.
        let oracle = |c: &Candidate<'_>| {
            if framed(c.bytes) && c.bytes.windows(3).any(|w| w == b"hhh") {
                Verdict::Interesting
            } else {
                Verdict::NotInteresting
            }
        };
        let weights = Arc::new(vec![1; bytes.len()]);
        let mut policy: Box<dyn Policy> = Box::new(Records::new(&units, weights));
        let mut engine = Engine::new(&units, &oracle).with_cache(false);
        let full = Configuration::full(units.len());
        let (result, _) = engine.run(&mut policy, full, &mut Quiet);
        assert_eq!(
            units.render(&result),
            [&b"MAGC\x00\x0aT"[..], &[b'h'; 10]].concat()
        );
    }
}
