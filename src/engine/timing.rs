//! How long tests take, and from that a guess of how a running test
//! ends. Compilers reject a broken candidate in milliseconds and take
//! their full time on one that still crashes them: [`Timing`] learns from
//! finished tests how long passing and failing ones take, and tells when a
//! test still running has become more likely to pass than to fail. The
//! engine runs schedulers ahead on these guesses (`lookahead.rs`); they
//! change which tests run, never what is committed.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// How many recent oracle tests the model remembers.
const MEMORY: usize = 64;
/// Fewest tests before the model guesses anything.
const MIN_SAMPLES: usize = 8;
/// Fewest tests at least as long as the threshold for it to count.
const MIN_TAIL: usize = 4;
/// The share of the tests that ran at least as long that must have passed
/// for a running test to be guessed a pass.
const PASS_SHARE: f64 = 0.6;

/// How many times as long as the typical failure a test must have run to
/// be guessed a pass.
const SLOWER: f64 = 1.5;

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
    /// What [`Guess::update`] asks of a test seen for the first time
    /// (tests read the window through it).
    #[cfg(test)]
    pub fn contains(self, running_for: Duration) -> bool {
        self.after <= running_for && running_for < self.until
    }
}

/// Recent oracle tests' durations and verdicts, and from them the running
/// times over which a test is more likely to pass than to fail.
#[derive(Default)]
pub struct Timing {
    recent: VecDeque<(Duration, bool)>,
    /// Cached answer of [`Self::pass_window`].
    window: Option<PassWindow>,
}

impl Timing {
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

    /// The share of recent tests that passed, with one pass and one
    /// failure assumed (one half before anything is known).
    pub fn pass_share(&self) -> f64 {
        let passed = self.recent.iter().filter(|s| s.1).count();
        (passed as f64 + 1.0) / (self.recent.len() as f64 + 2.0)
    }

    /// From the shortest running time after which, among the remembered
    /// tests that ran at least that long, at least [`PASS_SHARE`] passed
    /// (the shortest test's when most tests pass anyway), to [`HANG_FACTOR`] times the
    /// longest remembered pass; `None` if there is no such time (e.g.
    /// passing tests are not the slow ones).
    pub fn pass_window(&self) -> Option<PassWindow> {
        self.window
    }

    fn compute_threshold(&self) -> Option<Duration> {
        if self.recent.len() < MIN_SAMPLES {
            return None;
        }
        let mut samples: Vec<(Duration, bool)> = self.recent.iter().copied().collect();
        samples.sort_unstable();
        let median = |pass: bool| {
            let mut took: Vec<f64> = samples
                .iter()
                .filter(|s| s.1 == pass)
                .map(|s| s.0.as_secs_f64())
                .collect();
            let middle = took.len() / 2;
            took.select_nth_unstable_by(middle, f64::total_cmp)
                .1
                .to_owned()
        };
        let all_passed = samples.iter().filter(|s| s.1).count();
        if all_passed == 0 {
            return None;
        }
        let found = if all_passed as f64 >= PASS_SHARE * samples.len() as f64 {
            // Most tests pass: any test may be guessed a pass.
            samples[0].0
        } else {
            longest_pass_tail(&samples)?
        };
        // Only a test that has outlived the typical failure is guessed a
        // pass: a candidate the syntax filter refuses (in the worker) comes
        // back at once, and where every test takes about as long (a remote
        // worker's fixed cost) running times say nothing, and a guess made
        // as a test ends would only drop the tests run on the other guess
        // just before they end too.
        let failures_end = if all_passed < samples.len() {
            Duration::from_secs_f64(SLOWER * median(false))
        } else {
            Duration::ZERO
        };
        let after = found.max(failures_end);
        let longest_pass = samples.iter().rev().find(|s| s.1).map(|s| s.0)?;
        (after < longest_pass).then_some(after)
    }
}

/// The shortest running time after which, among `samples` (sorted) that
/// ran at least that long, at least [`PASS_SHARE`] passed.
fn longest_pass_tail(samples: &[(Duration, bool)]) -> Option<Duration> {
    // Walk from the longest down, keeping counts of the tail ≥ each duration.
    let mut passed = 0usize;
    let mut best = None;
    for (seen, &(took, interesting)) in samples.iter().rev().enumerate() {
        passed += usize::from(interesting);
        let tail = seen + 1;
        // Tests of equal length count together.
        let tied_with_next = samples.len() > tail && samples[samples.len() - 1 - tail].0 == took;
        if !tied_with_next && tail >= MIN_TAIL && passed as f64 >= PASS_SHARE * tail as f64 {
            best = Some(took);
        }
    }
    best
}

/// What is guessed of one running test.
#[derive(Clone, Copy, Debug)]
pub struct Guess {
    started: Instant,
    /// Guessed to pass now: it has run long enough, and not too long.
    pub passes: bool,
    /// Was guessed to pass, then ran too long: never guessed a pass again
    /// (the window moves as tests finish; a guess must not swing back).
    dropped: bool,
}

impl Guess {
    /// A test starting at `now`, guessed to fail.
    pub fn new(now: Instant) -> Self {
        Guess {
            started: now,
            passes: false,
            dropped: false,
        }
    }

    /// How long it has run at `now`.
    pub fn running_for(&self, now: Instant) -> Duration {
        now.saturating_duration_since(self.started)
    }

    /// Whether it is guessed to pass at `now`: it has run into the
    /// model's pass window (or was guessed so before and the model has no
    /// window now), and not out of it again.
    fn passes_at(&self, window: Option<PassWindow>, now: Instant) -> bool {
        if self.dropped {
            return false;
        }
        let t = self.running_for(now);
        match window {
            None => self.passes,
            Some(w) => (self.passes || t >= w.after) && t < w.until,
        }
    }

    /// Brings the guess up to `now`; whether it changed.
    pub fn update(&mut self, window: Option<PassWindow>, now: Instant) -> bool {
        let passes = self.passes_at(window, now);
        if passes == self.passes {
            return false;
        }
        self.dropped |= self.passes;
        self.passes = passes;
        true
    }

    /// How long until the guess would change at the latest, if it can.
    pub fn changes_in(&self, window: Option<PassWindow>, now: Instant) -> Option<Duration> {
        let w = window?;
        if self.dropped {
            return None;
        }
        let t = self.running_for(now);
        let change = if self.passes {
            Some(w.until)
        } else {
            // One already past the window is never guessed a pass.
            (t < w.until).then_some(w.after)
        };
        change.map(|c| c.saturating_sub(t))
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
        let mut model = Timing::default();
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
        let mut model = Timing::default();
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
    fn no_guess_when_every_test_takes_about_as_long_whatever_its_verdict() {
        // A remote worker's second dominates: passes are a few ms slower.
        let mut model = Timing::default();
        for i in 0..40 {
            let pass = i % 3 == 0;
            model.record(ms(1000 + i % 5 + if pass { 6 } else { 0 }), pass);
        }
        assert_eq!(model.pass_window().map(|w| w.after), None);
    }

    #[test]
    fn no_guess_when_passing_tests_are_not_slower() {
        let mut model = Timing::default();
        for i in 0..30 {
            model.record(ms(10 + i % 7), i % 4 == 0);
        }
        assert_eq!(model.pass_window().map(|w| w.after), None);
    }

    #[test]
    fn mostly_passing_tests_are_guessed_to_pass_once_they_outlived_the_typical_failure() {
        // Four in five pass, in 100 ms; failures take 10 ms.
        let mut model = Timing::default();
        for i in 0..20 {
            let pass = i % 5 != 0;
            model.record(ms(if pass { 100 } else { 10 }), pass);
        }
        assert_eq!(model.pass_window().map(|w| w.after), Some(ms(15)));
    }

    #[test]
    fn too_few_tests_give_no_guess() {
        let mut model = Timing::default();
        for _ in 0..MIN_SAMPLES - 1 {
            model.record(ms(100), true);
        }
        assert_eq!(model.pass_window().map(|w| w.after), None);
    }

    #[test]
    fn a_guess_of_a_pass_that_runs_too_long_never_swings_back() {
        let window = Some(PassWindow {
            after: ms(100),
            until: ms(200),
        });
        let start = Instant::now();
        let mut guess = Guess::new(start);
        assert!(!guess.update(window, start + ms(99)));
        assert_eq!(guess.changes_in(window, start + ms(99)), Some(ms(1)));
        assert!(guess.update(window, start + ms(100)) && guess.passes);
        assert!(guess.update(window, start + ms(200)) && !guess.passes);
        // A wider window later does not make it a pass again.
        let wider = Some(PassWindow {
            after: ms(100),
            until: ms(2000),
        });
        assert!(!guess.update(wider, start + ms(300)) && !guess.passes);
        assert_eq!(guess.changes_in(wider, start + ms(300)), None);
    }
}
