//! Schedulers: what the engine tests next, and what it commits.
//!
//! A scheduler is a deterministic process over verdicts: it asks for a
//! [`Batch`] of candidates whose verdicts it needs together, takes their
//! verdicts in the batch's order, and says what to commit. It never runs
//! a test, reads the cache or looks at the time; the engine (`engine/`)
//! does, and may run a copy of a scheduler ahead on guessed verdicts
//! ([`Scheduler::clone_box`]) to keep its workers busy. Since what a
//! scheduler asks and commits depends on the verdicts alone, the engine's
//! guesses change which tests run, never what is committed.
//!
//! - [`serial::Serial`]: the policy's proposals one at a time, as the
//!   tutorial's reduce loop tests them (`--wave 1`).
//! - [`waves::Waves`]: waves of independent proposals and their merges,
//!   and chains along the path of failures between them (`--wave W`).
//! - [`outside::Outside`]: candidates from outside the policies (outside
//!   reducers, proposals, an inlined include), the first that passes.
//! - [`prefetch::Prefetch`]: the next phases' first candidates, tested
//!   for the cache while a phase's own run out.

use std::sync::Arc;

use crate::configuration::Configuration;
use crate::policy::Policy;

pub mod cursor;
pub mod merge;
pub mod outside;
pub mod prefetch;
pub mod rates;
pub mod serial;
pub mod waves;

/// A candidate a scheduler asks about.
#[derive(Clone)]
pub struct Ask {
    pub config: Arc<Configuration>,
    /// Its text, when the scheduler has it (a candidate from outside the
    /// policies); else the engine renders `config`.
    pub bytes: Option<Arc<Vec<u8>>>,
    /// How likely it is to pass, where the scheduler knows better than
    /// the run's recent tests (a merge's union); the engine's guesses use it.
    pub prior: Option<f64>,
}

impl Ask {
    /// A candidate the engine renders.
    pub fn of(config: Arc<Configuration>) -> Ask {
        Ask {
            config,
            bytes: None,
            prior: None,
        }
    }
}

/// Candidates whose verdicts a scheduler needs together, all proposed
/// from one base.
pub struct Batch {
    /// The configuration they were proposed from (the lenient syntax
    /// filter compares a candidate with it); `None` for candidates from
    /// outside the policies, which the filter judges strictly.
    pub base: Option<Arc<Configuration>>,
    pub asks: Vec<Ask>,
}

/// What a scheduler asks next.
pub enum Next {
    Batch(Batch),
    /// Nothing more: the phase is over.
    Over,
}

/// What taking a batch's verdicts gave.
#[derive(Clone, Default)]
pub struct Taken {
    /// Configurations to commit, in order (a merge, then the wave tested
    /// along with its union and merged at once, say).
    pub commits: Vec<Commit>,
    /// Waves whose verdicts were taken.
    pub waves: u64,
    /// Proposals committed in merges of two or more.
    pub merged: u64,
}

/// A configuration to commit, with its text when the scheduler has it.
#[derive(Clone)]
pub struct Commit {
    pub config: Arc<Configuration>,
    pub bytes: Option<Arc<Vec<u8>>>,
}

impl Commit {
    pub fn of(config: Arc<Configuration>) -> Commit {
        Commit {
            config,
            bytes: None,
        }
    }
}

/// What a scheduler hands back when its phase is over.
#[derive(Default)]
pub struct Ended {
    /// The policy, as the serial loop leaves it.
    pub policy: Option<Box<dyn Policy>>,
    /// The waves' pass rates, which go on to the next phase.
    pub rates: Option<rates::PassRates>,
}

/// A deterministic process over verdicts (see the module documentation).
pub trait Scheduler {
    /// The candidates whose verdicts come next, or the end.
    fn next(&mut self) -> Next;

    /// The verdicts of the batch [`Self::next`] gave last, in its order.
    fn take(&mut self, verdicts: &[bool]) -> Taken;

    /// A copy of the whole state, for running ahead on guesses.
    fn clone_box(&self) -> Box<dyn Scheduler>;

    /// What goes on after the phase.
    fn end(self: Box<Self>) -> Ended;
}
