//! The verdict cache: candidates already judged are not judged again.
//!
//! Keyed by a 128-bit hash of the rendered candidate, so two configurations
//! that render the same bytes share one entry. Shared by all workers through
//! the reduce loop, which is the only reader and writer.
//!
//! Candidates the syntax filter refused are remembered apart from oracle
//! verdicts: a later phase that runs without the filter must still test them.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use xxhash_rust::xxh3::{Xxh3, xxh3_128};

use crate::configuration::Configuration;
use crate::units::{Sink, Units};

/// A candidate's cache key.
pub(crate) type Key = u128;

/// The key of some rendered bytes.
pub(crate) fn key_of(bytes: &[u8]) -> Key {
    xxh3_128(bytes)
}

/// The key of `config`'s bytes, hashed as they are rendered, without
/// holding them: [`key_of`] its rendering.
pub(crate) fn key_of_config(units: &Units, config: &Configuration) -> Key {
    let mut writer = KeyWriter {
        hasher: Xxh3::new(),
        last: None,
    };
    units.render_into(config, &mut writer);
    writer.hasher.digest128()
}

/// A rendering hashed as it is written.
struct KeyWriter {
    hasher: Xxh3,
    last: Option<u8>,
}

impl Sink for KeyWriter {
    fn extend(&mut self, bytes: &[u8]) {
        self.hasher.update(bytes);
        self.last = bytes.last().copied().or(self.last);
    }

    fn last_byte(&self) -> Option<u8> {
        self.last
    }
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::configuration::Layout;
    use crate::policy::testing::XorShift;
    use crate::units::UnitKind;

    #[test]
    fn a_configuration_hashed_as_it_renders_has_its_renderings_key() {
        let source = b"#define N 1\nint  x = - -N;  // note\n    int y=-1;\nf(a,b)+g;\n".repeat(20);
        let units = Units::flat(source, UnitKind::Token);
        let mut rng = XorShift::new(3);
        for round in 0..400 {
            let mut config = Configuration::full(units.len());
            for _ in 0..rng.below(20) {
                let start = rng.below(u64::from(units.len())) as u32;
                let end = (start + rng.below(30) as u32).min(units.len());
                config.kept.remove_range(start..end);
            }
            for _ in 0..rng.below(4) {
                let unit = rng.below(u64::from(units.len())) as u32;
                Arc::make_mut(&mut config.rewrites).insert(unit, Arc::from(&b"0"[..]));
            }
            config.layout = [
                Layout::Original,
                Layout::Lines,
                Layout::Compact,
                Layout::Tidy,
            ][round % 4];
            let bytes = units.render(&config);
            assert_eq!(key_of_config(&units, &config), key_of(&bytes), "{config:?}");
        }
    }
}
