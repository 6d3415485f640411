//! What `--each` learns from the tests of a corpus beside their verdicts:
//! how many times the target ran, and which crashes no file of the corpus
//! had, each with the smallest candidate that showed it, so that a bug met
//! while reducing another is kept as a group of its own instead of being
//! thrown away with the candidate.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use super::signature::Signature;

/// The executions and new crashes of the tests of one oracle (and its
/// clones), shared with the driver of `--each`.
#[derive(Debug, Default)]
pub(crate) struct Sightings {
    /// Signatures already known (their display): the corpus's groups.
    known: BTreeSet<String>,
    /// Runs of the test command, every kind of run counted.
    executions: AtomicU64,
    /// New signatures (by their display), each with the smallest
    /// candidate that showed it.
    found: Mutex<BTreeMap<String, (Signature, Vec<u8>)>>,
}

impl Sightings {
    /// Sightings that report any crash not among `known`.
    pub(crate) fn new(known: BTreeSet<String>) -> Self {
        Sightings {
            known,
            ..Sightings::default()
        }
    }

    /// Counts one run of the test command.
    pub(crate) fn ran(&self) {
        self.executions.fetch_add(1, Ordering::Relaxed);
    }

    /// The runs counted so far.
    pub(crate) fn executions(&self) -> u64 {
        self.executions.load(Ordering::Relaxed)
    }

    /// Notes that `bytes` crashed with `signature`: kept when no group
    /// has it and no smaller candidate showed it before.
    pub(crate) fn saw(&self, signature: Signature, bytes: &[u8]) {
        let key = signature.to_string();
        if self.known.contains(&key) {
            return;
        }
        let mut found = self.found.lock().unwrap_or_else(|e| e.into_inner());
        match found.get(&key) {
            Some((_, smallest)) if smallest.len() <= bytes.len() => {}
            _ => {
                found.insert(key, (signature, bytes.to_vec()));
            }
        }
    }

    /// The new crashes seen, in the order of their signatures.
    pub(crate) fn found(&self) -> Vec<(Signature, Vec<u8>)> {
        let found = self.found.lock().unwrap_or_else(|e| e.into_inner());
        found.values().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crash(kind: &str) -> Signature {
        Signature {
            kind: kind.to_string(),
            frames: vec!["f".to_string()],
        }
    }

    #[test]
    fn a_new_crash_is_kept_with_its_smallest_candidate_and_a_known_one_is_not() {
        let known = BTreeSet::from([crash("signal SIGSEGV").to_string()]);
        let sightings = Sightings::new(known);
        sightings.saw(crash("signal SIGSEGV"), b"x");
        sightings.saw(crash("signal SIGABRT"), b"long one");
        sightings.saw(crash("signal SIGABRT"), b"short");
        sightings.saw(crash("signal SIGABRT"), b"longer still");
        let found = sightings.found();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, crash("signal SIGABRT"));
        assert_eq!(found[0].1, b"short");
    }
}
