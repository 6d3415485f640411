//! Candidates from outside the policies: an outside reducer's or a
//! proposing command's results, a set's include inlined. They are asked
//! one at a time, in the order given, until one passes; with `-j N` the
//! engine tests the next ones ahead on the guess that those before fail,
//! and with `--recheck` re-tests a pass before it counts, as for any
//! candidate.

use std::sync::Arc;

use super::{Ask, Batch, Commit, Ended, Next, Scheduler, Taken};
use crate::configuration::Configuration;

/// Candidates in order, up to the first that passes.
#[derive(Clone)]
pub struct Outside {
    candidates: Arc<Vec<Arc<Vec<u8>>>>,
    /// The next to ask.
    at: usize,
    found: bool,
    /// What an outside candidate's configuration is: none of the input's
    /// units (the oracle sees its text alone).
    none: Arc<Configuration>,
}

impl Outside {
    pub fn new(candidates: Vec<Vec<u8>>) -> Self {
        Outside {
            candidates: Arc::new(candidates.into_iter().map(Arc::new).collect()),
            at: 0,
            found: false,
            none: Arc::new(Configuration::full(0)),
        }
    }
}

impl Scheduler for Outside {
    fn next(&mut self) -> Next {
        match self.candidates.get(self.at) {
            Some(bytes) if !self.found => Next::Batch(Batch {
                base: None,
                asks: vec![Ask {
                    config: Arc::clone(&self.none),
                    bytes: Some(Arc::clone(bytes)),
                    prior: None,
                }],
            }),
            _ => Next::Over,
        }
    }

    fn take(&mut self, verdicts: &[bool]) -> Taken {
        let mut taken = Taken::default();
        if verdicts[0] {
            self.found = true;
            taken.commits.push(Commit {
                config: Arc::clone(&self.none),
                bytes: Some(Arc::clone(&self.candidates[self.at])),
            });
        }
        self.at += 1;
        taken
    }

    fn clone_box(&self) -> Box<dyn Scheduler> {
        Box::new(self.clone())
    }

    fn end(self: Box<Self>) -> Ended {
        Ended::default()
    }
}
