//! Compact per-node columns for the arena, so a 1 MB input's tree costs a
//! few bytes per node rather than tens.
//!
//! Large inputs have hundreds of thousands of nodes, most of them tokens, and
//! most subtree sizes fit in 16 bits. [`NarrowU32s`] stores such numbers in two
//! bytes each and keeps the rare large ones aside. [`RankedBits`] marks which
//! nodes are tokens and answers "how many tokens come before node `n`" and
//! "which node is token `k`" in constant time, which replaces a per-node
//! token range and a per-token node index; over a configuration's kept
//! bits, it gives the kept tokens under any node in constant time.

use std::collections::HashMap;

/// A column of `u32` stored in two bytes per entry; values of `u16::MAX` and
/// above live in a side table.
#[derive(Debug, Default)]
pub(crate) struct NarrowU32s {
    narrow: Vec<u16>,
    wide: HashMap<u32, u32>,
}

const WIDE: u16 = u16::MAX;

impl NarrowU32s {
    pub fn get(&self, i: u32) -> u32 {
        match self.narrow[i as usize] {
            WIDE => self.wide[&i],
            v => u32::from(v),
        }
    }

    pub fn push(&mut self, value: u32) {
        let i = self.narrow.len() as u32;
        self.narrow.push(WIDE);
        self.set(i, value);
    }

    pub(crate) fn set(&mut self, i: u32, value: u32) {
        match u16::try_from(value) {
            Ok(v) if v != WIDE => {
                if self.narrow[i as usize] == WIDE {
                    self.wide.remove(&i);
                }
                self.narrow[i as usize] = v;
            }
            _ => {
                self.narrow[i as usize] = WIDE;
                self.wide.insert(i, value);
            }
        }
    }

    pub(crate) fn reserve_exact(&mut self, n: usize) {
        self.narrow.reserve_exact(n);
    }

    pub(crate) fn shrink_to_fit(&mut self) {
        self.narrow.shrink_to_fit();
        self.wide.shrink_to_fit();
    }
}

/// A growable bit column with rank (set bits before a position) and select
/// (position of the `k`-th set bit), both O(1) once [`Self::seal`]ed.
#[derive(Debug, Default)]
pub(crate) struct RankedBits {
    words: Vec<u64>,
    len: u32,
    /// Set bits in the words before each word (one more entry than words).
    before: Vec<u32>,
    /// For every 64th set bit, the word holding it.
    samples: Vec<u32>,
}

impl RankedBits {
    /// The bits of a [`crate::bitset::BitSet`]'s words, `len` of them, sealed.
    pub(crate) fn from_words(words: &[u64], len: u32) -> Self {
        let mut bits = RankedBits {
            words: words.to_vec(),
            len,
            ..RankedBits::default()
        };
        bits.seal();
        bits
    }

    /// Room for `bits` more bits.
    pub(crate) fn reserve_exact(&mut self, bits: usize) {
        self.words.reserve_exact(bits.div_ceil(64));
    }

    /// Appends one bit (only before sealing).
    pub fn push(&mut self, bit: bool) {
        let at = self.len as usize;
        if at.is_multiple_of(64) {
            self.words.push(0);
        }
        if bit {
            self.words[at / 64] |= 1 << (at % 64);
        }
        self.len += 1;
    }

    /// Builds the rank and select tables; pushing afterwards is a bug.
    pub(crate) fn seal(&mut self) {
        self.words.shrink_to_fit();
        self.before = Vec::with_capacity(self.words.len() + 1);
        self.samples.clear();
        let mut count = 0u32;
        for (w, &word) in self.words.iter().enumerate() {
            self.before.push(count);
            let ones = word.count_ones();
            // Sample the words where a multiple of 64 set bits is crossed.
            let mut next = self.samples.len() as u32 * 64;
            while next < count + ones {
                self.samples.push(w as u32);
                next += 64;
            }
            count += ones;
        }
        self.before.push(count);
    }

    /// The positions of the set bits, in order.
    pub(crate) fn positions(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let at = bits.trailing_zeros();
                    bits &= bits - 1;
                    w as u32 * 64 + at
                })
            })
        })
    }

    /// The number of set bits.
    pub fn ones(&self) -> u32 {
        self.before.last().copied().unwrap_or(0)
    }

    /// Set bits at positions `< i` (`i <= len`).
    pub(crate) fn rank(&self, i: u32) -> u32 {
        let w = i as usize / 64;
        let bit = i % 64;
        let below = if bit == 0 {
            0
        } else {
            (self.words[w] & ((1u64 << bit) - 1)).count_ones()
        };
        self.before[w] + below
    }

    /// The position of the `k`-th set bit (counting from 0; `k < ones()`).
    pub(crate) fn select(&self, k: u32) -> u32 {
        let mut w = self.samples[k as usize / 64] as usize;
        while self.before[w + 1] <= k {
            w += 1;
        }
        let mut word = self.words[w];
        for _ in 0..k - self.before[w] {
            word &= word - 1;
        }
        w as u32 * 64 + word.trailing_zeros()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_columns_give_back_every_value_small_or_large() {
        let values = [0, 1, 65_534, 65_535, 65_536, u32::MAX, 7, 70_000];
        let mut col = NarrowU32s::default();
        for &v in &values {
            col.push(v);
        }
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(col.get(i as u32), v);
        }
        col.set(5, 3);
        col.set(0, 100_000);
        assert_eq!(col.get(5), 3);
        assert_eq!(col.get(0), 100_000);
        assert_eq!(col.wide.len(), 4, "{:?}", col.wide);
    }

    #[test]
    fn rank_and_select_agree_with_counting_on_random_bits() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for density in [1u64, 3, 8, 15] {
            let mut bits = RankedBits::default();
            let mut plain = Vec::new();
            for _ in 0..5_000 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let bit = state % 16 < density;
                bits.push(bit);
                plain.push(bit);
            }
            bits.seal();
            let mut ones = 0;
            for (i, &bit) in plain.iter().enumerate() {
                assert_eq!(bits.rank(i as u32), ones);
                assert_eq!(
                    bits.rank(i as u32 + 1) - bits.rank(i as u32),
                    u32::from(bit)
                );
                if bit {
                    assert_eq!(bits.select(ones), i as u32);
                    ones += 1;
                }
            }
            assert_eq!(bits.rank(plain.len() as u32), ones);
            assert_eq!(bits.ones(), ones);
        }
    }
}
