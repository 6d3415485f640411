//! The serial scheduler: the policy's proposals one at a time, in its
//! order, each committed when it passes, as the tutorial's reduce loop
//! tests them. With `-j N` the engine runs copies of it ahead on guesses;
//! what it commits stays the serial loop's.

use std::sync::Arc;

use super::cursor::Cursor;
use super::{Ask, Batch, Commit, Ended, Next, Scheduler, Taken};
use crate::configuration::Configuration;
use crate::policy::Policy;

/// The policy's next proposal, then the next.
#[derive(Clone)]
pub struct Serial {
    cursor: Cursor,
    /// The candidate asked last.
    asked: Option<Arc<Configuration>>,
}

impl Serial {
    /// A phase of `policy` from `start`.
    pub fn new(policy: Box<dyn Policy>, start: Arc<Configuration>) -> Self {
        Serial::on(Cursor::new(policy, start))
    }

    /// Goes on from `cursor`.
    pub fn on(cursor: Cursor) -> Self {
        Serial {
            cursor,
            asked: None,
        }
    }

    /// The next candidate along the path of failures, if any.
    pub fn next_ask(&mut self) -> Option<Arc<Configuration>> {
        let candidate = Arc::new(self.cursor.next_candidate()?);
        self.asked = Some(Arc::clone(&candidate));
        Some(candidate)
    }

    /// Takes the verdict on the candidate asked last: the committed
    /// configuration when it passed.
    pub fn take_one(&mut self, passed: bool) -> Option<Arc<Configuration>> {
        let asked = self.asked.take().expect("a candidate was asked");
        passed.then(|| {
            self.cursor.commit(Arc::clone(&asked));
            asked
        })
    }

    pub fn into_cursor(self) -> Cursor {
        self.cursor
    }
}

impl Scheduler for Serial {
    fn next(&mut self) -> Next {
        let base = self.cursor.shared_base();
        match self.next_ask() {
            Some(candidate) => Next::Batch(Batch {
                base: Some(base),
                asks: vec![Ask::of(candidate)],
            }),
            None => Next::Over,
        }
    }

    fn take(&mut self, verdicts: &[bool]) -> Taken {
        let commits = self.take_one(verdicts[0]).map(Commit::of);
        Taken {
            commits: commits.into_iter().collect(),
            ..Taken::default()
        }
    }

    fn clone_box(&self) -> Box<dyn Scheduler> {
        Box::new(self.clone())
    }

    fn end(self: Box<Self>) -> Ended {
        Ended {
            policy: Some(self.cursor.into_policy()),
            rates: None,
        }
    }
}
