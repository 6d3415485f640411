//! The one engine: it alone runs the oracle, consults the cache and keeps
//! the best result. Every way of testing candidates goes through it: a
//! policy's proposals one at a time or in waves (`schedulers/`), outside
//! candidates, the next phases' candidates tested ahead.
//!
//! - `pool.rs`: the workers (N threads, or the engine's thread for one).
//! - `flight.rs`: the table of tests in flight.
//! - `settle.rs`: the settle step every verdict goes through: the cache,
//!   the syntax filter's rejections, `--recheck`, faults, the journal, the
//!   commit.
//! - `lookahead.rs`: schedulers run ahead on guessed verdicts, and the rule
//!   that makes `-j N` commit what `-j 1` commits.
//! - `drive.rs`: the loop that ties them.
//! - `timing.rs`, `patience.rs`, `cache.rs`, `limits.rs`: the guesses from
//!   running times, faults tried again, the verdict cache, when to stop.
//!
//! The engine sees the oracle, the syntax filter, the display and the
//! journal only through the traits of `interfaces.rs`. A test that cannot
//! run (a [`Fault`]) is no verdict: it is tried again (`patience.rs`),
//! never cached nor counted, and a fault that lasts stops the run
//! ([`StopReason::Fault`]) with the best result so far. Every verdict
//! cached is told to the [`VerdictLog`], if any, and verdicts a log kept
//! from an earlier run can be handed back ([`Engine::with_known`]).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::configuration::Configuration;
use crate::interfaces::{
    Fault, Messages, Observer, Oracle, Quiet, StepLog, Strictness, SyntaxFilter, VerdictLog,
};
use crate::policy::Policy;
use crate::schedulers::Scheduler;
use crate::schedulers::cursor::Cursor;
use crate::schedulers::outside::Outside;
use crate::schedulers::rates::PassRates;
use crate::schedulers::serial::Serial;
use crate::schedulers::waves::Waves;
use crate::stats::PhaseStats;
use crate::units::Units;

pub(crate) mod cache;
mod drive;
mod flight;
pub mod limits;
mod lookahead;
pub(crate) mod patience;
mod pool;
mod settle;
mod timing;

use cache::VerdictCache;
pub use limits::{DEFAULT_FAULT_PATIENCE, Limits, StopReason};
use patience::FaultNotice;
use pool::Tester;
use timing::Timing;

/// The engine's fixed parts: what is reduced, how it is judged, and the
/// counters and cache that persist across phases.
pub struct Engine<'a> {
    units: &'a Units,
    oracle: &'a dyn Oracle,
    filter: Option<&'a dyn SyntaxFilter>,
    /// How the filter applies to the current phase (`None`: not at all).
    filter_strictness: Option<Strictness>,
    cache: Option<VerdictCache>,
    jobs: usize,
    /// The wave width (`--wave`; 1: the serial scheduler).
    wave: usize,
    /// The pass rates the waves decide from, from phase to phase.
    rates: PassRates,
    /// Recent tests' running times, for the guesses.
    timing: Timing,
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
    /// One entry per phase.
    pub phases: Vec<PhaseStats>,
}

/// What an engine hands on to the next one when the text is parsed afresh
/// ([`Engine::into_carried`]).
pub struct Carried {
    cache: Option<VerdictCache>,
    tests_total: u64,
    rates: PassRates,
    timing: Timing,
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

impl<'a> Engine<'a> {
    pub fn new(units: &'a Units, oracle: &'a dyn Oracle) -> Self {
        Engine {
            units,
            oracle,
            filter: None,
            filter_strictness: Some(Strictness::Strict),
            cache: Some(VerdictCache::default()),
            jobs: 1,
            wave: 1,
            rates: PassRates::default(),
            timing: Timing::default(),
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

    /// How the syntax filter applies to the following phases, if at all
    /// (by default strictly, when one was given): tree policies use it,
    /// flat list algorithms chosen explicitly do not.
    pub fn set_filter(&mut self, strictness: Option<Strictness>) {
        self.filter_strictness = strictness;
    }

    /// How many oracle tests may run at once.
    pub fn with_jobs(mut self, jobs: usize) -> Self {
        self.jobs = jobs.max(1);
        self
    }

    /// Tests waves of up to `width` independent candidates and merges
    /// what passes (`--wave`; 1, the default: the serial scheduler, whose
    /// commits are the tutorial's loop's). The result depends on the
    /// width, never on the jobs.
    pub fn with_wave(mut self, width: usize) -> Self {
        self.wave = width.max(1);
        self
    }

    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Re-tests every interesting candidate once before it counts (off by
    /// default), whichever scheduler asked for it.
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

    /// Ends this engine, keeping what the next one over a re-parsed text
    /// goes on with: the verdict cache (keyed by bytes, so valid whatever
    /// the units), the counters the limits look at, and the phase stats.
    pub fn into_carried(self) -> Carried {
        Carried {
            cache: self.cache,
            tests_total: self.tests_total,
            rates: self.rates,
            timing: self.timing,
            recheck_failures: self.recheck_failures,
            fault: self.fault,
            phases: self.phases,
        }
    }

    /// Goes on from an earlier engine's [`Carried`] state.
    pub fn with_carried(mut self, carried: Carried) -> Self {
        self.cache = carried.cache;
        self.tests_total = carried.tests_total;
        self.rates = carried.rates;
        self.timing = carried.timing;
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
        self.limits.hit(self.tests_total)
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
    /// this one commits nothing: their first candidates are tested ahead
    /// once this one's run out and workers are free.
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
        self.rebase_filter(&self.units.render(&start));
        let start = Arc::new(start);
        let scheduler = self.scheduler_for(policy.clone_box(), Arc::clone(&start));
        let driven = self.drive(scheduler, start, &mut *observer, &mut phase, upcoming);
        if let Some(rates) = driven.ended.rates {
            self.rates = rates;
        }
        if let (Some(ended), StopReason::Finished) = (driven.ended.policy, driven.reason) {
            *policy = ended;
        }
        let config = Arc::unwrap_or_clone(driven.best);
        phase.units_after = config.len();
        phase.seconds = began.elapsed().as_secs_f64();
        observer.on_progress(&phase, &config);
        self.phases.push(phase);
        (config, driven.reason)
    }

    /// The scheduler of a phase of `policy` from `start`: the serial one,
    /// or waves at `--wave`'s width.
    fn scheduler_for(
        &mut self,
        policy: Box<dyn Policy>,
        start: Arc<Configuration>,
    ) -> Box<dyn Scheduler> {
        if self.wave <= 1 {
            return Box::new(Serial::new(policy, start));
        }
        let lenient = self
            .active_filter()
            .is_some_and(|(_, s)| s == Strictness::MissingTokensFree);
        let rates = std::mem::take(&mut self.rates);
        Box::new(Waves::new(
            Cursor::new(policy, start),
            self.wave,
            lenient,
            rates,
        ))
    }

    /// Judges `candidates`, texts from outside the policies (an outside
    /// reducer's, a proposal, an inlined include), in order, as every
    /// candidate is judged (the cache, the syntax filter, the oracle,
    /// `--recheck`), counted in `phase`, and accepts the first that passes
    /// (told to the step log and counted as a success): its text. `Err`
    /// when a limit or a fault stops the run first.
    pub fn first_passing(
        &mut self,
        candidates: Vec<Vec<u8>>,
        phase: &mut PhaseStats,
    ) -> Result<Option<Vec<u8>>, StopReason> {
        if let Some(reason) = self.limit_hit() {
            return Err(reason);
        }
        let none = Arc::new(Configuration::full(0));
        // The caller saves what is found: the observer hears nothing.
        let driven = self.drive(
            Box::new(Outside::new(candidates)),
            none,
            &mut Quiet,
            phase,
            &mut std::iter::empty(),
        );
        match (driven.committed, driven.reason) {
            (Some(found), _) => Ok(Some(Arc::unwrap_or_clone(found))),
            (None, StopReason::Finished) => Ok(None),
            (None, reason) => Err(reason),
        }
    }

    /// What the workers test with, their fault notices going to `notice`
    /// (a copy of the engine's, so that the workers need not borrow it).
    fn tester<'n>(&self, notice: &'n FaultNotice, interrupt: Option<&'n AtomicBool>) -> Tester<'n>
    where
        'a: 'n,
    {
        Tester {
            oracle: self.oracle,
            filter: self.filter.zip(self.filter_strictness),
            patience: self.limits.patience(),
            messages: self.messages.map(|m| (m, notice)),
            interrupt,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::sync::Mutex;

    use super::*;
    use crate::interfaces::{Candidate, Verdict};
    use crate::policy::flat::FlatPolicy;
    use crate::policy::{Minimizer, MinimizerSettings};

    /// An oracle that passes what keeps unit 7 and unit 3, and also what
    /// keeps unit 7 without unit 3, but only the first time it sees it.
    fn flaky(seen: &Mutex<HashSet<Vec<u8>>>) -> impl Fn(&Candidate<'_>) -> Verdict + Sync + '_ {
        |c: &Candidate<'_>| {
            let first = seen.lock().unwrap().insert(c.bytes.to_vec());
            if c.keeps(7) && (c.keeps(3) || first) {
                Verdict::Interesting
            } else {
                Verdict::NotInteresting
            }
        }
    }

    fn ddmin(n: u32) -> Box<dyn Policy> {
        Box::new(FlatPolicy::new(
            Minimizer::DdMin.build(&MinimizerSettings::default()),
            Arc::new(vec![1; n as usize]),
        ))
    }

    #[test]
    fn recheck_commits_only_candidates_that_pass_twice_whatever_the_scheduler() {
        for (jobs, wave) in [(1, 1), (3, 1), (1, 4), (4, 4)] {
            let units = Units::from_pieces(&["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);
            let seen = Mutex::new(HashSet::new());
            let oracle = flaky(&seen);
            let mut engine = Engine::new(&units, &oracle)
                .with_jobs(jobs)
                .with_wave(wave)
                .with_recheck(true);
            let mut policy = ddmin(10);
            let (result, reason) = engine.run(&mut policy, Configuration::full(10), &mut Quiet);
            let what = format!("-j {jobs} --wave {wave}");
            assert_eq!(reason, StopReason::Finished, "{what}");
            assert_eq!(result.kept.iter().collect::<Vec<_>>(), vec![3, 7], "{what}");
            assert!(engine.recheck_failures() > 0, "{what}");
            let phase = &engine.phases[0];
            assert!(
                phase.tests >= phase.successes * 2,
                "{what}: re-tests are counted"
            );
        }
    }

    #[test]
    fn an_outside_candidate_that_passes_once_is_rechecked_and_refused() {
        for jobs in [1, 3] {
            let units = Units::from_pieces(&["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);
            let seen = Mutex::new(HashSet::new());
            // Candidates of no units: the oracle's `keeps` is false for
            // every unit, so make it judge text instead.
            let oracle = |c: &Candidate<'_>| {
                let first = seen.lock().unwrap().insert(c.bytes.to_vec());
                let text = String::from_utf8_lossy(c.bytes);
                if text.contains("KEEP") || (text == "X" && first) {
                    Verdict::Interesting
                } else {
                    Verdict::NotInteresting
                }
            };
            let mut engine = Engine::new(&units, &oracle)
                .with_jobs(jobs)
                .with_recheck(true);
            let mut phase = PhaseStats::new("propose-with");
            let candidates = vec![
                b"X".to_vec(),
                b"a".to_vec(),
                b"KEEP".to_vec(),
                b"KEEP2".to_vec(),
            ];
            let found = engine.first_passing(candidates, &mut phase);
            assert_eq!(found, Ok(Some(b"KEEP".to_vec())), "-j {jobs}");
            assert_eq!(engine.recheck_failures(), 1, "-j {jobs}");
            assert_eq!(phase.successes, 1, "-j {jobs}");
        }
    }

    #[test]
    fn outside_candidates_are_judged_in_order_and_the_first_that_passes_wins() {
        let units = Units::from_pieces(&["a"]);
        let oracle = |c: &Candidate<'_>| {
            if c.bytes.len() >= 3 {
                Verdict::Interesting
            } else {
                Verdict::NotInteresting
            }
        };
        for jobs in [1, 2, 4] {
            let mut engine = Engine::new(&units, &oracle).with_jobs(jobs);
            let mut phase = PhaseStats::new("reduce-with");
            let candidates = [&b"x"[..], b"yy", b"zzz", b"wwww", b"vvvvv"].map(<[u8]>::to_vec);
            let found = engine.first_passing(candidates.to_vec(), &mut phase);
            assert_eq!(found, Ok(Some(b"zzz".to_vec())), "-j {jobs}");
            assert!(phase.tests >= 3, "-j {jobs}");
            let none = engine.first_passing(vec![b"q".to_vec()], &mut phase);
            assert_eq!(none, Ok(None), "-j {jobs}");
        }
    }

    #[test]
    fn a_candidate_asked_twice_while_its_test_runs_is_tested_once() {
        // Waves of one list, tested ahead on guesses: copies of the
        // scheduler ask for candidates already in flight; every text is
        // counted once at most, however many ask for it.
        let pieces: Vec<String> = (0..32).map(|i| format!("{i} ")).collect();
        let units = Units::from_pieces(&pieces.iter().map(String::as_str).collect::<Vec<_>>());
        let tested = Mutex::new(Vec::new());
        let oracle = |c: &Candidate<'_>| {
            tested.lock().unwrap().push(c.bytes.to_vec());
            std::thread::sleep(std::time::Duration::from_millis(2));
            if c.keeps(5) && c.keeps(20) {
                Verdict::Interesting
            } else {
                Verdict::NotInteresting
            }
        };
        let mut engine = Engine::new(&units, &oracle).with_jobs(4).with_wave(4);
        let mut policy = ddmin(32);
        let (result, _) = engine.run(&mut policy, Configuration::full(32), &mut Quiet);
        assert_eq!(result.kept.iter().collect::<Vec<_>>(), vec![5, 20]);
        let counted = engine.tests_total() as usize;
        drop(engine);
        // Tests cancelled on a wrong guess may run again later (this
        // oracle does not stop when cancelled); tests counted never do.
        let tested = tested.into_inner().unwrap();
        let distinct: HashSet<&Vec<u8>> = tested.iter().collect();
        assert!(
            counted <= distinct.len(),
            "{counted} tests counted for {} texts",
            distinct.len()
        );
    }
}
