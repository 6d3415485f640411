//! A set's journal, kept at the one place every stage's candidates meet:
//! the whole archive the oracle is handed and the output is written from.
//!
//! A set's stages key their caches differently (the pool stages by whole
//! archives, a file's stage by that file's bytes, with a fresh cache), so
//! the loop's own journal (`VerdictLog`, keyed by what a stage renders)
//! cannot be read back across stages. [`Journaled`] stands between the
//! stages and the run's oracle and output instead: every verdict the
//! oracle gives is journaled under the hash of the whole archive it
//! judged, and every result saved as the archive's size and hash, in the
//! journal format of `journal.rs`. A resumed run answers a test whose
//! archive the journal knows without running the oracle (a replayed
//! verdict, counted as a cache hit); the stages, deterministic, replay the
//! earlier run up to where it stopped and go on, and while they replay
//! nothing larger than the result the earlier run saved is written again.

use std::sync::Mutex;

use anyhow::Result;

use crate::engine::cache::{VerdictCache, key_of};
use crate::interfaces::{Candidate, Fault, Oracle, TestOutcome, Verdict, VerdictLog, Watch};
use crate::journal::{Journal, Replaying, Resumed};
use crate::output::Save;

/// The run's oracle and output, journaled by whole archive.
pub(super) struct Journaled<'a> {
    oracle: &'a dyn Oracle,
    destination: &'a dyn Save,
    journal: Option<&'a Journal>,
    /// The verdicts the earlier run recorded (only those: a verdict of
    /// this run is the stages' caches' business, as in a run not resumed).
    known: VerdictCache,
    replaying: Mutex<Replaying>,
}

impl<'a> Journaled<'a> {
    /// `oracle` and `destination` journaled to `journal` (when there is
    /// one), answering from `resumed`, what the journal kept of an earlier
    /// run of the same command.
    pub(super) fn new(
        oracle: &'a dyn Oracle,
        destination: &'a dyn Save,
        journal: Option<&'a Journal>,
        resumed: Option<Resumed>,
    ) -> Self {
        let mut known = VerdictCache::default();
        let mut best = None;
        if let Some(resumed) = resumed.filter(|_| journal.is_some()) {
            for (key, interesting) in resumed.verdicts {
                known.insert(key, interesting);
            }
            best = resumed.best;
        }
        Journaled {
            oracle,
            destination,
            journal,
            known,
            replaying: Mutex::new(Replaying::new(best)),
        }
    }
}

impl Journaled<'_> {
    /// Whether the run is still replaying its way to the result the
    /// earlier run saved, which the output holds.
    pub(super) fn replaying(&self) -> bool {
        self.replaying.lock().expect("replay lock poisoned").is_on()
    }
}

impl Oracle for Journaled<'_> {
    fn test(&self, candidate: &Candidate<'_>, cancel: Watch<'_>) -> Result<TestOutcome, Fault> {
        let Some(journal) = self.journal else {
            return self.oracle.test(candidate, cancel);
        };
        let key = key_of(candidate.bytes);
        if let Some(interesting) = self.known.get(key) {
            let verdict = if interesting {
                Verdict::Interesting
            } else {
                Verdict::NotInteresting
            };
            return Ok(TestOutcome {
                replayed: true,
                ..verdict.into()
            });
        }
        let outcome = self.oracle.test(candidate, cancel)?;
        if !outcome.cancelled {
            journal.verdict(key, outcome.verdict == Verdict::Interesting);
        }
        Ok(outcome)
    }
}

impl Save for Journaled<'_> {
    fn save(&self, archive: &[u8]) -> Result<()> {
        let mut replaying = self.replaying.lock().expect("replay lock poisoned");
        if !replaying.worth_saving(archive) {
            return Ok(());
        }
        self.destination.save(archive)?;
        if let Some(journal) = self.journal {
            journal.committed(archive);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    use super::*;
    use crate::configuration::Configuration;
    use crate::interfaces::Messages;
    use crate::journal::load;
    use crate::progress::Printer;

    /// Saves into a list.
    #[derive(Default)]
    struct Saved(Mutex<Vec<Vec<u8>>>);
    impl Save for Saved {
        fn save(&self, bytes: &[u8]) -> Result<()> {
            self.0.lock().unwrap().push(bytes.to_vec());
            Ok(())
        }
    }

    fn test(oracle: &dyn Oracle, bytes: &[u8]) -> TestOutcome {
        let config = Configuration::full(0);
        let never = AtomicBool::new(false);
        oracle
            .test(
                &Candidate {
                    config: &config,
                    bytes,
                },
                Watch::Flag(&never),
            )
            .unwrap()
    }

    #[test]
    fn a_resumed_set_answers_known_archives_without_the_oracle_and_saves_nothing_larger_while_replaying()
     {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.reduce-journal");
        let printer: Arc<dyn Messages> = Arc::new(Printer::stderr());
        let calls = AtomicUsize::new(0);
        let oracle = |c: &Candidate<'_>| {
            calls.fetch_add(1, Ordering::SeqCst);
            if c.bytes.starts_with(b"a") {
                Verdict::Interesting
            } else {
                Verdict::NotInteresting
            }
        };
        let saved = Saved::default();
        // The first run: two verdicts, one result, then a kill.
        let journal = Journal::start(&path, "h", false, Arc::clone(&printer)).unwrap();
        let first = Journaled::new(&oracle, &saved, Some(&journal), None);
        assert!(!test(&first, b"abc").replayed);
        assert_eq!(test(&first, b"bc").verdict, Verdict::NotInteresting);
        first.save(b"ab").unwrap();
        drop(journal);
        assert_eq!(calls.load(Ordering::SeqCst), 2);
        // The same command again.
        let resumed = load(&path, "h").unwrap();
        let journal = Journal::start(&path, "h", true, printer).unwrap();
        let again = Journaled::new(&oracle, &saved, Some(&journal), resumed);
        let known = test(&again, b"bc");
        assert!(known.replayed && known.verdict == Verdict::NotInteresting);
        assert!(test(&again, b"abc").replayed);
        assert_eq!(
            calls.load(Ordering::SeqCst),
            2,
            "replayed verdicts run no test"
        );
        assert!(!test(&again, b"a").replayed);
        again.save(b"abc").unwrap(); // larger than the saved result: skipped
        again.save(b"ab").unwrap(); // the saved result reached: not again
        again.save(b"a").unwrap();
        assert_eq!(
            *saved.0.lock().unwrap(),
            vec![b"ab".to_vec(), b"a".to_vec()]
        );
        let journaled = load(&path, "h").unwrap().unwrap();
        assert_eq!(journaled.verdicts.len(), 3);
        assert_eq!(journaled.best, Some((1, key_of(b"a"))));
    }
}
