//! A fixed-size bitset over unit indices.
//!
//! Every configuration the reducer handles is a subset of the input's units,
//! and inputs reach hundreds of thousands of units, so a configuration is one
//! bit per unit. Range operations (`count_in`, `remove_range`, `any_in`) work
//! a word at a time, because a tree node's tokens are always a contiguous range.

use std::ops::Range;

/// A set of unit indices in `0..universe`, one bit each, with a cached count.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct BitSet {
    words: Vec<u64>,
    universe: u32,
    count: u32,
}

impl std::fmt::Debug for BitSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

fn word_mask(range: Range<u32>) -> impl Iterator<Item = (usize, u64)> {
    // Yields (word index, mask of the bits of `range` inside that word).
    let (start, end) = (range.start, range.end.max(range.start));
    let first = (start / 64) as usize;
    let last = if end == start {
        first
    } else {
        ((end - 1) / 64) as usize + 1
    };
    (first..last).map(move |w| {
        let lo = (w as u32 * 64).max(start) - w as u32 * 64;
        let hi = ((w as u32 + 1) * 64).min(end) - w as u32 * 64;
        let mask = if hi - lo == 64 {
            u64::MAX
        } else {
            ((1u64 << (hi - lo)) - 1) << lo
        };
        (w, mask)
    })
}

/// The word and mask of a non-empty `range` that lies within one word (the
/// common case for a tree node's tokens), so range queries skip
/// [`word_mask`]'s iterator.
fn single_word(range: &Range<u32>) -> Option<(usize, u64)> {
    if range.start >= range.end || range.start / 64 != (range.end - 1) / 64 {
        return None;
    }
    let lo = range.start % 64;
    let len = range.end - range.start;
    let mask = if len == 64 {
        u64::MAX
    } else {
        ((1u64 << len) - 1) << lo
    };
    Some(((range.start / 64) as usize, mask))
}

impl BitSet {
    /// The empty set over `0..universe`.
    pub fn empty(universe: u32) -> Self {
        BitSet {
            words: vec![0; universe.div_ceil(64) as usize],
            universe,
            count: 0,
        }
    }

    /// The full set `0..universe`.
    pub fn full(universe: u32) -> Self {
        let mut set = BitSet::empty(universe);
        set.insert_range(0..universe);
        set
    }

    /// The set holding exactly `units` (each below `universe`).
    pub(crate) fn from_units(universe: u32, units: impl IntoIterator<Item = u32>) -> Self {
        let mut set = BitSet::empty(universe);
        for u in units {
            set.insert(u);
        }
        set
    }

    /// How many indices the set could hold.
    /// The set's words, bit `i` of word `w` standing for index `64 w + i`.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    pub(crate) fn universe(&self) -> u32 {
        self.universe
    }

    /// How many indices it holds.
    pub fn len(&self) -> u32 {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn contains(&self, unit: u32) -> bool {
        unit < self.universe && self.words[(unit / 64) as usize] & (1 << (unit % 64)) != 0
    }

    /// Adds `unit`; returns whether it was new.
    pub(crate) fn insert(&mut self, unit: u32) -> bool {
        assert!(
            unit < self.universe,
            "unit {unit} outside the set's universe"
        );
        let word = &mut self.words[(unit / 64) as usize];
        let bit = 1 << (unit % 64);
        let new = *word & bit == 0;
        *word |= bit;
        self.count += new as u32;
        new
    }

    /// Removes `unit`; returns whether it was present.
    pub fn remove(&mut self, unit: u32) -> bool {
        if unit >= self.universe {
            return false;
        }
        let word = &mut self.words[(unit / 64) as usize];
        let bit = 1 << (unit % 64);
        let was = *word & bit != 0;
        *word &= !bit;
        self.count -= was as u32;
        was
    }

    /// Adds every index of `range`.
    pub(crate) fn insert_range(&mut self, range: Range<u32>) {
        let range = range.start.min(self.universe)..range.end.min(self.universe);
        for (w, mask) in word_mask(range) {
            self.count += (mask & !self.words[w]).count_ones();
            self.words[w] |= mask;
        }
    }

    /// Removes every index of `range`; returns how many were present.
    pub(crate) fn remove_range(&mut self, range: Range<u32>) -> u32 {
        let range = range.start.min(self.universe)..range.end.min(self.universe);
        let mut removed = 0;
        for (w, mask) in word_mask(range) {
            removed += (mask & self.words[w]).count_ones();
            self.words[w] &= !mask;
        }
        self.count -= removed;
        removed
    }

    /// How many indices of `range` the set holds.
    pub(crate) fn count_in(&self, range: Range<u32>) -> u32 {
        let range = range.start.min(self.universe)..range.end.min(self.universe);
        if let Some((w, mask)) = single_word(&range) {
            return (mask & self.words[w]).count_ones();
        }
        word_mask(range)
            .map(|(w, mask)| (mask & self.words[w]).count_ones())
            .sum()
    }

    /// Whether the set holds any index of `range`.
    pub(crate) fn any_in(&self, range: Range<u32>) -> bool {
        let range = range.start.min(self.universe)..range.end.min(self.universe);
        if let Some((w, mask)) = single_word(&range) {
            return mask & self.words[w] != 0;
        }
        word_mask(range).any(|(w, mask)| mask & self.words[w] != 0)
    }

    /// The first index of `range` the set holds.
    pub(crate) fn first_in(&self, range: Range<u32>) -> Option<u32> {
        let range = range.start.min(self.universe)..range.end.min(self.universe);
        word_mask(range).find_map(|(w, mask)| {
            let bits = mask & self.words[w];
            (bits != 0).then(|| w as u32 * 64 + bits.trailing_zeros())
        })
    }

    /// Whether the set holds every index of `range`.
    #[cfg(test)]
    pub(crate) fn all_in(&self, range: Range<u32>) -> bool {
        let len = range.end.saturating_sub(range.start);
        self.count_in(range) == len
    }

    /// The held indices, ascending.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let tz = bits.trailing_zeros();
                bits &= bits - 1;
                Some(w as u32 * 64 + tz)
            })
        })
    }

    /// The held indices, descending.
    pub(crate) fn iter_rev(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().rev().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let top = 63 - bits.leading_zeros();
                bits &= !(1u64 << top);
                Some(w as u32 * 64 + top)
            })
        })
    }

    /// The held indices as maximal runs of consecutive indices, ascending.
    pub fn runs(&self) -> Vec<Range<u32>> {
        let mut runs: Vec<Range<u32>> = Vec::new();
        // A word at a time: each step takes a whole run of ones (or the
        // part of it in this word) with two bit scans.
        for (w, &word) in self.words.iter().enumerate() {
            let base = w as u32 * 64;
            let mut bits = word;
            while bits != 0 {
                let start = bits.trailing_zeros();
                let len = (bits >> start).trailing_ones();
                let run = base + start..base + start + len;
                match runs.last_mut() {
                    Some(last) if last.end == run.start => last.end = run.end,
                    _ => runs.push(run),
                }
                bits = if start + len == 64 {
                    0
                } else {
                    bits & !((1u64 << (start + len)) - 1)
                };
            }
        }
        runs
    }

    /// The indices held by `self` but not by `other` (same universe).
    #[cfg(test)]
    pub(crate) fn difference(&self, other: &BitSet) -> BitSet {
        let mut out = self.clone();
        let mut count = 0;
        for (a, b) in out.words.iter_mut().zip(&other.words) {
            *a &= !b;
            count += a.count_ones();
        }
        out.count = count;
        out
    }

    /// Whether every index of `self` is also in `other`.
    #[cfg(test)]
    pub(crate) fn is_subset(&self, other: &BitSet) -> bool {
        self.words
            .iter()
            .zip(&other.words)
            .all(|(a, b)| a & !b == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_operations_agree_with_single_bit_operations() {
        let mut set = BitSet::empty(300);
        set.insert_range(10..200);
        assert_eq!(set.len(), 190);
        assert_eq!(set.count_in(0..64), 54);
        assert_eq!(set.remove_range(60..130), 70);
        assert_eq!(set.len(), 120);
        assert!(!set.contains(60) && !set.contains(129) && set.contains(130) && set.contains(59));
        assert!(set.any_in(0..11) && !set.any_in(60..130));
        assert!(set.all_in(130..200) && !set.all_in(129..200));
        assert_eq!(set.runs(), vec![10..60, 130..200]);
        let words =
            BitSet::from_units(300, (0..300).filter(|u| u % 64 < 3 || (60..70).contains(u)));
        let by_bits = words.iter().fold(Vec::<Range<u32>>::new(), |mut runs, u| {
            match runs.last_mut() {
                Some(last) if last.end == u => last.end += 1,
                _ => runs.push(u..u + 1),
            }
            runs
        });
        assert_eq!(words.runs(), by_bits);
        assert_eq!(BitSet::full(128).runs(), vec![0..128]);
        for range in [3..9, 0..64, 64..128, 63..65, 5..5, 100..190] {
            assert_eq!(
                words.count_in(range.clone()),
                words.iter().filter(|u| range.contains(u)).count() as u32
            );
            assert_eq!(
                words.any_in(range.clone()),
                words.iter().any(|u| range.contains(&u))
            );
            assert_eq!(
                words.first_in(range.clone()),
                words.iter().find(|u| range.contains(u))
            );
        }
        assert_eq!(set.iter().count() as u32, set.len());
        let mut down: Vec<u32> = set.iter_rev().collect();
        down.reverse();
        assert_eq!(down, set.iter().collect::<Vec<_>>());
    }

    #[test]
    fn ranges_on_word_boundaries_count_exactly() {
        let mut set = BitSet::full(128);
        assert_eq!(set.len(), 128);
        assert_eq!(set.count_in(64..128), 64);
        assert_eq!(set.remove_range(0..64), 64);
        assert_eq!(set.count_in(0..128), 64);
        assert_eq!(set.remove_range(5..5), 0);
        assert!(!set.any_in(5..5));
    }

    #[test]
    fn difference_and_subset_are_consistent() {
        let a = BitSet::from_units(100, [1, 2, 3, 70, 99]);
        let b = BitSet::from_units(100, [2, 70]);
        let d = a.difference(&b);
        assert_eq!(d.iter().collect::<Vec<_>>(), vec![1, 3, 99]);
        assert_eq!(d.len(), 3);
        assert!(b.is_subset(&a) && !a.is_subset(&b));
    }
}
