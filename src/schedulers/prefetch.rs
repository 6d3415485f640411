//! The next phases' first candidates, tested ahead while a phase's own
//! path of failures has run out: if every test outstanding fails, the
//! phase ends and the next one starts from the same base with these
//! candidates, so their verdicts, cached, spare it a batch. A candidate
//! that passes ends the tests ahead (what follows it would be proposed
//! from another base). Nothing is committed from here: the cache only
//! answers what the tests would.

use std::sync::Arc;

use super::cursor::Cursor;
use crate::configuration::Configuration;
use crate::policy::Policy;

/// Candidates of the phases after the one that ends at a base.
pub struct Prefetch {
    base: Arc<Configuration>,
    /// The phase whose candidates come next (`None` before the first).
    cursor: Option<Cursor>,
    /// The index of the phase after it among those given.
    next_phase: usize,
    /// No more candidates: the phases ran out, or one passed.
    over: bool,
}

impl Prefetch {
    /// Tests ahead of the phases after the one that ends at `base`.
    pub fn new(base: Arc<Configuration>) -> Self {
        Prefetch {
            base,
            cursor: None,
            next_phase: 0,
            over: false,
        }
    }

    /// The next candidate to test ahead, from the current phase's policy,
    /// or the next of the phases to come (`phase(i)` gives the `i`th, in
    /// order); `None` when there is none.
    pub fn next_candidate(
        &mut self,
        phase: &mut dyn FnMut(usize) -> Option<Box<dyn Policy>>,
    ) -> Option<Arc<Configuration>> {
        while !self.over {
            if let Some(candidate) = self.cursor.as_mut().and_then(Cursor::next_candidate) {
                return Some(Arc::new(candidate));
            }
            match phase(self.next_phase) {
                Some(policy) => {
                    self.cursor = Some(Cursor::new(policy, Arc::clone(&self.base)));
                    self.next_phase += 1;
                }
                None => self.over = true,
            }
        }
        None
    }

    /// A candidate passed: nothing more is tested ahead.
    pub fn stop(&mut self) {
        self.over = true;
    }

    /// The configuration the candidates are proposed from.
    pub fn base(&self) -> &Arc<Configuration> {
        &self.base
    }
}
