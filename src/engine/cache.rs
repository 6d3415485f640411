//! The verdict cache: candidates already judged are not judged again.
//!
//! Keyed by a 128-bit hash of the rendered candidate, so two configurations
//! that render the same bytes share one entry. Shared by all workers through
//! the reduce loop, which is the only reader and writer.
//!
//! Candidates the syntax filter refused are remembered apart from oracle
//! verdicts: a later phase that runs without the filter must still test them.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use xxhash_rust::xxh3::xxh3_128;

/// A candidate's cache key.
pub(crate) type Key = u128;

/// The key of some rendered bytes.
pub(crate) fn key_of(bytes: &[u8]) -> Key {
    xxh3_128(bytes)
}

/// Verdicts by candidate hash (`true` = interesting).
#[derive(Default, Debug)]
pub(crate) struct VerdictCache {
    verdicts: HashMap<Key, bool>,
    syntax_rejected: HashSet<Key>,
}

impl VerdictCache {
    pub fn get(&self, key: Key) -> Option<bool> {
        self.verdicts.get(&key).copied()
    }

    pub(crate) fn insert(&mut self, key: Key, interesting: bool) {
        self.verdicts.insert(key, interesting);
    }

    /// Remembers that the syntax filter refused this candidate.
    pub(crate) fn insert_syntax_rejected(&mut self, key: Key) {
        self.syntax_rejected.insert(key);
    }

    /// Whether the syntax filter refused this candidate before.
    pub fn syntax_rejected(&self, key: Key) -> bool {
        self.syntax_rejected.contains(&key)
    }
}
