//! The one reduce loop: it alone runs the oracle, consults the cache and keeps the best result.
//!
//! A policy proposes, the loop tests. With `jobs == 1` proposals are tested
//! one at a time. With more jobs the loop tests ahead: while proposal `k` is
//! being tested, the proposals that would follow it are tested too, each
//! made by a copy of the serial loop's state ([`Cursor`]) on a guess of how
//! the test before it ends. The guess is "fails" unless the
//! [`OutcomeModel`](crate::speculation::OutcomeModel) says a test that has
//! run this long usually passes (a compiler rejects a broken candidate at
//! once and takes its full time on one that still crashes it); then what was
//! proposed after it on the other guess is cancelled and proposed again.
//! Results are consumed strictly in proposal order: a result that matches
//! the guess the next proposal was made on keeps that proposal; one that
//! does not cancels every later test. A pass commits exactly when the serial
//! loop would. The committed steps are therefore exactly those of the serial
//! loop, whatever the number of jobs and however good the guesses. That
//! bookkeeping is [`Speculation`]'s; the loop hands it what it finds out,
//! and commits what it settles.
//!
//! With `recheck` on, an interesting verdict from the oracle is settled only
//! after a second test of the same candidate agrees (where the serial loop
//! would commit, and where the parallel loop finds it at the front); one that
//! fails the re-test counts as not interesting. The re-test is an oracle test
//! in the stats.
//!
//! A test that cannot run (a [`Fault`]) is no verdict: it is tried again
//! (`patience.rs`), never cached nor counted, and a fault that lasts stops
//! the run ([`StopReason::Fault`]) with the best result so far. Every
//! verdict cached is told to the [`VerdictLog`], if any, and verdicts a
//! log kept from an earlier run can be handed back ([`Reducer::with_known`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use crate::cache::{VerdictCache, key_of};
use crate::configuration::Configuration;
use crate::interfaces::{
    Candidate, Fault, Messages, Observer, Oracle, StepLog, Strictness, SyntaxFilter, TestOutcome,
    Verdict, VerdictLog, Watch,
};
use crate::patience::{FaultNotice, test_patiently};
use crate::policy::Policy;
use crate::speculation::{Checked, Cursor, Done, Finished, Job, Report, Retest, Speculation};
use crate::stats::PhaseStats;
use crate::units::Units;
use crate::waves::Outcomes;

mod rounds;

/// Whether `filter` lets `bytes` through at `strictness`; `parent` is the
/// text it was proposed from, needed when lenient.
fn syntax_allows(
    filter: &dyn SyntaxFilter,
    strictness: Strictness,
    bytes: &[u8],
    parent: Option<&[u8]>,
) -> bool {
    match (strictness, parent) {
        (Strictness::MissingTokensFree, Some(parent)) => filter.accepts_lenient(bytes, parent),
        _ => filter.accepts(bytes),
    }
}

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

/// Why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The policy reached its fixpoint.
    Finished,
    MaxTests,
    MaxTime,
    Interrupted,
    /// A test could not run for longer than the fault patience
    /// ([`Reducer::fault`] says why).
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

/// The reduce loop's fixed parts: what is reduced, how it is judged, and the
/// counters and cache that persist across phases.
pub struct Reducer<'a> {
    units: &'a Units,
    oracle: &'a dyn Oracle,
    filter: Option<&'a dyn SyntaxFilter>,
    /// How the filter applies to the current phase (`None`: not at all).
    filter_strictness: Option<Strictness>,
    cache: Option<VerdictCache>,
    jobs: usize,
    /// The wave width (`--wave`; 1: no waves).
    wave: usize,
    /// The settled verdicts the rounds of waves decide from.
    outcomes: Outcomes,
    limits: Limits,
    tests_total: u64,
    /// Re-test interesting candidates before committing them.
    recheck: bool,
    /// Candidates that passed once but failed the re-test.
    recheck_failures: u64,
    /// The fault that stopped the run, if one did.
    fault: Option<Fault>,
    /// Hears every verdict cached.
    log: Option<&'a dyn VerdictLog>,
    /// Hears every candidate accepted.
    steps: Option<&'a dyn StepLog>,
    /// Where a fault being retried is said.
    messages: Option<&'a dyn Messages>,
    notice: Arc<FaultNotice>,
    /// One entry per `run`.
    pub phases: Vec<PhaseStats>,
}

/// What a reducer hands on to the next one when the text is parsed afresh
/// ([`Reducer::into_carried`]).
pub struct Carried {
    cache: Option<VerdictCache>,
    tests_total: u64,
    outcomes: Outcomes,
    /// Candidates that passed once but failed the re-test, so far.
    pub recheck_failures: u64,
    /// The fault that stopped the run, if one did.
    pub fault: Option<Fault>,
    /// One entry per phase run so far.
    pub phases: Vec<PhaseStats>,
}

impl Carried {
    /// The same state with an empty verdict cache (if it had one), for a
    /// reduction of another text whose candidates' bytes mean other things.
    pub fn with_fresh_cache(mut self) -> Carried {
        if self.cache.is_some() {
            self.cache = Some(VerdictCache::default());
        }
        self
    }

    /// Puts `cache` in place of the verdict cache (when caching is on), and
    /// returns the one it held.
    pub(crate) fn swap_cache(&mut self, cache: VerdictCache) -> Option<VerdictCache> {
        match &mut self.cache {
            Some(held) => Some(std::mem::replace(held, cache)),
            None => None,
        }
    }
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
            filter_strictness: Some(Strictness::Strict),
            cache: Some(VerdictCache::default()),
            jobs: 1,
            wave: 1,
            outcomes: Outcomes::default(),
            limits: Limits::default(),
            tests_total: 0,
            recheck: false,
            recheck_failures: 0,
            fault: None,
            log: None,
            steps: None,
            messages: None,
            notice: Arc::default(),
            phases: Vec::new(),
        }
    }

    /// Tells `log` every verdict cached from now on.
    pub fn with_log(mut self, log: Option<&'a dyn VerdictLog>) -> Self {
        self.log = log;
        self
    }

    /// Tells `steps` every candidate accepted from now on.
    pub fn with_steps(mut self, steps: Option<&'a dyn StepLog>) -> Self {
        self.steps = steps;
        self
    }

    /// Says through `messages` that a test could not run and is retried.
    pub fn with_messages(mut self, messages: Option<&'a dyn Messages>) -> Self {
        self.messages = messages;
        self
    }

    /// Fills the cache (if on) with verdicts known from an earlier run
    /// (candidate hash, interesting); they are not told to the log again.
    pub fn with_known(mut self, known: impl IntoIterator<Item = (u128, bool)>) -> Self {
        if let Some(cache) = &mut self.cache {
            for (key, interesting) in known {
                cache.insert(key, interesting);
            }
        }
        self
    }

    /// The fault that stopped the run, if one did.
    pub fn fault(&self) -> Option<&Fault> {
        self.fault.as_ref()
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

    /// How the syntax filter applies to the following runs, if at all (by
    /// default strictly, when one was given): tree policies use it, flat
    /// list algorithms chosen explicitly do not.
    pub fn set_filter(&mut self, strictness: Option<Strictness>) {
        self.filter_strictness = strictness;
    }

    /// How many oracle tests may run at once.
    pub fn with_jobs(mut self, jobs: usize) -> Self {
        self.jobs = jobs.max(1);
        self
    }

    /// Tests waves of up to `width` independent candidates and merges
    /// what passes (`--wave`; 1, the default: no waves, the commits are
    /// the serial loop's). The result depends on the width, never on the
    /// jobs.
    pub fn with_wave(mut self, width: usize) -> Self {
        self.wave = width.max(1);
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

    /// Ends this reducer, keeping what the next one over a re-parsed text
    /// goes on with: the verdict cache (keyed by bytes, so valid whatever
    /// the units), the counters the limits look at, and the phase stats.
    pub fn into_carried(self) -> Carried {
        Carried {
            cache: self.cache,
            tests_total: self.tests_total,
            outcomes: self.outcomes,
            recheck_failures: self.recheck_failures,
            fault: self.fault,
            phases: self.phases,
        }
    }

    /// Goes on from an earlier reducer's [`Carried`] state.
    pub fn with_carried(mut self, carried: Carried) -> Self {
        self.cache = carried.cache;
        self.tests_total = carried.tests_total;
        self.outcomes = carried.outcomes;
        self.recheck_failures = carried.recheck_failures;
        self.fault = carried.fault;
        self.phases = carried.phases;
        self
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
        if let Some(flag) = &self.limits.flaky
            && flag.load(Ordering::SeqCst)
        {
            return Some(StopReason::Flaky);
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
        self.run_then(policy, start, observer, &mut std::iter::empty())
    }

    /// [`Self::run`], told which policies run next, from its result, if
    /// this one commits nothing: with waves, their first candidates are
    /// tested ahead once this one's run out (`waves::Prefetch`).
    pub fn run_then(
        &mut self,
        policy: &mut Box<dyn Policy>,
        start: Configuration,
        observer: &mut dyn Observer,
        upcoming: &mut dyn Iterator<Item = Box<dyn Policy>>,
    ) -> (Configuration, StopReason) {
        let began = Instant::now();
        let mut phase = PhaseStats::new(policy.name());
        phase.units_before = start.len();
        if let Some((filter, _)) = self.active_filter() {
            filter.rebase(&self.units.render(&start));
        }
        let (config, reason) = if self.wave > 1 {
            self.run_waves(policy, start, &mut phase, observer, upcoming)
        } else if self.jobs == 1 {
            self.run_serial(policy, start, &mut phase, observer)
        } else {
            self.run_speculative(policy, start, &mut phase, observer)
        };
        phase.units_after = config.len();
        phase.seconds = began.elapsed().as_secs_f64();
        observer.on_progress(&phase, &config);
        self.phases.push(phase);
        (config, reason)
    }

    /// The serial loop: one test at a time, in the order the policy proposes.
    fn run_serial(
        &mut self,
        policy: &mut Box<dyn Policy>,
        start: Configuration,
        phase: &mut PhaseStats,
        observer: &mut dyn Observer,
    ) -> (Configuration, StopReason) {
        let never = AtomicBool::new(false);
        let mut best = Arc::new(start);
        let mut cursor = Cursor::new(policy.clone_box(), Arc::clone(&best));
        let reason = loop {
            if let Some(reason) = self.limit_hit() {
                break reason;
            }
            let Some(candidate) = cursor.next_candidate() else {
                break StopReason::Finished;
            };
            let bytes = self.units.render(&candidate);
            let (quick, key) = self.quick_verdict(&bytes, &cursor, phase);
            let interesting = match quick {
                Quick::Known(known) => known,
                Quick::NeedsOracle => {
                    let judged = Candidate {
                        config: &candidate,
                        bytes: &bytes,
                    };
                    let cancel = self.limits.interrupt.as_deref().unwrap_or(&never);
                    let outcome = match self.test(&judged, Watch::Flag(cancel)) {
                        Ok(outcome) => outcome,
                        Err(fault) => {
                            self.fault = Some(fault);
                            break StopReason::Fault;
                        }
                    };
                    if outcome.cancelled {
                        break self.limit_hit().unwrap_or(StopReason::Interrupted);
                    }
                    let mut interesting = self.record(key, outcome, phase);
                    observer.on_progress(phase, &best);
                    if interesting && self.recheck {
                        match self.confirm(&candidate, &bytes, key, phase) {
                            Ok(confirmed) => interesting = confirmed,
                            Err(reason) => break reason,
                        }
                        observer.on_progress(phase, &best);
                    }
                    interesting
                }
            };
            if interesting {
                best = Arc::new(candidate);
                cursor.commit(Arc::clone(&best));
                self.commit(&best, &bytes, phase, observer);
            }
        };
        *policy = cursor.into_policy();
        (Arc::unwrap_or_clone(best), reason)
    }

    /// Judges `bytes`, a candidate from outside the policies (an outside
    /// reducer, a proposal), as the loop judges its own: the cache, the
    /// syntax filter, then the oracle; counted in `phase`. A candidate
    /// found interesting is accepted (told to the step log and counted as
    /// a success). `Err` when a limit or a fault stops the run first.
    pub fn judge(&mut self, bytes: &[u8], phase: &mut PhaseStats) -> Result<bool, StopReason> {
        if let Some(reason) = self.limit_hit() {
            return Err(reason);
        }
        let (known, key) = self.cached(bytes, phase);
        let interesting = match known {
            Some(known) => known,
            None if self
                .active_filter()
                .is_some_and(|(filter, _)| !filter.accepts(bytes)) =>
            {
                self.record_rejection(key, phase);
                false
            }
            None => {
                let never = AtomicBool::new(false);
                let cancel = self.limits.interrupt.as_deref().unwrap_or(&never);
                let config = Configuration::full(0);
                let candidate = Candidate {
                    config: &config,
                    bytes,
                };
                let outcome = match self.test(&candidate, Watch::Flag(cancel)) {
                    Ok(outcome) if outcome.cancelled => {
                        return Err(self.limit_hit().unwrap_or(StopReason::Interrupted));
                    }
                    Ok(outcome) => outcome,
                    Err(fault) => {
                        self.fault = Some(fault);
                        return Err(StopReason::Fault);
                    }
                };
                self.record(key, outcome, phase)
            }
        };
        if interesting {
            phase.successes += 1;
            self.rebase_filter(bytes);
            if let Some(steps) = self.steps {
                steps.accepted(&phase.name, bytes);
            }
        }
        Ok(interesting)
    }

    /// Tests `candidate`, trying again while its test cannot run.
    fn test(&self, candidate: &Candidate<'_>, cancel: Watch<'_>) -> Result<TestOutcome, Fault> {
        test_patiently(
            self.oracle,
            candidate,
            cancel,
            self.patience(),
            self.messages.map(|m| (m, &*self.notice)),
        )
    }

    /// What the workers test with, their fault notices going to `notice`
    /// (a copy of the loop's, so that the workers need not borrow it).
    fn tester<'n>(&self, notice: &'n FaultNotice) -> Tester<'n>
    where
        'a: 'n,
    {
        Tester {
            oracle: self.oracle,
            patience: self.patience(),
            messages: self.messages.map(|m| (m, notice)),
        }
    }

    fn patience(&self) -> Duration {
        self.limits.fault_patience.unwrap_or(DEFAULT_FAULT_PATIENCE)
    }

    /// Caches a verdict and tells the log.
    fn remember(&mut self, key: u128, interesting: bool) {
        if let Some(cache) = &mut self.cache {
            cache.insert(key, interesting);
            if let Some(log) = self.log {
                log.verdict(key, interesting);
            }
        }
    }

    /// Counts and announces a committed candidate.
    fn commit(
        &self,
        config: &Configuration,
        bytes: &[u8],
        phase: &mut PhaseStats,
        observer: &mut dyn Observer,
    ) {
        phase.successes += 1;
        self.rebase_filter(bytes);
        if let Some(steps) = self.steps {
            steps.accepted(&phase.name, bytes);
        }
        observer.on_improved(config, bytes);
        observer.on_progress(phase, config);
    }

    /// The syntax filter and how strict it is, if it applies to the
    /// current phase.
    fn active_filter(&self) -> Option<(&'a dyn SyntaxFilter, Strictness)> {
        self.filter.zip(self.filter_strictness)
    }

    fn rebase_filter(&self, bytes: &[u8]) {
        if let Some((filter, _)) = self.active_filter() {
            filter.rebase(bytes);
        }
    }

    /// What the cache knows about `bytes` (an oracle verdict, or a syntax
    /// rejection while the filter applies strictly: any rejection is one
    /// for a strict filter, not the other way round), and their cache key.
    fn cached(&self, bytes: &[u8], phase: &mut PhaseStats) -> (Option<bool>, u128) {
        let key = key_of(bytes);
        let filtering = self
            .active_filter()
            .is_some_and(|(_, s)| s == Strictness::Strict);
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

    /// The text of `base`, the configuration a candidate was proposed
    /// from, when the filter needs it (lenient).
    fn parent_bytes(&self, base: &Configuration) -> Option<Vec<u8>> {
        self.active_filter()
            .is_some_and(|(_, s)| s == Strictness::MissingTokensFree)
            .then(|| self.units.render(base))
    }

    /// Cache and syntax filter: what can be known without running the
    /// oracle about `bytes`, proposed by `cursor`.
    fn quick_verdict(
        &mut self,
        bytes: &[u8],
        cursor: &Cursor,
        phase: &mut PhaseStats,
    ) -> (Quick, u128) {
        let (known, key) = self.cached(bytes, phase);
        if let Some(known) = known {
            return (Quick::Known(known), key);
        }
        let parent = self.parent_bytes(cursor.base());
        if let Some((filter, strictness)) = self.active_filter()
            && !syntax_allows(filter, strictness, bytes, parent.as_deref())
        {
            self.record_rejection(key, phase);
            return (Quick::Known(false), key);
        }
        (Quick::NeedsOracle, key)
    }

    fn record(&mut self, key: u128, outcome: TestOutcome, phase: &mut PhaseStats) -> bool {
        let interesting = outcome.verdict == Verdict::Interesting;
        self.count_test(&outcome, phase);
        // With recheck, only the re-test's verdict is remembered.
        if !(interesting && self.recheck) {
            self.remember(key, interesting);
        }
        interesting
    }

    /// Counts an oracle test; a verdict replayed from an earlier run ran
    /// none and counts as a cache hit (as a single file's resumed run
    /// finds it in the cache).
    fn count_test(&mut self, outcome: &TestOutcome, phase: &mut PhaseStats) {
        if outcome.replayed {
            phase.cache_hits += 1;
            return;
        }
        phase.tests += 1;
        phase.timeouts += outcome.timed_out as u64;
        self.tests_total += 1;
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
        let tested = self.test(
            &Candidate {
                config: candidate,
                bytes,
            },
            Watch::Flag(self.limits.interrupt.as_deref().unwrap_or(&never)),
        );
        let outcome = match tested {
            Ok(outcome) => outcome,
            Err(fault) => {
                self.fault = Some(fault);
                return Err(StopReason::Fault);
            }
        };
        if outcome.cancelled {
            return Err(self.limit_hit().unwrap_or(StopReason::Interrupted));
        }
        let confirmed = outcome.verdict == Verdict::Interesting;
        self.count_test(&outcome, phase);
        self.recheck_failures += u64::from(!confirmed);
        self.remember(key, confirmed);
        Ok(confirmed)
    }

    /// The speculative loop: up to `jobs` tests in flight, committing what
    /// the serial loop would (see the module documentation).
    fn run_speculative(
        &mut self,
        policy: &mut Box<dyn Policy>,
        start: Configuration,
        phase: &mut PhaseStats,
        observer: &mut dyn Observer,
    ) -> (Configuration, StopReason) {
        let notice = Arc::clone(&self.notice);
        let tester = self.tester(&notice);
        let filter = self.active_filter();
        // One worker per job. A cancelled test keeps its worker until its
        // processes are gone (a few milliseconds: the cancel wakes its
        // waiter at once); spare workers did not measurably
        // shorten runs and each kept its own allocator arena and parser,
        // 15-20 MB more at peak on a 1 MB input.
        let workers = self.jobs;
        std::thread::scope(|scope| {
            let (job_tx, job_rx) = mpsc::channel::<Job>();
            let job_rx = Arc::new(Mutex::new(job_rx));
            let (done_tx, done_rx) = mpsc::channel::<Done>();
            for _ in 0..workers {
                let job_rx = Arc::clone(&job_rx);
                let done_tx = done_tx.clone();
                scope.spawn(move || work(tester, filter, &job_rx, &done_tx));
            }
            drop(done_tx);
            let result = self.speculate(policy, start, phase, observer, &job_tx, &done_rx);
            drop(job_tx);
            result
        })
    }

    /// The bookkeeping of [`Self::run_speculative`], with workers already
    /// running: the loop settles results, proposes ahead and waits for
    /// reports, and the [`Speculation`] keeps the chain.
    fn speculate(
        &mut self,
        policy: &mut Box<dyn Policy>,
        start: Configuration,
        phase: &mut PhaseStats,
        observer: &mut dyn Observer,
        job_tx: &mpsc::Sender<Job>,
        done_rx: &mpsc::Receiver<Done>,
    ) -> (Configuration, StopReason) {
        let mut best = Arc::new(start);
        let cursor = Cursor::new(policy.clone_box(), Arc::clone(&best));
        let mut speculation = Speculation::new(cursor, self.jobs, self.recheck);
        let reason = loop {
            if let Err(reason) = self.settle(&mut speculation, &mut best, phase, observer) {
                break reason;
            }
            if let Some(reason) = self.limit_hit() {
                speculation.cancel_all(phase);
                break reason;
            }
            speculation.reguess(phase);
            if let Some(ended) = self.propose_ahead(&mut speculation, phase, job_tx) {
                *policy = ended;
                break StopReason::Finished;
            }
            if speculation.front_is_known() {
                continue;
            }
            // Wait for a result, or until a running test's guess changes.
            match done_rx.recv_timeout(speculation.wait()) {
                Ok(done) => {
                    if let Err(reason) =
                        self.take_report(&mut speculation, done, &best, phase, observer)
                    {
                        break reason;
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    unreachable!("workers outlive the phase")
                }
            }
        };
        (Arc::unwrap_or_clone(best), reason)
    }

    /// Settles finished tests from the front, in proposal order: commits
    /// passes, re-testing them first with recheck on. `Err` when a limit
    /// stops the run during a re-test (every test is then cancelled).
    fn settle(
        &mut self,
        speculation: &mut Speculation,
        best: &mut Arc<Configuration>,
        phase: &mut PhaseStats,
        observer: &mut dyn Observer,
    ) -> Result<(), StopReason> {
        loop {
            let retest = speculation.settle(phase, |phase, candidate, bytes| {
                *best = Arc::clone(candidate);
                self.commit(best, bytes, phase, observer);
            });
            let Some(Retest {
                candidate,
                bytes,
                key,
            }) = retest
            else {
                return Ok(());
            };
            match self.confirm(&candidate, &bytes, key, phase) {
                Ok(confirmed) => {
                    speculation.confirm_front(confirmed);
                    observer.on_progress(phase, best);
                }
                Err(reason) => {
                    speculation.cancel_all(phase);
                    return Err(reason);
                }
            }
        }
    }

    /// Proposes ahead while workers are free, rendering each candidate and
    /// asking the cache, and sends the workers what the cache does not
    /// know. The policy when the phase is over.
    fn propose_ahead(
        &self,
        speculation: &mut Speculation,
        phase: &mut PhaseStats,
        job_tx: &mpsc::Sender<Job>,
    ) -> Option<Box<dyn Policy>> {
        let check = |candidate: &Configuration, base: &Configuration, phase: &mut PhaseStats| {
            let bytes = self.units.render(candidate);
            // The syntax filter, if any, runs in the worker.
            let (known, key) = self.cached(&bytes, phase);
            let parent = known
                .is_none()
                .then(|| self.parent_bytes(base).map(Arc::new))
                .flatten();
            Checked {
                bytes,
                key,
                known,
                parent,
            }
        };
        let send = |job| job_tx.send(job).expect("workers outlive the phase");
        speculation.propose_ahead(phase, check, send)
    }

    /// Counts a worker's report on a test still wanted. `Err` when the test
    /// was cancelled by a stop.
    fn take_report(
        &mut self,
        speculation: &mut Speculation,
        done: Done,
        best: &Configuration,
        phase: &mut PhaseStats,
        observer: &mut dyn Observer,
    ) -> Result<(), StopReason> {
        let report = speculation.take_report(done, phase, |phase, key, finished| match finished {
            Finished::Tested(outcome) => self.record(key, outcome, phase),
            Finished::SyntaxRejected => {
                self.record_rejection(key, phase);
                false
            }
            Finished::Cancelled | Finished::Fault(_) => {
                unreachable!("a cancelled or faulted test is not counted")
            }
        });
        match report {
            Report::Stale => {}
            Report::Stop => return Err(self.limit_hit().unwrap_or(StopReason::Interrupted)),
            Report::Fault(fault) => {
                self.fault = Some(fault);
                return Err(StopReason::Fault);
            }
            Report::Recorded => observer.on_progress(phase, best),
        }
        Ok(())
    }
}

/// What a worker tests with: the oracle, tried again on a fault.
#[derive(Clone, Copy)]
struct Tester<'a> {
    oracle: &'a dyn Oracle,
    patience: Duration,
    messages: Option<(&'a dyn Messages, &'a FaultNotice)>,
}

/// A worker: tests the jobs it takes from `jobs` and reports on each to
/// `done`, until either channel closes.
fn work(
    tester: Tester<'_>,
    filter: Option<(&dyn SyntaxFilter, Strictness)>,
    jobs: &Mutex<mpsc::Receiver<Job>>,
    done: &mpsc::Sender<Done>,
) {
    loop {
        let next = jobs.lock().expect("job queue poisoned").recv();
        let Ok(job) = next else { return };
        let began = Instant::now();
        let finished = test_job(tester, filter, &job);
        let report = Done {
            slot: job.slot,
            finished,
            took: began.elapsed(),
        };
        if done.send(report).is_err() {
            return;
        }
    }
}

/// What a worker does with `job`: the syntax filter first, if any, then
/// the oracle, unless the job was cancelled before it began.
fn test_job(
    tester: Tester<'_>,
    filter: Option<(&dyn SyntaxFilter, Strictness)>,
    job: &Job,
) -> Finished {
    if job.cancel.is_cancelled() {
        Finished::Cancelled
    } else if filter.is_some_and(|(f, strictness)| {
        !syntax_allows(
            f,
            strictness,
            &job.bytes,
            job.parent.as_deref().map(Vec::as_slice),
        )
    }) {
        Finished::SyntaxRejected
    } else {
        let candidate = Candidate {
            config: &job.candidate,
            bytes: &job.bytes,
        };
        let cancel = Watch::Signal(&job.cancel);
        match test_patiently(
            tester.oracle,
            &candidate,
            cancel,
            tester.patience,
            tester.messages,
        ) {
            Ok(outcome) if outcome.cancelled => Finished::Cancelled,
            Ok(outcome) => Finished::Tested(outcome),
            Err(fault) => Finished::Fault(fault),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::sync::Arc;

    use super::*;
    use crate::interfaces::Quiet;
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
