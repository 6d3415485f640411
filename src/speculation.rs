//! What the parallel reduce loop needs to test ahead: a replay of the serial
//! loop on a copy of the policy, and a guess of which way a running test goes.
//!
//! [`Cursor`] is the policy protocol's control flow (start a pass, ask for
//! proposals, tell the policy how the pass ended) over one copy of the
//! policy. The serial loop in `reducer.rs` drives one; the parallel loop
//! copies it to ask "what would be tested next if this test failed" and,
//! just as well, "if it passed". [`OutcomeModel`]
//! learns from finished tests how long passing and failing ones take, and
//! tells when a test still running has become more likely to pass than to
//! fail (compilers reject a broken candidate in milliseconds and take their
//! full time on one that still crashes them). Neither starts a process;
//! neither changes what is committed, only what is tested ahead.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use crate::configuration::Configuration;
use crate::policy::Policy;

/// The serial loop's position in a phase, on its own copy of the policy.
pub struct Cursor {
    policy: Box<dyn Policy>,
    /// The configuration the current pass works on (the best so far on
    /// this branch of outcomes).
    base: Arc<Configuration>,
    in_pass: bool,
    finished: bool,
}

impl Clone for Cursor {
    fn clone(&self) -> Self {
        Cursor {
            policy: self.policy.clone_box(),
            base: Arc::clone(&self.base),
            in_pass: self.in_pass,
            finished: self.finished,
        }
    }
}

impl Cursor {
    /// A phase about to start on `base`.
    pub fn new(policy: Box<dyn Policy>, base: Arc<Configuration>) -> Self {
        Cursor {
            policy,
            base,
            in_pass: false,
            finished: false,
        }
    }

    /// The next candidate the serial loop would test, given that the
    /// previous one (if any) failed; `None` when the phase is over on this
    /// branch. Ends passes and starts new ones as the serial loop does.
    pub fn next_candidate(&mut self) -> Option<Configuration> {
        while !self.finished {
            if !self.in_pass {
                self.policy.start_pass(&self.base);
                self.in_pass = true;
            }
            match self.policy.next_proposal(&self.base) {
                // A proposal that removes nothing cannot be progress.
                Some(proposal) => {
                    if let Some(candidate) = self.base.apply(&proposal) {
                        return Some(candidate);
                    }
                }
                None => {
                    self.in_pass = false;
                    self.finished = !self.policy.on_reduced(None);
                }
            }
        }
        None
    }

    /// What the serial loop does when the last candidate passed: the pass
    /// ends with it, and it becomes the base.
    pub fn commit(&mut self, candidate: Arc<Configuration>) {
        self.in_pass = false;
        self.finished = !self.policy.on_reduced(Some(&candidate));
        self.base = candidate;
    }

    /// The configuration proposals are made from.
    pub fn base(&self) -> &Configuration {
        &self.base
    }

    pub fn into_policy(self) -> Box<dyn Policy> {
        self.policy
    }
}

/// How many recent oracle tests the model remembers.
const MEMORY: usize = 64;
/// Fewest tests before the model guesses anything.
const MIN_SAMPLES: usize = 8;
/// Fewest tests at least as long as the threshold for it to count.
const MIN_TAIL: usize = 4;
/// The share of the tests that ran at least as long that must have passed
/// for a running test to be guessed a pass.
const PASS_SHARE: f64 = 0.6;

/// A test still running past this many times the longest recent pass is
/// guessed to fail again: it is more likely hanging toward its timeout.
const HANG_FACTOR: u32 = 2;

/// The running times over which a running test is guessed to pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassWindow {
    /// From here on it has run as long as tests that mostly passed.
    pub after: Duration,
    /// From here on it has run [`HANG_FACTOR`] times longer than any recent
    /// pass.
    pub until: Duration,
}

impl PassWindow {
    /// What `Slot::guesses_pass` in the reduce loop asks of a test seen for
    /// the first time (tests read the window through it).
    #[cfg(test)]
    pub fn contains(self, running_for: Duration) -> bool {
        self.after <= running_for && running_for < self.until
    }
}

/// Recent oracle tests' durations and verdicts, and from them the running
/// times over which a test is more likely to pass than to fail.
#[derive(Default)]
pub struct OutcomeModel {
    recent: VecDeque<(Duration, bool)>,
    /// Cached answer of [`Self::pass_window`].
    window: Option<PassWindow>,
}

impl OutcomeModel {
    /// Learns from a finished oracle test.
    pub fn record(&mut self, took: Duration, interesting: bool) {
        if self.recent.len() == MEMORY {
            self.recent.pop_front();
        }
        self.recent.push_back((took, interesting));
        let longest_pass = self.recent.iter().filter(|s| s.1).map(|s| s.0).max();
        self.window = self
            .compute_threshold()
            .zip(longest_pass)
            .map(|(after, longest)| PassWindow {
                after,
                until: longest * HANG_FACTOR,
            });
    }

    /// From the shortest running time after which, among the remembered
    /// tests that ran at least that long, at least [`PASS_SHARE`] passed
    /// (zero when most tests pass anyway), to [`HANG_FACTOR`] times the
    /// longest remembered pass; `None` if there is no such time (e.g.
    /// passing tests are not the slow ones).
    pub fn pass_window(&self) -> Option<PassWindow> {
        self.window
    }

    fn compute_threshold(&self) -> Option<Duration> {
        if self.recent.len() < MIN_SAMPLES {
            return None;
        }
        // When most of all tests pass, guess a pass from the start.
        let all_passed = self.recent.iter().filter(|s| s.1).count();
        if all_passed as f64 >= PASS_SHARE * self.recent.len() as f64 {
            return Some(Duration::ZERO);
        }
        let mut samples: Vec<(Duration, bool)> = self.recent.iter().copied().collect();
        samples.sort_unstable();
        // Walk from the longest down, keeping counts of the tail ≥ each duration.
        let mut passed = 0usize;
        let mut best = None;
        for (seen, &(took, interesting)) in samples.iter().rev().enumerate() {
            passed += usize::from(interesting);
            let tail = seen + 1;
            // Tests of equal length count together.
            let tied_with_next =
                samples.len() > tail && samples[samples.len() - 1 - tail].0 == took;
            if !tied_with_next && tail >= MIN_TAIL && passed as f64 >= PASS_SHARE * tail as f64 {
                best = Some(took);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn slow_passing_tests_make_a_long_running_test_a_likely_pass() {
        let mut model = OutcomeModel::default();
        for i in 0..30 {
            // Failures take 10-19 ms, passes 100-109 ms; one pass in three.
            if i % 3 == 0 {
                model.record(ms(100 + i % 10), true);
            } else {
                model.record(ms(10 + i % 10), false);
            }
        }
        let after = model
            .pass_window()
            .map(|w| w.after)
            .expect("passes are the slow tests");
        // Most tests are failures of 10-19 ms: a test at 12 ms is a likely
        // failure, one that has run 100 ms a likely pass.
        assert!(after > ms(12) && after <= ms(100), "{after:?}");
    }

    #[test]
    fn a_test_running_far_longer_than_any_pass_is_no_longer_a_likely_pass() {
        let mut model = OutcomeModel::default();
        for i in 0..40 {
            // Failures 10-19 ms, passes 100-119 ms, and every fifth failure a
            // hang killed at the 1.2 s timeout.
            match i % 5 {
                0 | 3 => model.record(ms(100 + i % 20), true),
                4 => model.record(ms(1200), false),
                _ => model.record(ms(10 + i % 10), false),
            }
        }
        let window = model.pass_window().expect("passes are the slow tests");
        assert!(
            window.contains(ms(118)) && !window.contains(ms(12)),
            "{window:?}"
        );
        // Twice the longest pass (118 ms): a hang is guessed to fail again.
        assert_eq!(window.until, ms(236));
        assert!(!window.contains(ms(600)));
    }

    #[test]
    fn no_guess_when_passing_tests_are_not_slower() {
        let mut model = OutcomeModel::default();
        for i in 0..30 {
            model.record(ms(10 + i % 7), i % 4 == 0);
        }
        assert_eq!(model.pass_window().map(|w| w.after), None);
    }

    #[test]
    fn mostly_passing_tests_are_guessed_to_pass_from_the_start() {
        let mut model = OutcomeModel::default();
        for i in 0..20 {
            model.record(ms(10), i % 5 != 0);
        }
        assert_eq!(model.pass_window().map(|w| w.after), Some(Duration::ZERO));
    }

    #[test]
    fn too_few_tests_give_no_guess() {
        let mut model = OutcomeModel::default();
        for _ in 0..MIN_SAMPLES - 1 {
            model.record(ms(100), true);
        }
        assert_eq!(model.pass_window().map(|w| w.after), None);
    }
}
