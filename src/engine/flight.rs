//! The tests in flight: one entry per test started and not yet reported,
//! found by its ticket or by its candidate's cache key, so that a
//! candidate asked again while its test runs (by a copy of a scheduler run
//! ahead, or twice in one wave) is tested once. Each holder of a ticket
//! (a slot of the lookahead, a test ahead of the next phases) lets go of
//! it when it no longer needs the verdict; the test is cancelled when the
//! last lets go.

use std::sync::Arc;
use std::time::Instant;

use rustc_hash::FxHashMap;

use super::pool::Job;
use super::timing::{Guess, PassWindow};
use crate::configuration::Configuration;
use crate::interfaces::CancelSignal;

/// A test in flight.
pub struct Entry {
    pub key: u128,
    config: Arc<Configuration>,
    bytes: Arc<Vec<u8>>,
    parent: Option<Arc<Vec<u8>>>,
    cancel: Arc<CancelSignal>,
    /// Passed its first test and is being tested again (`--recheck`).
    pub confirming: bool,
    /// How its test is guessed to end.
    pub guess: Guess,
    holders: u32,
}

/// The tests in flight (see the module documentation).
#[derive(Default)]
pub struct Flight {
    entries: FxHashMap<u64, Entry>,
    by_key: FxHashMap<u128, u64>,
    next: u64,
}

impl Flight {
    /// Tests in flight.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The ticket of the test of `key` in flight, if any, held once more.
    pub fn hold(&mut self, key: u128) -> Option<u64> {
        let ticket = *self.by_key.get(&key)?;
        self.entries.get_mut(&ticket)?.holders += 1;
        Some(ticket)
    }

    /// Starts a test of `bytes` (`config`, key `key`), held once: its job.
    pub fn start(
        &mut self,
        key: u128,
        config: Arc<Configuration>,
        bytes: Arc<Vec<u8>>,
        parent: Option<Arc<Vec<u8>>>,
    ) -> Job {
        let ticket = self.next;
        self.next += 1;
        let entry = Entry {
            key,
            config,
            bytes,
            parent,
            cancel: Arc::new(CancelSignal::new()),
            confirming: false,
            guess: Guess::new(Instant::now()),
            holders: 1,
        };
        let job = job_of(ticket, &entry);
        self.by_key.insert(key, ticket);
        self.entries.insert(ticket, entry);
        job
    }

    /// The test of `ticket` passed once: it runs again to confirm it.
    pub fn retest(&mut self, ticket: u64) -> Job {
        let entry = self.entries.get_mut(&ticket).expect("a test in flight");
        entry.confirming = true;
        job_of(ticket, entry)
    }

    pub fn get(&self, ticket: u64) -> Option<&Entry> {
        self.entries.get(&ticket)
    }

    /// One holder of `ticket` lets go of it; the test is cancelled when
    /// none is left (then true).
    pub fn release(&mut self, ticket: u64) -> bool {
        let Some(entry) = self.entries.get_mut(&ticket) else {
            return false;
        };
        entry.holders -= 1;
        if entry.holders > 0 {
            return false;
        }
        entry.cancel.cancel();
        self.finish(ticket);
        true
    }

    /// The test of `ticket` is over: its entry leaves the table.
    pub fn finish(&mut self, ticket: u64) -> Option<Entry> {
        let entry = self.entries.remove(&ticket)?;
        if self.by_key.get(&entry.key) == Some(&ticket) {
            self.by_key.remove(&entry.key);
        }
        Some(entry)
    }

    /// Cancels every test; how many there were.
    pub fn cancel_all(&mut self) -> u64 {
        let n = self.entries.len() as u64;
        for entry in self.entries.values() {
            entry.cancel.cancel();
        }
        self.entries.clear();
        self.by_key.clear();
        n
    }

    /// Brings every running test's guess up to `now`; whether one changed.
    pub fn reguess(&mut self, window: Option<PassWindow>, now: Instant) -> bool {
        let mut changed = false;
        for entry in self.entries.values_mut() {
            changed |= entry.guess.update(window, now);
        }
        changed
    }

    /// How long until a running test's guess would change, at most `max`.
    pub fn next_change(
        &self,
        window: Option<PassWindow>,
        now: Instant,
        max: std::time::Duration,
    ) -> std::time::Duration {
        self.entries
            .values()
            .filter_map(|e| e.guess.changes_in(window, now))
            .fold(max, std::cmp::Ord::min)
    }
}

fn job_of(ticket: u64, entry: &Entry) -> Job {
    Job {
        ticket,
        config: Arc::clone(&entry.config),
        bytes: Arc::clone(&entry.bytes),
        parent: entry.parent.clone(),
        cancel: Arc::clone(&entry.cancel),
    }
}
