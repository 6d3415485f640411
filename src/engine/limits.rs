//! When a run stops early: the limits the user set (`--max-tests`,
//! `--max-time`), an interrupt, a flaky oracle found by a re-test of the
//! best; and why a run ended.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// When to stop early.
#[derive(Clone, Default)]
pub struct Limits {
    pub max_tests: Option<u64>,
    pub deadline: Option<Instant>,
    /// Set from outside (a signal handler) to stop as soon as possible.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// How long a test that cannot run is tried again before the run
    /// stops (`None`: [`DEFAULT_FAULT_PATIENCE`]).
    pub fault_patience: Option<Duration>,
    /// Set from outside (a re-test of the best that failed) when the
    /// oracle turned out flaky: the run stops ([`StopReason::Flaky`]).
    pub flaky: Option<Arc<AtomicBool>>,
}

/// How long a fault may last before the run stops, by default.
pub const DEFAULT_FAULT_PATIENCE: Duration = Duration::from_secs(60);

impl Limits {
    /// The limit hit after `tests` oracle tests, if any.
    pub fn hit(&self, tests: u64) -> Option<StopReason> {
        let thrown = |flag: &Option<Arc<AtomicBool>>| {
            flag.as_ref().is_some_and(|f| f.load(Ordering::SeqCst))
        };
        if thrown(&self.interrupt) {
            return Some(StopReason::Interrupted);
        }
        if thrown(&self.flaky) {
            return Some(StopReason::Flaky);
        }
        if self.max_tests.is_some_and(|max| tests >= max) {
            return Some(StopReason::MaxTests);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(StopReason::MaxTime);
        }
        None
    }

    /// How long a fault may last.
    pub fn patience(&self) -> Duration {
        self.fault_patience.unwrap_or(DEFAULT_FAULT_PATIENCE)
    }
}

/// Why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The policy reached its fixpoint.
    Finished,
    MaxTests,
    MaxTime,
    Interrupted,
    /// A test could not run for longer than the fault patience
    /// ([`Engine::fault`](super::Engine::fault) says why).
    Fault,
    /// A re-test of the best so far failed: the oracle is flaky.
    Flaky,
}

impl StopReason {
    pub fn name(self) -> &'static str {
        match self {
            StopReason::Finished => "finished",
            StopReason::MaxTests => "max-tests",
            StopReason::MaxTime => "max-time",
            StopReason::Interrupted => "interrupted",
            StopReason::Fault => "fault",
            StopReason::Flaky => "flaky",
        }
    }
}
