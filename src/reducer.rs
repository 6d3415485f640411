//! The one reduce loop: it alone runs the oracle, consults the cache and keeps the best result.
//!
//! A policy proposes, the loop tests. With `jobs == 1` proposals are tested
//! one at a time. With more jobs the loop speculates along the path of
//! failures: while proposal `k` is being tested, proposals `k+1, k+2, …` (as
//! if `k` failed) are tested too, on a clone of the policy. Results are
//! consumed strictly in proposal order; the first interesting one commits,
//! the policy is restored from the snapshot taken right after that proposal
//! was made, and every later test is cancelled. The committed steps are
//! therefore exactly those of the serial loop, whatever the number of jobs.
//!
//! With `recheck` on, an interesting verdict from the oracle is settled only
//! after a second test of the same candidate agrees (where the serial loop
//! would commit, and where the parallel loop finds it at the front); one that
//! fails the re-test counts as not interesting. The re-test is an oracle test
//! in the stats.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use crate::cache::{VerdictCache, key_of};
use crate::configuration::Configuration;
use crate::policy::Policy;
use crate::stats::PhaseStats;
use crate::units::Units;

/// The oracle's judgement of a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Still shows the bug.
    Interesting,
    /// Does not show it, is invalid, crashed the test, or timed out.
    NotInteresting,
}

/// One oracle run's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestOutcome {
    pub verdict: Verdict,
    pub timed_out: bool,
    /// The test was stopped before it finished; its verdict means nothing.
    pub cancelled: bool,
}

impl From<Verdict> for TestOutcome {
    fn from(verdict: Verdict) -> Self {
        TestOutcome {
            verdict,
            timed_out: false,
            cancelled: false,
        }
    }
}

/// A candidate as the oracle sees it.
pub struct Candidate<'a> {
    pub config: &'a Configuration,
    pub bytes: &'a [u8],
}

impl Candidate<'_> {
    /// Whether unit `unit` is kept.
    pub fn keeps(&self, unit: u32) -> bool {
        self.config.contains(unit)
    }
}

/// Decides whether candidates are interesting. Implemented by the script
/// oracle and by any `Fn(&Candidate) -> Verdict` closure.
pub trait Oracle: Sync {
    /// Judges `candidate`; should give up early once `cancel` is set.
    fn test(&self, candidate: &Candidate<'_>, cancel: &AtomicBool) -> TestOutcome;
}

impl<F> Oracle for F
where
    F: Fn(&Candidate<'_>) -> Verdict + Sync,
{
    fn test(&self, candidate: &Candidate<'_>, _cancel: &AtomicBool) -> TestOutcome {
        self(candidate).into()
    }
}

/// Rejects candidates without running the oracle (e.g. ones that no longer parse).
pub trait SyntaxFilter: Sync {
    /// Whether `bytes` may be handed to the oracle.
    fn accepts(&self, bytes: &[u8]) -> bool;

    /// Candidates tested next are edits of `bytes` (the current best): a
    /// filter may prepare for them (e.g. keep its parse tree to re-parse
    /// incrementally). Must not change what [`Self::accepts`] answers.
    fn rebase(&self, _bytes: &[u8]) {}
}

/// Told about progress; writes results where the user wants them.
pub trait Observer {
    /// A new best configuration was committed.
    fn on_improved(&mut self, _config: &Configuration, _bytes: &[u8]) {}
    /// Something was counted (for progress displays).
    fn on_progress(&mut self, _phase: &PhaseStats, _current: &Configuration) {}
}

/// An observer that does nothing.
pub struct Quiet;
impl Observer for Quiet {}

/// When to stop early.
#[derive(Clone, Default)]
pub struct Limits {
    pub max_tests: Option<u64>,
    pub deadline: Option<Instant>,
    /// Set from outside (a signal handler) to stop as soon as possible.
    pub interrupt: Option<Arc<AtomicBool>>,
}

/// Why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The policy reached its fixpoint.
    Finished,
    MaxTests,
    MaxTime,
    Interrupted,
}

impl StopReason {
    pub fn name(self) -> &'static str {
        match self {
            StopReason::Finished => "finished",
            StopReason::MaxTests => "max-tests",
            StopReason::MaxTime => "max-time",
            StopReason::Interrupted => "interrupted",
        }
    }
}

/// The reduce loop's fixed parts: what is reduced, how it is judged, and the
/// counters and cache that persist across phases.
pub struct Reducer<'a> {
    units: &'a Units,
    oracle: &'a dyn Oracle,
    filter: Option<&'a dyn SyntaxFilter>,
    /// Whether the filter applies to the current phase.
    filter_enabled: bool,
    cache: Option<VerdictCache>,
    jobs: usize,
    limits: Limits,
    tests_total: u64,
    /// Re-test interesting candidates before committing them.
    recheck: bool,
    /// Candidates that passed once but failed the re-test.
    recheck_failures: u64,
    /// One entry per `run`.
    pub phases: Vec<PhaseStats>,
}

/// What evaluating a candidate without the oracle found.
enum Quick {
    Known(bool),
    NeedsOracle,
}

impl<'a> Reducer<'a> {
    pub fn new(units: &'a Units, oracle: &'a dyn Oracle) -> Self {
        Reducer {
            units,
            oracle,
            filter: None,
            filter_enabled: true,
            cache: Some(VerdictCache::default()),
            jobs: 1,
            limits: Limits::default(),
            tests_total: 0,
            recheck: false,
            recheck_failures: 0,
            phases: Vec::new(),
        }
    }

    /// Turns the verdict cache on or off (on by default).
    pub fn with_cache(mut self, on: bool) -> Self {
        self.cache = on.then(VerdictCache::default);
        self
    }

    /// Rejects candidates the filter refuses, without running the oracle.
    pub fn with_filter(mut self, filter: Option<&'a dyn SyntaxFilter>) -> Self {
        self.filter = filter;
        self
    }

    /// Turns the syntax filter on or off for the following runs (it is on
    /// by default when one was given): tree policies use it, flat list
    /// algorithms chosen explicitly do not.
    pub fn set_filter_enabled(&mut self, on: bool) {
        self.filter_enabled = on;
    }

    /// How many oracle tests may run at once.
    pub fn with_jobs(mut self, jobs: usize) -> Self {
        self.jobs = jobs.max(1);
        self
    }

    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Re-tests every interesting candidate once before committing it (off by default).
    pub fn with_recheck(mut self, on: bool) -> Self {
        self.recheck = on;
        self
    }

    /// Candidates that passed once but failed the re-test (with recheck on).
    pub fn recheck_failures(&self) -> u64 {
        self.recheck_failures
    }

    pub fn units(&self) -> &Units {
        self.units
    }

    /// Oracle tests run so far, over all phases.
    pub fn tests_total(&self) -> u64 {
        self.tests_total
    }

    fn limit_hit(&self) -> Option<StopReason> {
        if let Some(flag) = &self.limits.interrupt
            && flag.load(Ordering::SeqCst)
        {
            return Some(StopReason::Interrupted);
        }
        if self
            .limits
            .max_tests
            .is_some_and(|max| self.tests_total >= max)
        {
            return Some(StopReason::MaxTests);
        }
        if self.limits.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(StopReason::MaxTime);
        }
        None
    }

    /// Runs `policy` from `start` until it stops or a limit is hit. Returns
    /// the best configuration found and why the run ended.
    pub fn run(
        &mut self,
        policy: &mut Box<dyn Policy>,
        start: Configuration,
        observer: &mut dyn Observer,
    ) -> (Configuration, StopReason) {
        let began = Instant::now();
        let mut phase = PhaseStats::new(policy.name());
        phase.units_before = start.len();
        let mut config = start;
        if let Some(filter) = self.active_filter() {
            filter.rebase(&self.units.render(&config));
        }
        let reason = loop {
            if let Some(reason) = self.limit_hit() {
                break reason;
            }
            policy.start_pass(&config);
            let pass = if self.jobs == 1 {
                self.serial_pass(policy, &config, &mut phase, observer)
            } else {
                self.speculative_pass(policy, &config, &mut phase, observer)
            };
            let reduced = match pass {
                Ok(reduced) => reduced,
                Err(reason) => break reason,
            };
            let keep_going = policy.on_reduced(reduced.as_ref().map(|(c, _)| c));
            if let Some((next, bytes)) = reduced {
                phase.successes += 1;
                config = next;
                self.rebase_filter(&bytes);
                observer.on_improved(&config, &bytes);
                observer.on_progress(&phase, &config);
            }
            if !keep_going {
                break StopReason::Finished;
            }
        };
        phase.units_after = config.len();
        phase.seconds = began.elapsed().as_secs_f64();
        observer.on_progress(&phase, &config);
        self.phases.push(phase);
        (config, reason)
    }

    /// The syntax filter, if it applies to the current phase.
    fn active_filter(&self) -> Option<&'a dyn SyntaxFilter> {
        self.filter.filter(|_| self.filter_enabled)
    }

    fn rebase_filter(&self, bytes: &[u8]) {
        if let Some(filter) = self.active_filter() {
            filter.rebase(bytes);
        }
    }

    /// What the cache knows about `bytes` (an oracle verdict, or a syntax
    /// rejection while the filter applies), and their cache key.
    fn cached(&self, bytes: &[u8], phase: &mut PhaseStats) -> (Option<bool>, u128) {
        let key = key_of(bytes);
        let filtering = self.active_filter().is_some();
        let known = self.cache.as_ref().and_then(|c| {
            c.get(key)
                .or_else(|| (filtering && c.syntax_rejected(key)).then_some(false))
        });
        phase.cache_hits += u64::from(known.is_some());
        (known, key)
    }

    /// Counts a candidate the syntax filter refused and remembers it.
    fn record_rejection(&mut self, key: u128, phase: &mut PhaseStats) {
        phase.syntax_rejected += 1;
        if let Some(cache) = &mut self.cache {
            cache.insert_syntax_rejected(key);
        }
    }

    /// Cache and syntax filter: what can be known without running the oracle.
    fn quick_verdict(&mut self, bytes: &[u8], phase: &mut PhaseStats) -> (Quick, u128) {
        let (known, key) = self.cached(bytes, phase);
        if let Some(known) = known {
            return (Quick::Known(known), key);
        }
        if let Some(filter) = self.active_filter()
            && !filter.accepts(bytes)
        {
            self.record_rejection(key, phase);
            return (Quick::Known(false), key);
        }
        (Quick::NeedsOracle, key)
    }

    fn record(&mut self, key: u128, outcome: TestOutcome, phase: &mut PhaseStats) -> bool {
        let interesting = outcome.verdict == Verdict::Interesting;
        phase.tests += 1;
        phase.timeouts += outcome.timed_out as u64;
        self.tests_total += 1;
        // With recheck, only the re-test's verdict is remembered.
        if let Some(cache) = &mut self.cache
            && !(interesting && self.recheck)
        {
            cache.insert(key, interesting);
        }
        interesting
    }

    /// The re-test of a candidate that was interesting once: whether it is
    /// interesting again. `Err` when a limit stops the run first (the
    /// candidate is then not committed).
    fn confirm(
        &mut self,
        candidate: &Configuration,
        bytes: &[u8],
        key: u128,
        phase: &mut PhaseStats,
    ) -> Result<bool, StopReason> {
        if let Some(reason) = self.limit_hit() {
            return Err(reason);
        }
        let never = AtomicBool::new(false);
        let outcome = self.oracle.test(
            &Candidate {
                config: candidate,
                bytes,
            },
            self.limits.interrupt.as_deref().unwrap_or(&never),
        );
        if outcome.cancelled {
            return Err(self.limit_hit().unwrap_or(StopReason::Interrupted));
        }
        let confirmed = outcome.verdict == Verdict::Interesting;
        phase.tests += 1;
        phase.timeouts += outcome.timed_out as u64;
        self.tests_total += 1;
        self.recheck_failures += u64::from(!confirmed);
        if let Some(cache) = &mut self.cache {
            cache.insert(key, confirmed);
        }
        Ok(confirmed)
    }

    /// One pass, one test at a time. `Ok(Some)` = committed a candidate.
    #[allow(clippy::type_complexity)]
    fn serial_pass(
        &mut self,
        policy: &mut Box<dyn Policy>,
        config: &Configuration,
        phase: &mut PhaseStats,
        observer: &mut dyn Observer,
    ) -> Result<Option<(Configuration, Vec<u8>)>, StopReason> {
        let never = AtomicBool::new(false);
        while let Some(proposal) = policy.next_proposal(config) {
            let Some(candidate) = config.apply(&proposal) else {
                continue; // removes nothing: cannot be progress
            };
            let bytes = self.units.render(&candidate);
            let (quick, key) = self.quick_verdict(&bytes, phase);
            let interesting = match quick {
                Quick::Known(known) => known,
                Quick::NeedsOracle => {
                    if let Some(reason) = self.limit_hit() {
                        return Err(reason);
                    }
                    let outcome = self.oracle.test(
                        &Candidate {
                            config: &candidate,
                            bytes: &bytes,
                        },
                        self.limits.interrupt.as_deref().unwrap_or(&never),
                    );
                    if outcome.cancelled {
                        return Err(self.limit_hit().unwrap_or(StopReason::Interrupted));
                    }
                    let mut interesting = self.record(key, outcome, phase);
                    observer.on_progress(phase, config);
                    if interesting && self.recheck {
                        interesting = self.confirm(&candidate, &bytes, key, phase)?;
                        observer.on_progress(phase, config);
                    }
                    interesting
                }
            };
            if interesting {
                return Ok(Some((candidate, bytes)));
            }
        }
        Ok(None)
    }

    /// One pass with up to `jobs` tests in flight, committing what the serial pass would.
    #[allow(clippy::type_complexity)]
    fn speculative_pass(
        &mut self,
        policy: &mut Box<dyn Policy>,
        config: &Configuration,
        phase: &mut PhaseStats,
        observer: &mut dyn Observer,
    ) -> Result<Option<(Configuration, Vec<u8>)>, StopReason> {
        let oracle = self.oracle;
        let filter = self.active_filter();
        let jobs = self.jobs;
        std::thread::scope(|scope| {
            let (job_tx, job_rx) = mpsc::channel::<Job>();
            let job_rx = Arc::new(Mutex::new(job_rx));
            let (done_tx, done_rx) = mpsc::channel::<(u64, Finished)>();
            for _ in 0..jobs {
                let job_rx = Arc::clone(&job_rx);
                let done_tx = done_tx.clone();
                scope.spawn(move || {
                    loop {
                        let next = job_rx.lock().expect("job queue poisoned").recv();
                        let Ok(job) = next else { return };
                        let outcome = if job.cancel.load(Ordering::SeqCst) {
                            Finished::Tested(TestOutcome {
                                cancelled: true,
                                ..Verdict::NotInteresting.into()
                            })
                        } else if filter.is_some_and(|f| !f.accepts(&job.bytes)) {
                            Finished::SyntaxRejected
                        } else {
                            let candidate = Candidate {
                                config: &job.candidate,
                                bytes: &job.bytes,
                            };
                            Finished::Tested(oracle.test(&candidate, &job.cancel))
                        };
                        if done_tx.send((job.slot, outcome)).is_err() {
                            return;
                        }
                    }
                });
            }
            drop(done_tx);
            let result = self.speculate(policy, config, phase, observer, &job_tx, &done_rx);
            drop(job_tx);
            result
        })
    }

    /// The bookkeeping of [`Self::speculative_pass`], with workers already running.
    #[allow(clippy::type_complexity)]
    fn speculate(
        &mut self,
        policy: &mut Box<dyn Policy>,
        config: &Configuration,
        phase: &mut PhaseStats,
        observer: &mut dyn Observer,
        job_tx: &mpsc::Sender<Job>,
        done_rx: &mpsc::Receiver<(u64, Finished)>,
    ) -> Result<Option<(Configuration, Vec<u8>)>, StopReason> {
        // `cursor` proposes ahead as if every earlier proposal failed.
        let mut cursor = policy.clone_box();
        let mut exhausted = false;
        let mut slots: VecDeque<Slot> = VecDeque::new();
        let mut next_id: u64 = 0;
        let mut running = 0usize;
        let cancel_all = |slots: &VecDeque<Slot>| {
            for s in slots {
                s.cancel.store(true, Ordering::SeqCst);
            }
        };
        loop {
            // Settle finished slots from the front, in proposal order.
            while let Some(front) = slots.front() {
                match front.result {
                    Some(false) => {
                        slots.pop_front();
                    }
                    Some(true) if front.unconfirmed => {
                        // Re-test it here; the other workers keep going.
                        let (candidate, bytes, key) = (
                            Arc::clone(&front.candidate),
                            Arc::clone(&front.bytes),
                            front.key,
                        );
                        match self.confirm(&candidate, &bytes, key, phase) {
                            Ok(confirmed) => {
                                let front = slots.front_mut().expect("front exists");
                                front.unconfirmed = false;
                                front.result = Some(confirmed);
                                observer.on_progress(phase, config);
                            }
                            Err(reason) => {
                                cancel_all(&slots);
                                return Err(reason);
                            }
                        }
                    }
                    Some(true) => {
                        let winner = slots.pop_front().expect("front exists");
                        cancel_all(&slots);
                        phase.wasted += slots.iter().filter(|s| s.result.is_none()).count() as u64;
                        *policy = winner.snapshot;
                        let candidate = Arc::unwrap_or_clone(winner.candidate);
                        let bytes = Arc::unwrap_or_clone(winner.bytes);
                        return Ok(Some((candidate, bytes)));
                    }
                    None => break,
                }
            }
            if slots.is_empty() && exhausted {
                *policy = cursor;
                return Ok(None);
            }
            if let Some(reason) = self.limit_hit() {
                cancel_all(&slots);
                return Err(reason);
            }
            // A success known further back means later proposals are not needed.
            let success_known = slots.iter().any(|s| s.result == Some(true));
            while !exhausted && !success_known && running < self.jobs {
                let Some(proposal) = cursor.next_proposal(config) else {
                    exhausted = true;
                    break;
                };
                let Some(candidate) = config.apply(&proposal) else {
                    continue; // removes nothing: cannot be progress
                };
                let bytes = self.units.render(&candidate);
                // The syntax filter, if any, runs in the worker.
                let (known, key) = self.cached(&bytes, phase);
                let mut slot = Slot {
                    id: next_id,
                    snapshot: cursor.clone_box(),
                    candidate: Arc::new(candidate),
                    bytes: Arc::new(bytes),
                    key,
                    cancel: Arc::new(AtomicBool::new(false)),
                    result: None,
                    unconfirmed: false,
                };
                next_id += 1;
                match known {
                    Some(known) => slot.result = Some(known),
                    None => {
                        running += 1;
                        let job = Job {
                            slot: slot.id,
                            candidate: Arc::clone(&slot.candidate),
                            bytes: Arc::clone(&slot.bytes),
                            cancel: Arc::clone(&slot.cancel),
                        };
                        job_tx.send(job).expect("workers outlive the pass");
                    }
                }
                let settled = slot.result.is_some();
                slots.push_back(slot);
                if settled {
                    break; // settle it before proposing further
                }
            }
            if slots.front().is_some_and(|s| s.result.is_some()) || running == 0 {
                continue;
            }
            match done_rx.recv_timeout(Duration::from_millis(50)) {
                Ok((id, finished)) => {
                    running -= 1;
                    if let Finished::Tested(outcome) = finished
                        && outcome.cancelled
                    {
                        continue; // only slots cancelled by an interrupt get here
                    }
                    if let Some(at) = slots.iter().position(|s| s.id == id) {
                        let key = slots[at].key;
                        let interesting = match finished {
                            Finished::Tested(outcome) => self.record(key, outcome, phase),
                            Finished::SyntaxRejected => {
                                self.record_rejection(key, phase);
                                false
                            }
                        };
                        slots[at].result = Some(interesting);
                        slots[at].unconfirmed = interesting && self.recheck;
                        observer.on_progress(phase, config);
                    } else {
                        // A cancelled test of an earlier pass cannot reach here:
                        // each pass has its own channel.
                        unreachable!("result for an unknown slot");
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    unreachable!("workers outlive the pass")
                }
            }
        }
    }
}

/// A proposal being tested ahead, with the policy state right after it was made.
struct Slot {
    id: u64,
    snapshot: Box<dyn Policy>,
    candidate: Arc<Configuration>,
    bytes: Arc<Vec<u8>>,
    key: u128,
    cancel: Arc<AtomicBool>,
    /// `None` while its test runs; `Some(interesting)` once known.
    result: Option<bool>,
    /// Interesting by one oracle test, not yet re-tested (recheck only).
    unconfirmed: bool,
}

/// What a worker did with a job.
enum Finished {
    /// The syntax filter refused the candidate; the oracle did not run.
    SyntaxRejected,
    Tested(TestOutcome),
}

/// A test handed to a worker thread.
struct Job {
    slot: u64,
    candidate: Arc<Configuration>,
    bytes: Arc<Vec<u8>>,
    cancel: Arc<AtomicBool>,
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::sync::Arc;

    use super::*;
    use crate::policy::flat::FlatPolicy;
    use crate::policy::{Minimizer, MinimizerSettings};

    /// Recheck through the serial and the speculative loop: an oracle that
    /// passes a candidate without unit 3 only the first time it sees it.
    #[test]
    fn recheck_commits_only_candidates_that_pass_twice() {
        for jobs in [1, 3] {
            let units = Units::from_pieces(&["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);
            let seen = Mutex::new(HashSet::new());
            let oracle = |c: &Candidate<'_>| {
                let first = seen.lock().unwrap().insert(c.bytes.to_vec());
                if c.keeps(7) && (c.keeps(3) || first) {
                    Verdict::Interesting
                } else {
                    Verdict::NotInteresting
                }
            };
            let mut reducer = Reducer::new(&units, &oracle)
                .with_jobs(jobs)
                .with_recheck(true);
            let weights = Arc::new(vec![1; 10]);
            let mut policy: Box<dyn Policy> = Box::new(FlatPolicy::new(
                Minimizer::DdMin.build(&MinimizerSettings::default()),
                weights,
            ));
            let (result, reason) = reducer.run(&mut policy, Configuration::full(10), &mut Quiet);
            assert_eq!(reason, StopReason::Finished);
            assert_eq!(
                result.kept.iter().collect::<Vec<_>>(),
                vec![3, 7],
                "-j {jobs}"
            );
            assert!(reducer.recheck_failures() > 0);
            let phase = &reducer.phases[0];
            assert!(phase.tests >= phase.successes * 2, "re-tests are counted");
        }
    }
}
