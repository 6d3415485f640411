//! What the parallel reduce loop needs to test ahead: a replay of the serial
//! loop on a copy of the policy, a guess of which way a running test goes,
//! and the chain of proposals tested ahead.
//!
//! [`Cursor`] is the policy protocol's control flow (start a pass, ask for
//! proposals, tell the policy how the pass ended) over one copy of the
//! policy. The serial loop in `reducer.rs` drives one; the parallel loop
//! copies it to ask "what would be tested next if this test failed" and,
//! just as well, "if it passed". [`OutcomeModel`]
//! learns from finished tests how long passing and failing ones take, and
//! tells when a test still running has become more likely to pass than to
//! fail (compilers reject a broken candidate in milliseconds and take their
//! full time on one that still crashes them). [`Speculation`] keeps the
//! outstanding proposals in the serial loop's order, each made on a guess
//! of how the one before it ends, and settles their results in that order.
//! None of them starts a process or a thread, runs the oracle or reads the
//! cache: the loop does, and hands them what they need. None of them
//! changes what is committed, only what is tested ahead.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::configuration::{Configuration, Proposal};
use crate::interfaces::{CancelSignal, Fault, TestOutcome};
use crate::policy::Policy;
use crate::stats::PhaseStats;

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

    /// The policy's next wave (`--wave`): up to `k` independent proposals
    /// from the base, as [`Policy::next_wave`] makes them, each with its
    /// candidate (`None` for one that changes nothing, which counts as
    /// failed); `None` when the phase is over on this branch. Ends passes
    /// and starts new ones as [`Self::next_candidate`] does.
    pub fn next_wave(&mut self, k: usize) -> Option<Wave> {
        while !self.finished {
            if !self.in_pass {
                self.policy.start_pass(&self.base);
                self.in_pass = true;
            }
            let proposals = self.policy.next_wave(&self.base, k.max(1));
            if proposals.is_empty() {
                self.in_pass = false;
                self.finished = !self.policy.on_reduced(None);
                continue;
            }
            let candidates: Vec<_> = proposals.iter().map(|p| self.base.apply(p)).collect();
            // A wave that changes nothing failed whole: ask again.
            if candidates.iter().any(Option::is_some) {
                return Some(Wave {
                    proposals,
                    candidates,
                });
            }
        }
        None
    }

    /// The candidate applying the `chosen` proposals of `wave` (the last
    /// wave) together, as the policy merges them (unmarking in `chosen`
    /// those it leaves out); `None` if it changes nothing.
    pub fn merged(&self, wave: &Wave, chosen: &mut [bool]) -> Option<Configuration> {
        let proposal = self.policy.merge(&self.base, &wave.proposals, chosen);
        self.base.apply(&proposal)
    }

    /// What the loop does when a merge of the last wave is committed: the
    /// pass ends with it (the policy hears which proposals passed and
    /// which are in it), and it becomes the base.
    pub fn commit_merged(&mut self, passed: &[bool], merged: &[bool], config: Arc<Configuration>) {
        self.in_pass = false;
        self.finished = !self.policy.on_merged(passed, merged, &config);
        self.base = config;
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

/// Independent proposals from one base ([`Cursor::next_wave`]).
pub struct Wave {
    pub proposals: Vec<Proposal>,
    /// Each proposal applied to the base (`None`: it changes nothing).
    pub candidates: Vec<Option<Configuration>>,
}

/// How many proposals already settled without a test (cache hits) may wait
/// behind the front, beyond one per job.
const MAX_SETTLED_AHEAD: usize = 32;

/// The longest the loop waits for a report before looking at the running
/// tests' guesses again.
const MAX_WAIT: Duration = Duration::from_millis(50);

/// The parallel loop's bookkeeping: outstanding proposals in the serial
/// loop's order, each made on a copy of the serial loop's state ([`Cursor`])
/// on a guess of how the test before it ends. The guess is "fails" unless
/// the [`OutcomeModel`] says a test that has run this long usually passes;
/// then what was proposed after it on the other guess is cancelled and
/// proposed again. Results are consumed strictly in proposal order: a result
/// that matches the guess the next proposal was made on keeps that proposal;
/// one that does not cancels every later test. A pass commits exactly when
/// the serial loop would.
///
/// The loop renders candidates, consults the cache, runs the workers and
/// counts tests; it hands this what it found ([`Self::propose_ahead`],
/// [`Self::take_report`]) and commits what [`Self::settle`] settles.
pub struct Speculation {
    jobs: usize,
    /// Interesting candidates are re-tested before they settle.
    recheck: bool,
    /// The serial loop's state after every settled test; it proposes
    /// when nothing is outstanding (`Some` exactly when `chain` is empty).
    settled: Option<Cursor>,
    /// Outstanding proposals in the serial loop's order, each made on a
    /// guess of how the one before it ends.
    chain: Chain,
    model: OutcomeModel,
    next_id: u64,
    /// Whether a long-running test may be guessed to pass (off for
    /// [`Self::for_waves`]: every proposal is made on the guess that the
    /// ones before it fail).
    guesses: bool,
    /// Without guesses, the verdicts settled so far, in the serial loop's
    /// order (taken by [`Self::take_settled`]).
    settled_verdicts: Vec<bool>,
    /// The guess under which the chain's tail had nothing to follow it.
    tail_exhausted: Option<bool>,
    /// What time it is (tests set it by hand).
    clock: Box<dyn Fn() -> Instant>,
}

/// What the loop found out about a candidate before testing it
/// ([`Speculation::propose_ahead`]).
pub struct Checked {
    pub bytes: Vec<u8>,
    /// Its cache key.
    pub key: u128,
    /// The cache's verdict, if it knew one (then no test runs).
    pub known: Option<bool>,
    /// The text it was proposed from, when the filter needs it (lenient).
    pub parent: Option<Arc<Vec<u8>>>,
}

/// A candidate at the front that was interesting by one oracle test and
/// must be re-tested before it settles (recheck only).
pub struct Retest {
    pub candidate: Arc<Configuration>,
    pub bytes: Arc<Vec<u8>>,
    pub key: u128,
}

/// What a worker's report meant ([`Speculation::take_report`]).
#[derive(Debug, PartialEq, Eq)]
pub enum Report {
    /// Its test had been cancelled on a wrong guess: nothing to do.
    Stale,
    /// Its test was cancelled while still wanted, which only a stop does:
    /// every test was cancelled, and the run ends.
    Stop,
    /// Its result was counted and is in the chain.
    Recorded,
    /// Its test could not run, however often it was tried: every test was
    /// cancelled, and the run ends.
    Fault(Fault),
}

/// Where the next proposal is made from.
struct Base {
    cursor: Cursor,
    /// The guess it is made on: that the proposal before it passed.
    after_pass: bool,
    /// Whether that guess is a pass of a test still running.
    guessed: bool,
}

impl Speculation {
    /// A phase about to start from `cursor`, with up to `jobs` tests at once.
    pub fn new(cursor: Cursor, jobs: usize, recheck: bool) -> Self {
        Speculation {
            jobs,
            recheck,
            settled: Some(cursor),
            chain: Chain::default(),
            model: OutcomeModel::default(),
            next_id: 0,
            guesses: true,
            settled_verdicts: Vec::new(),
            tail_exhausted: None,
            clock: Box::new(Instant::now),
        }
    }

    /// The same, reading the time from `clock` instead of the system.
    pub fn with_clock(mut self, clock: impl Fn() -> Instant + 'static) -> Self {
        self.clock = Box::new(clock);
        self
    }

    fn now(&self) -> Instant {
        (self.clock)()
    }

    /// The same for a chain of `--wave` (`waves.rs`): proposing only on
    /// the guess that tests fail (the chain stops at its first commit
    /// anyway), keeping the verdicts settled for [`Self::take_settled`].
    pub fn for_waves(mut self) -> Self {
        self.guesses = false;
        self
    }

    /// The same, numbering its jobs from `first` (the workers may still
    /// report on jobs numbered before, which must not be taken for its own).
    pub fn numbering_from(mut self, first: u64) -> Self {
        self.next_id = first;
        self
    }

    /// The number its next job would get.
    pub fn next_number(&self) -> u64 {
        self.next_id
    }

    /// Whether the path of failures has nothing more to propose: if every
    /// test outstanding fails, the phase is over.
    pub fn exhausted(&self) -> bool {
        self.tail_exhausted == Some(false)
    }

    /// Tests in flight that are still wanted.
    pub fn running(&self) -> usize {
        self.chain.running()
    }

    /// The number its next job gets, for jobs numbered alongside its own
    /// (the next phases' tests `waves.rs` starts ahead).
    pub fn numbers(&mut self) -> &mut u64 {
        &mut self.next_id
    }

    /// The verdicts settled since the last call, in the serial loop's order.
    pub fn take_settled(&mut self) -> Vec<bool> {
        std::mem::take(&mut self.settled_verdicts)
    }

    /// The serial loop's state, when nothing is outstanding.
    pub fn into_settled(self) -> Option<Cursor> {
        self.settled
    }

    /// The running times over which a test is guessed to pass, if guesses
    /// are on and the model has them.
    fn window(&self) -> Option<PassWindow> {
        if self.guesses {
            self.model.pass_window()
        } else {
            None
        }
    }

    /// Settles finished tests from the front, in proposal order: hands each
    /// pass to `commit` (with its text) as the serial loop would commit it,
    /// and cancels what was proposed after a test on the wrong guess. Stops
    /// at a test still running, or returns the front if it awaits a re-test
    /// (then [`Self::confirm_front`] tells how that went).
    pub fn settle(
        &mut self,
        phase: &mut PhaseStats,
        mut commit: impl FnMut(&mut PhaseStats, &Arc<Configuration>, &[u8]),
    ) -> Option<Retest> {
        while let Some(front) = self.chain.slots.front() {
            let Some(passed) = front.result else { break };
            if passed && front.unconfirmed {
                return Some(Retest {
                    candidate: Arc::clone(&front.candidate),
                    bytes: Arc::clone(&front.bytes),
                    key: front.key,
                });
            }
            let front = self.chain.slots.pop_front().expect("front exists");
            if !self.guesses {
                self.settled_verdicts.push(passed);
            }
            if passed {
                commit(phase, &front.candidate, &front.bytes);
            }
            if self
                .chain
                .slots
                .front()
                .is_some_and(|next| next.after_pass != passed)
            {
                // Everything after was proposed on the wrong guess.
                self.chain.cancel_from(0, phase);
            }
            if self.chain.slots.is_empty() {
                let mut cursor = front.snapshot;
                if passed {
                    cursor.commit(front.candidate);
                }
                self.settled = Some(cursor);
                self.tail_exhausted = None;
            }
        }
        None
    }

    /// The re-test's verdict on the front [`Self::settle`] returned.
    pub fn confirm_front(&mut self, confirmed: bool) {
        let front = self.chain.slots.front_mut().expect("front exists");
        front.unconfirmed = false;
        front.result = Some(confirmed);
    }

    /// Drops every outstanding proposal, cancelling its test (on a stop).
    pub fn cancel_all(&mut self, phase: &mut PhaseStats) {
        self.chain.cancel_from(0, phase);
    }

    /// A running test whose guess has changed (it has become a likely
    /// pass, or, guessed to pass, has run far longer than any recent pass
    /// and is more likely hanging toward its timeout): what was proposed
    /// after it on the other guess goes, to be proposed again.
    pub fn reguess(&mut self, phase: &mut PhaseStats) {
        let window = self.window();
        while let Some(at) = self.chain.slots.iter().position(|s| {
            s.result.is_none() && s.guessed_pass != s.guesses_pass(window, self.now())
        }) {
            let slot = &mut self.chain.slots[at];
            slot.guessed_pass = !slot.guessed_pass;
            slot.dropped_pass = !slot.guessed_pass;
            let guess = slot.guessed_pass;
            if self
                .chain
                .slots
                .get(at + 1)
                .is_some_and(|next| next.after_pass != guess)
            {
                self.chain.cancel_from(at + 1, phase);
                self.tail_exhausted = None;
            }
        }
    }

    /// Proposes ahead while workers are free: each candidate goes to `check`
    /// (with the configuration it was proposed from), which renders it and
    /// asks the cache; one the cache does not know goes to `send` as a job.
    /// Returns the policy when the phase is over (nothing outstanding and
    /// nothing left to propose).
    pub fn propose_ahead(
        &mut self,
        phase: &mut PhaseStats,
        mut check: impl FnMut(&Configuration, &Configuration, &mut PhaseStats) -> Checked,
        mut send: impl FnMut(Job),
    ) -> Option<Box<dyn Policy>> {
        while self.chain.running() < self.jobs
            && self.chain.slots.len() < self.jobs + MAX_SETTLED_AHEAD
        {
            let Some(mut base) = self.next_base() else {
                break;
            };
            let Some(candidate) = base.cursor.next_candidate() else {
                if self.chain.slots.is_empty() {
                    return Some(base.cursor.into_policy());
                }
                self.tail_exhausted = Some(base.after_pass);
                break;
            };
            self.tail_exhausted = None;
            let checked = check(&candidate, base.cursor.base(), phase);
            if let Some(job) = self.push(base, candidate, checked, phase) {
                send(job);
            }
        }
        None
    }

    /// Where the next proposal is made from: the settled cursor when
    /// nothing is outstanding, else a copy of the tail's snapshot on the
    /// tail's result or, while it runs, its guess. `None` when the tail had
    /// nothing to follow it on that guess.
    fn next_base(&mut self) -> Option<Base> {
        let window = self.window();
        let Some(tail) = self.chain.slots.back() else {
            let cursor = self
                .settled
                .take()
                .expect("a settled cursor when nothing is outstanding");
            return Some(Base {
                cursor,
                after_pass: false,
                guessed: false,
            });
        };
        let guess = tail.result.unwrap_or(tail.guesses_pass(window, self.now()));
        // A chain of waves stops at its first pass, even one the cache knew.
        if self.tail_exhausted == Some(guess) || (guess && !self.guesses) {
            return None;
        }
        let mut cursor = tail.snapshot.clone();
        if guess {
            cursor.commit(Arc::clone(&tail.candidate));
        }
        Some(Base {
            cursor,
            after_pass: guess,
            guessed: guess && tail.result.is_none(),
        })
    }

    /// Adds `candidate`, proposed from `base`, to the chain; the job to
    /// test it, if the cache did not know it.
    fn push(
        &mut self,
        base: Base,
        candidate: Configuration,
        checked: Checked,
        phase: &mut PhaseStats,
    ) -> Option<Job> {
        let mut slot = Slot {
            id: self.next_id,
            snapshot: base.cursor,
            after_pass: base.after_pass,
            candidate: Arc::new(candidate),
            bytes: Arc::new(checked.bytes),
            key: checked.key,
            cancel: Arc::new(CancelSignal::new()),
            result: checked.known,
            unconfirmed: false,
            started: None,
            guessed_pass: false,
            dropped_pass: false,
        };
        self.next_id += 1;
        let job = checked.known.is_none().then(|| {
            phase.guessed_pass += u64::from(base.guessed);
            slot.started = Some(self.now());
            Job {
                slot: slot.id,
                candidate: Arc::clone(&slot.candidate),
                bytes: Arc::clone(&slot.bytes),
                parent: checked.parent,
                cancel: Arc::clone(&slot.cancel),
            }
        });
        self.chain.slots.push_back(slot);
        job
    }

    /// Whether the front's result is known, so that [`Self::settle`] has
    /// something to do without waiting.
    pub fn front_is_known(&self) -> bool {
        self.chain.slots.front().is_some_and(|s| s.result.is_some())
    }

    /// How long to wait for a report: until a running test's guess would
    /// change, and no longer than [`MAX_WAIT`].
    pub fn wait(&self) -> Duration {
        let mut wait = MAX_WAIT;
        if let Some(w) = self.window() {
            for s in self
                .chain
                .slots
                .iter()
                .filter(|s| s.result.is_none() && !s.dropped_pass)
            {
                let t = s.running_for(self.now());
                let change = if s.guessed_pass {
                    Some(w.until)
                } else {
                    // One already past the window is never guessed a pass.
                    (t < w.until).then_some(w.after)
                };
                if let Some(change) = change {
                    wait = wait.min(change.saturating_sub(t));
                }
            }
        }
        wait
    }

    /// Takes in a worker's report. A test still wanted that finished is
    /// counted by `count` (given its cache key and what the worker did,
    /// never [`Finished::Cancelled`]), which answers whether it was
    /// interesting; the model learns from oracle tests.
    pub fn take_report(
        &mut self,
        done: Done,
        phase: &mut PhaseStats,
        count: impl FnOnce(&mut PhaseStats, u128, Finished) -> bool,
    ) -> Report {
        // Tests cancelled on a wrong guess are no longer in the chain.
        let Some(at) = self.chain.slots.iter().position(|s| s.id == done.slot) else {
            return Report::Stale;
        };
        if let Finished::Fault(fault) = done.finished {
            self.cancel_all(phase);
            return Report::Fault(fault);
        }
        if matches!(done.finished, Finished::Cancelled) {
            // Only a stop cancels a test still in the chain.
            self.cancel_all(phase);
            return Report::Stop;
        }
        // A verdict replayed from a journal took no time to learn from.
        let tested = matches!(done.finished, Finished::Tested(o) if !o.replayed);
        let slot = &mut self.chain.slots[at];
        let interesting = count(phase, slot.key, done.finished);
        if tested {
            self.model.record(done.took, interesting);
        }
        slot.result = Some(interesting);
        slot.unconfirmed = interesting && self.recheck;
        Report::Recorded
    }
}

/// The outstanding proposals of the speculative loop.
#[derive(Default)]
struct Chain {
    slots: VecDeque<Slot>,
}

impl Chain {
    /// Tests in flight that are still wanted: a slot without a result is
    /// being tested (cancelled ones leave the chain).
    fn running(&self) -> usize {
        self.slots.iter().filter(|s| s.result.is_none()).count()
    }

    /// Drops the proposals from index `at` on, cancelling their tests.
    fn cancel_from(&mut self, at: usize, phase: &mut PhaseStats) {
        for slot in self.slots.drain(at..) {
            if slot.result.is_none() {
                slot.cancel.cancel();
                phase.wasted += 1;
            }
        }
    }
}

/// A proposal being tested ahead, with the serial loop's state right after it was made.
struct Slot {
    id: u64,
    snapshot: Cursor,
    /// The guess it was proposed on: that the proposal before it passed.
    after_pass: bool,
    candidate: Arc<Configuration>,
    bytes: Arc<Vec<u8>>,
    key: u128,
    cancel: Arc<CancelSignal>,
    /// `None` while its test runs; `Some(interesting)` once known.
    result: Option<bool>,
    /// Interesting by one oracle test, not yet re-tested (recheck only).
    unconfirmed: bool,
    /// When its test started (`None` if it needed no test).
    started: Option<Instant>,
    /// Guessed to pass now: it has run long enough, and not too long.
    guessed_pass: bool,
    /// Was guessed to pass, then ran too long: never guessed a pass again
    /// (the window moves as tests finish; a guess must not swing back).
    dropped_pass: bool,
}

impl Slot {
    fn running_for(&self, now: Instant) -> Duration {
        self.started
            .map_or(Duration::ZERO, |s| now.saturating_duration_since(s))
    }

    /// Whether its test, still running, is guessed to pass at `now`: it has
    /// run into the model's pass window (or was guessed so before and the
    /// model has no window now), and not out of it again.
    fn guesses_pass(&self, window: Option<PassWindow>, now: Instant) -> bool {
        if self.dropped_pass {
            return false;
        }
        let t = self.running_for(now);
        match window {
            None => self.guessed_pass,
            Some(w) => (self.guessed_pass || t >= w.after) && t < w.until,
        }
    }
}

/// What a worker did with a job.
pub enum Finished {
    /// The syntax filter refused the candidate; the oracle did not run.
    SyntaxRejected,
    Tested(TestOutcome),
    /// Cancelled before or while it ran; its verdict means nothing.
    Cancelled,
    /// Its test could not run, however often it was tried.
    Fault(Fault),
}

/// A worker's report on a job.
pub struct Done {
    /// The [`Job::slot`] it reports on.
    pub slot: u64,
    pub finished: Finished,
    pub took: Duration,
}

/// A test handed to a worker thread.
pub struct Job {
    /// Which proposal it tests.
    pub slot: u64,
    pub candidate: Arc<Configuration>,
    pub bytes: Arc<Vec<u8>>,
    /// The text it was proposed from, when the filter needs it (lenient).
    pub parent: Option<Arc<Vec<u8>>>,
    pub cancel: Arc<CancelSignal>,
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
    /// What `Slot::guesses_pass` asks of a test seen for the first time
    /// (tests read the window through it).
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
    use std::cell::Cell;
    use std::collections::HashMap;
    use std::rc::Rc;

    use super::*;
    use crate::interfaces::Verdict;
    use crate::policy::flat::FlatPolicy;
    use crate::policy::{Minimizer, MinimizerSettings};

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

    // The chain, driven by hand: no threads, no sleeps; the tests say which
    // tests finish when, and set the clock.

    /// Units of the inputs below.
    const N: u32 = 8;

    fn list_policy(minimizer: Minimizer) -> Box<dyn Policy> {
        let minimizer = minimizer.build(&MinimizerSettings::default());
        Box::new(FlatPolicy::new(minimizer, Arc::new(vec![1; N as usize])))
    }

    fn kept(config: &Configuration) -> Vec<u32> {
        config.kept.iter().collect()
    }

    fn keeps(units: &'static [u32]) -> impl Fn(&Configuration) -> bool + Copy {
        move |config| units.iter().all(|&u| config.contains(u))
    }

    fn outcome(interesting: bool) -> TestOutcome {
        if interesting {
            Verdict::Interesting.into()
        } else {
            Verdict::NotInteresting.into()
        }
    }

    /// What the serial loop does with ddmin over `N` units: the candidates
    /// it tests and those it commits.
    fn serial(interesting: impl Fn(&Configuration) -> bool) -> (Vec<Vec<u32>>, Vec<Vec<u32>>) {
        serial_with(Minimizer::DdMin, interesting)
    }

    fn serial_with(
        minimizer: Minimizer,
        interesting: impl Fn(&Configuration) -> bool,
    ) -> (Vec<Vec<u32>>, Vec<Vec<u32>>) {
        let mut cursor = Cursor::new(list_policy(minimizer), Arc::new(Configuration::full(N)));
        let (mut tested, mut committed) = (Vec::new(), Vec::new());
        while let Some(candidate) = cursor.next_candidate() {
            tested.push(kept(&candidate));
            if interesting(&candidate) {
                committed.push(kept(&candidate));
                cursor.commit(Arc::new(candidate));
            }
        }
        (tested, committed)
    }

    /// A [`Speculation`] over ddmin and `N` units, and what the loop would
    /// keep around it: the jobs sent (in order), the commits, a cache.
    struct Bench {
        speculation: Speculation,
        phase: PhaseStats,
        now: Rc<Cell<Instant>>,
        sent: Vec<Job>,
        committed: Vec<Vec<u32>>,
        /// Verdicts known without a test, by kept units.
        cache: HashMap<Vec<u32>, bool>,
    }

    impl Bench {
        fn new(jobs: usize, recheck: bool) -> Self {
            Bench::with(Minimizer::DdMin, jobs, recheck)
        }

        fn with(minimizer: Minimizer, jobs: usize, recheck: bool) -> Self {
            let cursor = Cursor::new(list_policy(minimizer), Arc::new(Configuration::full(N)));
            let now = Rc::new(Cell::new(Instant::now()));
            let clock = Rc::clone(&now);
            Bench {
                speculation: Speculation::new(cursor, jobs, recheck)
                    .with_clock(move || clock.get()),
                phase: PhaseStats::default(),
                now,
                sent: Vec::new(),
                committed: Vec::new(),
                cache: HashMap::new(),
            }
        }

        fn advance(&self, by: Duration) {
            self.now.set(self.now.get() + by);
        }

        /// Teaches the model that passes take 100 ms and failures 10 ms:
        /// a test is guessed to pass from 100 ms to 200 ms.
        fn learn_slow_passes(&mut self) {
            for i in 0..30 {
                let pass = i % 3 == 0;
                let took = if pass { ms(100) } else { ms(10) };
                self.speculation.model.record(took, pass);
            }
            let window = self.speculation.model.pass_window();
            assert_eq!(
                window,
                Some(PassWindow {
                    after: ms(100),
                    until: ms(200)
                })
            );
        }

        /// Proposes ahead; the policy if the phase is over.
        fn propose(&mut self) -> Option<Box<dyn Policy>> {
            let cache = &self.cache;
            let check = |candidate: &Configuration, _: &Configuration, phase: &mut PhaseStats| {
                let known = cache.get(&kept(candidate)).copied();
                phase.cache_hits += u64::from(known.is_some());
                Checked {
                    bytes: Vec::new(),
                    key: 0,
                    known,
                    parent: None,
                }
            };
            let sent = &mut self.sent;
            self.speculation
                .propose_ahead(&mut self.phase, check, |job| sent.push(job))
        }

        /// Settles what it can, recording commits; a front awaiting its re-test.
        fn settle(&mut self) -> Option<Retest> {
            let committed = &mut self.committed;
            self.speculation
                .settle(&mut self.phase, |phase, candidate, _| {
                    phase.successes += 1;
                    committed.push(kept(candidate));
                })
        }

        fn reguess(&mut self) {
            self.speculation.reguess(&mut self.phase);
        }

        /// Reports that job `i` (in the order sent) ran for `took`.
        fn report(&mut self, i: usize, finished: Finished, took: Duration) -> Report {
            let done = Done {
                slot: self.sent[i].slot,
                finished,
                took,
            };
            let count = |phase: &mut PhaseStats, _key, finished| {
                phase.tests += 1;
                matches!(finished, Finished::Tested(o) if o.verdict == Verdict::Interesting)
            };
            self.speculation.take_report(done, &mut self.phase, count)
        }

        /// Reports that job `i` finished, interesting or not, in 10 ms.
        fn finish(&mut self, i: usize, interesting: bool) -> Report {
            self.report(i, Finished::Tested(outcome(interesting)), ms(10))
        }

        /// The candidates of the jobs sent from the `from`th on.
        fn sent_from(&self, from: usize) -> Vec<Vec<u32>> {
            self.sent[from..]
                .iter()
                .map(|j| kept(&j.candidate))
                .collect()
        }

        fn cancelled(&self) -> Vec<bool> {
            self.sent.iter().map(|j| j.cancel.is_cancelled()).collect()
        }
    }

    #[test]
    fn along_failures_the_chain_holds_what_the_serial_loop_tests_next() {
        let mut bench = Bench::new(3, false);
        assert!(bench.propose().is_none());
        let (tested, _) = serial(|_| false);
        assert_eq!(bench.sent_from(0), tested[..3]);
        // Every worker is busy: nothing more is proposed.
        assert!(bench.propose().is_none());
        assert_eq!(bench.sent.len(), 3);
        assert_eq!(bench.phase.guessed_pass, 0);
    }

    #[test]
    fn a_result_behind_a_running_test_waits_for_it() {
        // [0, 1, 2, 3] fails, then [4, 5, 6, 7] passes.
        let interesting = keeps(&[4, 5]);
        let mut bench = Bench::new(3, false);
        bench.propose();
        assert_eq!(bench.finish(1, true), Report::Recorded);
        assert!(bench.settle().is_none());
        assert!(bench.committed.is_empty(), "the front still runs");
        assert!(!bench.speculation.front_is_known());
        assert_eq!(bench.finish(0, false), Report::Recorded);
        assert!(bench.speculation.front_is_known());
        bench.settle();
        assert_eq!(bench.committed, serial(interesting).1[..1]);
        // The third was proposed on the guess that the second fails.
        assert_eq!(bench.cancelled(), [false, false, true]);
        assert_eq!(bench.phase.wasted, 1);
    }

    #[test]
    fn a_wrong_guess_cancels_every_later_proposal() {
        // The first candidate, [0, 1, 2, 3], passes.
        let mut bench = Bench::new(4, false);
        bench.propose();
        bench.finish(0, true);
        bench.settle();
        assert_eq!(bench.committed, [vec![0, 1, 2, 3]]);
        assert_eq!(bench.cancelled(), [false, true, true, true]);
        assert_eq!(bench.phase.wasted, 3);
        // What follows is proposed from the committed candidate, on the
        // guess that each fails.
        bench.propose();
        let (tested, _) = serial(|c| kept(c) == [0, 1, 2, 3]);
        assert_eq!(bench.sent_from(4), tested[1..5]);
    }

    #[test]
    fn a_report_on_a_test_cancelled_on_a_wrong_guess_changes_nothing() {
        let mut bench = Bench::new(3, false);
        bench.propose();
        bench.finish(0, true);
        bench.settle();
        bench.propose();
        let tests = bench.phase.tests;
        assert_eq!(bench.finish(1, true), Report::Stale);
        assert_eq!(bench.report(2, Finished::Cancelled, ms(1)), Report::Stale);
        assert_eq!(bench.phase.tests, tests);
        assert!(bench.settle().is_none());
        assert_eq!(bench.committed.len(), 1);
    }

    #[test]
    fn a_test_cancelled_while_still_wanted_stops_every_test() {
        let mut bench = Bench::new(3, false);
        bench.propose();
        assert_eq!(bench.report(1, Finished::Cancelled, ms(1)), Report::Stop);
        assert_eq!(bench.cancelled(), [true, true, true]);
        assert_eq!(bench.phase.wasted, 3);
        assert_eq!(bench.phase.tests, 0);
    }

    #[test]
    fn a_long_running_test_gets_followers_proposed_on_its_pass() {
        // The first candidate, [0, 1, 2, 3], passes, slowly.
        let (tested, committed) = serial(|c| kept(c) == [0, 1, 2, 3]);
        let mut bench = Bench::new(3, false);
        bench.learn_slow_passes();
        bench.propose();
        bench.advance(ms(99));
        bench.reguess();
        assert_eq!(bench.phase.wasted, 0, "not yet a likely pass");
        bench.advance(ms(1));
        bench.reguess();
        // Its followers were proposed on the guess that it fails.
        assert_eq!(bench.cancelled(), [false, true, true]);
        assert_eq!(bench.phase.wasted, 2);
        bench.propose();
        assert_eq!(bench.sent_from(3), tested[1..3]);
        // The first follower is on a guessed pass, the second on a failure.
        assert_eq!(bench.phase.guessed_pass, 1);
        bench.report(0, Finished::Tested(outcome(true)), ms(150));
        bench.settle();
        assert_eq!(bench.committed, committed[..1]);
        assert_eq!(bench.phase.wasted, 2, "the guess was right");
    }

    #[test]
    fn a_test_running_far_longer_than_any_pass_is_guessed_to_fail_again() {
        let mut bench = Bench::new(2, false);
        bench.learn_slow_passes();
        bench.propose();
        bench.advance(ms(150));
        bench.reguess();
        bench.propose();
        assert_eq!(bench.phase.wasted, 1);
        // Twice the longest pass: a hang, guessed to fail again.
        bench.advance(ms(50));
        bench.reguess();
        assert_eq!(bench.cancelled(), [false, true, true]);
        bench.propose();
        let (tested, _) = serial(|_| false);
        assert_eq!(bench.sent_from(3), tested[1..2]);
        // For good: once the model widens its window, it stays a failure.
        for _ in 0..MEMORY {
            bench.speculation.model.record(ms(1000), true);
        }
        bench.reguess();
        assert_eq!(bench.cancelled(), [false, true, true, false]);
    }

    #[test]
    fn the_wait_ends_when_a_running_tests_guess_would_change() {
        let mut bench = Bench::new(1, false);
        bench.propose();
        assert_eq!(bench.speculation.wait(), MAX_WAIT, "no guesses yet");
        bench.learn_slow_passes();
        bench.advance(ms(70));
        assert_eq!(bench.speculation.wait(), ms(30), "a pass from 100 ms");
        bench.advance(ms(30));
        bench.reguess();
        bench.advance(ms(80));
        assert_eq!(bench.speculation.wait(), ms(20), "a failure from 200 ms");
        bench.advance(ms(20));
        bench.reguess();
        assert_eq!(
            bench.speculation.wait(),
            MAX_WAIT,
            "guessed to fail for good"
        );
    }

    #[test]
    fn candidates_the_cache_knows_settle_without_a_test() {
        let interesting = keeps(&[2, 5]);
        let (tested, committed) = serial(interesting);
        let mut bench = Bench::new(2, false);
        for candidate in &tested {
            let config = Configuration::from_units(N, candidate.iter().copied());
            bench.cache.insert(candidate.clone(), interesting(&config));
        }
        let mut rounds = 0;
        while bench.propose().is_none() {
            assert!(bench.speculation.front_is_known());
            bench.settle();
            rounds += 1;
        }
        assert!(bench.sent.is_empty());
        assert_eq!(bench.committed, committed);
        assert_eq!(bench.phase.cache_hits, tested.len() as u64);
        assert!(
            rounds < tested.len(),
            "{rounds} rounds: many settle at once"
        );
    }

    #[test]
    fn a_pass_at_the_front_waits_for_its_retest() {
        for confirmed in [false, true] {
            let mut bench = Bench::new(3, true);
            bench.propose();
            bench.finish(0, true);
            let retest = bench.settle().expect("a re-test of the front");
            assert_eq!(kept(&retest.candidate), [0, 1, 2, 3]);
            assert!(bench.committed.is_empty());
            bench.speculation.confirm_front(confirmed);
            assert!(bench.settle().is_none());
            if confirmed {
                assert_eq!(bench.committed, [vec![0, 1, 2, 3]]);
                assert_eq!(bench.cancelled(), [false, true, true]);
            } else {
                assert!(bench.committed.is_empty());
                assert_eq!(bench.cancelled(), [false, false, false]);
            }
        }
    }

    /// A xorshift generator, for orders of events.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// Runs a whole phase with results arriving in an order drawn from
    /// `seed`, passes taking 100 ms and failures 10 ms, the clock moving on
    /// by chance; returns the commits.
    fn shuffled_phase(
        minimizer: Minimizer,
        jobs: usize,
        recheck: bool,
        seed: u64,
        interesting: impl Fn(&Configuration) -> bool,
    ) -> Vec<Vec<u32>> {
        let mut rng = Rng(seed);
        let mut bench = Bench::with(minimizer, jobs, recheck);
        let mut reported = Vec::new();
        loop {
            while let Some(retest) = bench.settle() {
                bench
                    .speculation
                    .confirm_front(interesting(&retest.candidate));
            }
            bench.reguess();
            if bench.propose().is_some() {
                return bench.committed;
            }
            reported.resize(bench.sent.len(), false);
            if bench.speculation.front_is_known() {
                continue;
            }
            if rng.below(3) == 0 {
                bench.advance(ms(rng.below(80) as u64));
                continue;
            }
            // Any test sent and not yet reported, cancelled ones too.
            let waiting: Vec<usize> = (0..bench.sent.len()).filter(|&i| !reported[i]).collect();
            let i = waiting[rng.below(waiting.len())];
            reported[i] = true;
            let pass = interesting(&bench.sent[i].candidate);
            let took = if pass { ms(100) } else { ms(10) };
            bench.report(i, Finished::Tested(outcome(pass)), took);
        }
    }

    #[test]
    fn whatever_order_results_arrive_in_the_commits_are_the_serial_loops() {
        let oracles = [
            keeps(&[2, 5]),
            keeps(&[0, 1]),
            keeps(&[7]),
            keeps(&[1, 3, 6]),
        ];
        for minimizer in [Minimizer::DdMin, Minimizer::ProbDd, Minimizer::DrDd] {
            for (o, interesting) in oracles.into_iter().enumerate() {
                let (_, committed) = serial_with(minimizer, interesting);
                for jobs in 1..=4 {
                    for seed in 1..=8 {
                        let recheck = seed % 2 == 0;
                        let got = shuffled_phase(minimizer, jobs, recheck, seed, interesting);
                        assert_eq!(
                            got, committed,
                            "{minimizer:?} oracle {o} -j {jobs} seed {seed}"
                        );
                    }
                }
            }
        }
    }
}
