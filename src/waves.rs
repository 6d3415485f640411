//! Waves (`--wave W`): what the loop tests when many workers are at hand,
//! and how it merges what they find.
//!
//! The serial loop takes one success at a time: after a success, every
//! proposal tested ahead on the guess that it would fail was made from the
//! wrong base. Where successes are common that wastes most of the workers.
//! A *wave* is up to `W` proposals from one base that the policy says are
//! independent of one another ([`Policy::next_wave`](crate::policy::Policy::next_wave):
//! disjoint deletions from one list, the chunks of one bulk level). All are
//! tested; the ones that pass are merged: their union is tested (as the
//! policy combines them, [`Policy::merge`](crate::policy::Policy::merge)),
//! and if it fails the passing proposals not yet merged are split by
//! binary search (every halving of them tested at once, the largest that
//! passes taken; when not even one more passes with what is merged, that
//! one is left out), and the merge is committed
//! ([`Policy::on_merged`](crate::policy::Policy::on_merged)).
//!
//! Where successes are rare, testing ahead along the serial loop's path
//! of failures pays more: a *chain* of up to `W` candidates, each what the
//! serial loop would test next if the ones before it failed, across list
//! levels and passes; the first that passes is committed, as the serial
//! loop would. Which of the two a round is depends on what the run has
//! seen ([`Outcomes`]): a wave when the policy offers at least two
//! independent proposals and either they fill half the width or the
//! share of recent candidates that passed says one of them should pass.
//!
//! Determinism: a round's candidates depend only on the best so far and
//! on the verdicts before (the outcomes counted are the settled ones, in
//! the order the round defines), never on timing or on how many workers
//! test them; so `-j 1 --wave W` commits what `-j 64 --wave W` commits. The
//! width itself changes what is committed, so it is a setting of its own.
//! Nothing here starts a process, runs the oracle or reads the cache: the
//! loop (`reducer.rs`) does, and hands this the verdicts.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::configuration::Configuration;
use crate::interfaces::CancelSignal;
use crate::policy::Policy;
use crate::speculation::{Cursor, Job, Wave};

/// How many settled verdicts [`Outcomes`] remembers.
const MEMORY: usize = 64;

/// The verdicts of the run's last settled candidates (cache hits and
/// syntax rejections too, so that a resumed run, which finds its tests in
/// the cache, decides as the run it resumes did).
#[derive(Clone, Debug, Default)]
pub struct Outcomes {
    recent: VecDeque<bool>,
}

impl Outcomes {
    fn record(&mut self, passed: bool) {
        if self.recent.len() == MEMORY {
            self.recent.pop_front();
        }
        self.recent.push_back(passed);
    }

    /// The share of recent candidates that passed, with one pass and one
    /// failure assumed (one half before anything is known).
    fn pass_share(&self) -> f64 {
        let passed = self.recent.iter().filter(|p| **p).count();
        (passed as f64 + 1.0) / (self.recent.len() as f64 + 2.0)
    }

    /// Whether `k` (at least 2) independent proposals are worth a wave at
    /// width `width` rather than a chain: they fill half the width, or one
    /// of them is expected to pass.
    fn favours_wave(&self, k: usize, width: usize) -> bool {
        2 * k >= width || k as f64 * self.pass_share() >= 1.0
    }

    /// How long a chain to test at once: about twice as many candidates as
    /// it takes for one to pass, at most `width`. (A chain commits what
    /// the serial loop does whatever its length; only the tests started
    /// after a pass, wasted, depend on it.)
    fn chain_length(&self, width: usize) -> usize {
        ((2.0 / self.pass_share()).ceil() as usize).clamp(1, width)
    }
}

/// What the loop tests next.
pub enum Round {
    /// The phase is over: the policy, as the serial loop leaves it.
    Over(Box<dyn Policy>),
    /// Candidates along the serial loop's path of failures: test them in
    /// order; the first that passes ends the round.
    Chain(Chain),
    /// Independent candidates from one base: test them all.
    Wave(WaveRound),
}

/// A chain of candidates, each with the serial loop's state right after it.
pub struct Chain {
    pub candidates: Vec<Arc<Configuration>>,
    snapshots: Vec<Cursor>,
}

/// A wave, with the serial loop's state after its last proposal.
pub struct WaveRound {
    wave: Wave,
    cursor: Cursor,
}

impl WaveRound {
    /// The candidates to test, those that change something: their indices
    /// in the wave, and the candidates.
    pub fn candidates(&self) -> (Vec<usize>, Vec<Arc<Configuration>>) {
        self.wave
            .candidates
            .iter()
            .enumerate()
            .filter_map(|(i, c)| Some((i, Arc::new(c.clone()?))))
            .unzip()
    }
}

/// A merge in progress (see the module documentation).
pub struct Merging {
    round: WaveRound,
    /// Whether each proposal of the wave passed alone.
    passed: Vec<bool>,
    /// The proposals merged so far (all passed), and their candidate,
    /// known to pass.
    merged: Vec<bool>,
    best: Arc<Configuration>,
    /// Proposals that passed alone and are not merged yet, in order.
    rest: Vec<usize>,
    /// What the last tries were: the union with all of `rest` (`None`),
    /// or with each of these prefixes of it.
    tried: Option<Vec<usize>>,
}

impl Merging {
    /// The candidates to test next (each `merged` with a prefix of `rest`),
    /// none when the merge is done.
    pub fn tries(&mut self) -> Vec<Arc<Configuration>> {
        if self.rest.is_empty() {
            return Vec::new();
        }
        let sizes = match &self.tried {
            // The union failed: every halving of the rest at once.
            Some(_) => {
                let mut sizes = Vec::new();
                let mut size = self.rest.len();
                while size > 1 {
                    size = size.div_ceil(2);
                    sizes.push(size);
                }
                sizes
            }
            None => vec![self.rest.len()],
        };
        let tries = sizes.iter().map(|&s| self.with_rest(s)).collect();
        self.tried = Some(sizes);
        tries
    }

    /// The candidate merging `merged` and `rest[..take]`.
    fn with_rest(&self, take: usize) -> Arc<Configuration> {
        let mut chosen = self.merged.clone();
        for &i in &self.rest[..take] {
            chosen[i] = true;
        }
        let merged = self.round.cursor.merged(&self.round.wave, &chosen);
        Arc::new(merged.unwrap_or_else(|| (*self.best).clone()))
    }

    /// Takes the verdicts of the last [`Self::tries`], in order: the
    /// largest prefix of the rest that passed with what is merged joins
    /// it; after a failed union the halvings come next; when none of them
    /// passed, not even one more proposal, that one is left out.
    pub fn take(&mut self, tries: Vec<Arc<Configuration>>, verdicts: &[Option<bool>]) {
        let sizes = self.tried.clone().unwrap_or_default();
        let passed = sizes
            .iter()
            .zip(tries)
            .zip(verdicts)
            .filter(|(_, v)| **v == Some(true))
            .map(|((&size, candidate), _)| (size, candidate))
            .max_by_key(|(size, _)| *size);
        let union = sizes.len() == 1 && sizes[0] == self.rest.len();
        match passed {
            Some((size, candidate)) => {
                for i in self.rest.drain(..size) {
                    self.merged[i] = true;
                }
                self.best = candidate;
                self.tried = None;
            }
            // The union failed: on to the halvings, if there are any.
            None if union && self.rest.len() > 1 => {}
            None => {
                self.rest.remove(0);
                self.tried = None;
            }
        }
    }

    /// How many proposals the merge holds.
    pub fn size(&self) -> usize {
        self.merged.iter().filter(|m| **m).count()
    }
}

/// The rounds of one phase: the serial loop's state between them.
pub struct Waves {
    width: usize,
    settled: Cursor,
}

impl Waves {
    /// A phase about to start from `cursor`, with waves up to `width` wide.
    pub fn new(cursor: Cursor, width: usize) -> Self {
        Waves {
            width: width.max(2),
            settled: cursor,
        }
    }

    /// The best so far, which the next round's candidates are made from.
    pub fn base(&self) -> &Configuration {
        self.settled.base()
    }

    /// The next round: a wave if the policy offers one and `outcomes` say
    /// it pays, else a chain.
    pub fn next_round(&mut self, outcomes: &Outcomes) -> Round {
        let mut probe = self.settled.clone();
        let Some(wave) = probe.next_wave(self.width) else {
            return Round::Over(probe.into_policy());
        };
        let testable = wave.candidates.iter().filter(|c| c.is_some()).count();
        if testable >= 2 && outcomes.favours_wave(testable, self.width) {
            return Round::Wave(WaveRound {
                wave,
                cursor: probe,
            });
        }
        let mut cursor = self.settled.clone();
        let (mut candidates, mut snapshots) = (Vec::new(), Vec::new());
        for _ in 0..outcomes.chain_length(self.width) {
            let Some(candidate) = cursor.next_candidate() else {
                break;
            };
            candidates.push(Arc::new(candidate));
            snapshots.push(cursor.clone());
        }
        if candidates.is_empty() {
            return Round::Over(cursor.into_policy());
        }
        Round::Chain(Chain {
            candidates,
            snapshots,
        })
    }

    /// Settles a chain by its verdicts (known up to its first pass, if
    /// any): the candidate committed, if one passed.
    pub fn settle_chain(
        &mut self,
        chain: Chain,
        verdicts: &[Option<bool>],
        outcomes: &mut Outcomes,
    ) -> Option<Arc<Configuration>> {
        let Chain {
            candidates,
            mut snapshots,
        } = chain;
        for (i, verdict) in verdicts.iter().enumerate() {
            let passed = verdict.expect("a chain's verdicts are known up to its first pass");
            outcomes.record(passed);
            if passed {
                let mut cursor = snapshots.swap_remove(i);
                cursor.commit(Arc::clone(&candidates[i]));
                self.settled = cursor;
                return Some(Arc::clone(&candidates[i]));
            }
        }
        self.settled = snapshots.pop().expect("a chain holds a candidate");
        None
    }

    /// Takes a wave's verdicts (in the order of
    /// [`WaveRound::candidates`]'s indices); a merge to run when any
    /// passed, else the policy goes on as after their failures.
    pub fn start_merge(
        &mut self,
        round: WaveRound,
        tested: &[usize],
        verdicts: &[Option<bool>],
        outcomes: &mut Outcomes,
    ) -> Option<Merging> {
        let mut passed = vec![false; round.wave.proposals.len()];
        for (&i, verdict) in tested.iter().zip(verdicts) {
            let verdict = verdict.expect("a wave's verdicts are all known");
            outcomes.record(verdict);
            passed[i] = verdict;
        }
        let Some(first) = passed.iter().position(|p| *p) else {
            self.settled = round.cursor;
            return None;
        };
        let mut merged = vec![false; passed.len()];
        merged[first] = true;
        let best = Arc::new(
            round.wave.candidates[first]
                .clone()
                .expect("a candidate that passed changes something"),
        );
        let rest = (first + 1..passed.len()).filter(|&i| passed[i]).collect();
        Some(Merging {
            round,
            passed,
            merged,
            best,
            rest,
            tried: None,
        })
    }

    /// Commits a finished merge: the policy hears of it, and its
    /// candidate, returned, is the new base.
    pub fn commit_merge(&mut self, merging: Merging) -> Arc<Configuration> {
        let Merging {
            round,
            passed,
            merged,
            best,
            ..
        } = merging;
        let mut cursor = round.cursor;
        cursor.commit_merged(&passed, &merged, Arc::clone(&best));
        self.settled = cursor;
        best
    }
}

/// The tests of one round's candidates (or one merge step's), as the loop
/// runs them: each candidate's bytes and cache key, its verdict once known
/// (from the cache, or a test), its test while one runs. Candidates with
/// the same bytes are tested once. Tests start in the candidates' order,
/// as workers free up; with `until_pass` (a chain) none starts after a
/// candidate known to pass, and one running after the first pass is
/// cancelled, so the verdicts known up to the first pass are those the
/// serial loop would see, however many workers there are.
pub struct Batch {
    entries: Vec<Entry>,
    until_pass: bool,
}

struct Entry {
    candidate: Arc<Configuration>,
    bytes: Arc<Vec<u8>>,
    key: u128,
    /// An earlier entry with the same bytes, whose verdict this shares.
    same_as: Option<usize>,
    verdict: Option<bool>,
    /// Its test while one runs: the job's slot and cancel signal.
    running: Option<(u64, Arc<CancelSignal>)>,
    /// Passed its first test and is being tested again (recheck).
    confirming: bool,
}

impl Batch {
    pub fn new(until_pass: bool) -> Self {
        Batch {
            entries: Vec::new(),
            until_pass,
        }
    }

    /// Adds a candidate, its bytes and key, and its verdict if the cache
    /// knew it.
    pub fn add(&mut self, candidate: Arc<Configuration>, bytes: Vec<u8>, key: u128, known: Option<bool>) {
        let same_as = self.entries.iter().position(|e| e.key == key && e.same_as.is_none());
        let verdict = known.or_else(|| same_as.and_then(|i| self.entries[i].verdict));
        self.entries.push(Entry {
            candidate,
            bytes: Arc::new(bytes),
            key,
            same_as,
            verdict,
            running: None,
            confirming: false,
        });
    }

    /// The first entry known to pass, if every entry before it is known.
    fn first_pass(&self) -> Option<usize> {
        for (i, e) in self.entries.iter().enumerate() {
            match e.verdict {
                Some(true) => return Some(i),
                Some(false) => {}
                None => return None,
            }
        }
        None
    }

    /// Whether every verdict the round needs is known.
    pub fn is_done(&self) -> bool {
        if self.until_pass && self.first_pass().is_some() {
            return true;
        }
        self.entries.iter().all(|e| e.verdict.is_some())
    }

    /// The verdicts, in order (with `until_pass`, none after the first pass).
    pub fn verdicts(&self) -> Vec<Option<bool>> {
        let end = match self.first_pass() {
            Some(at) if self.until_pass => at + 1,
            _ => self.entries.len(),
        };
        let mut verdicts: Vec<_> = self.entries.iter().map(|e| e.verdict).collect();
        verdicts[end..].fill(None);
        verdicts
    }

    /// Tests running.
    fn running(&self) -> usize {
        self.entries.iter().filter(|e| e.running.is_some()).count()
    }

    /// The next tests to start, in order, while fewer than `room` run;
    /// `parent` is the text the candidates were proposed from, when the
    /// filter needs it, `next_slot` numbers the jobs.
    pub fn next_jobs(
        &mut self,
        room: usize,
        parent: Option<&Arc<Vec<u8>>>,
        next_slot: &mut u64,
    ) -> Vec<Job> {
        let mut free = room.saturating_sub(self.running());
        let mut jobs = Vec::new();
        for e in &mut self.entries {
            if free == 0 || (self.until_pass && e.verdict == Some(true)) {
                break;
            }
            if e.verdict.is_some() || e.running.is_some() || e.same_as.is_some() {
                continue;
            }
            jobs.push(start(e, parent.cloned(), next_slot));
            free -= 1;
        }
        jobs
    }

    /// The entry whose test runs in `slot`, if it is still wanted.
    pub fn entry_of(&self, slot: u64) -> Option<usize> {
        self.entries
            .iter()
            .position(|e| e.running.as_ref().is_some_and(|r| r.0 == slot))
    }

    pub fn key(&self, at: usize) -> u128 {
        self.entries[at].key
    }

    /// Whether the entry's test was its re-test (recheck).
    pub fn is_confirming(&self, at: usize) -> bool {
        self.entries[at].confirming
    }

    /// The entry passed its first test and is tested again (recheck).
    pub fn retest(&mut self, at: usize, parent: Option<&Arc<Vec<u8>>>, next_slot: &mut u64) -> Job {
        let e = &mut self.entries[at];
        e.confirming = true;
        start(e, parent.cloned(), next_slot)
    }

    /// The entry's verdict (and its duplicates'); with `until_pass`, a pass
    /// cancels the tests running after it, which count as wasted.
    pub fn set(&mut self, at: usize, verdict: bool, wasted: &mut u64) {
        for (i, e) in self.entries.iter_mut().enumerate() {
            if i == at || e.same_as == Some(at) {
                e.verdict = Some(verdict);
                e.running = None;
            }
        }
        if self.until_pass
            && let Some(first) = self.first_pass()
        {
            self.cancel_from(first + 1, wasted);
        }
    }

    /// Cancels every test still running, from entry `from` on.
    pub fn cancel_from(&mut self, from: usize, wasted: &mut u64) {
        for e in self.entries.iter_mut().skip(from) {
            if let Some((_, cancel)) = e.running.take() {
                cancel.cancel();
                *wasted += 1;
            }
        }
    }
}

/// Starts a test of `e`: its job, numbered from `next_slot`.
fn start(e: &mut Entry, parent: Option<Arc<Vec<u8>>>, next_slot: &mut u64) -> Job {
    let cancel = Arc::new(CancelSignal::new());
    let slot = *next_slot;
    *next_slot += 1;
    e.running = Some((slot, Arc::clone(&cancel)));
    Job {
        slot,
        candidate: Arc::clone(&e.candidate),
        bytes: Arc::clone(&e.bytes),
        parent,
        cancel,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::flat::FlatPolicy;
    use crate::policy::{Minimizer, MinimizerSettings};

    fn kept(config: &Configuration) -> Vec<u32> {
        config.kept.iter().collect()
    }

    /// Runs rounds of Dr. DD over `n` units to the end, judging every
    /// candidate by `interesting`; returns the result and the rounds
    /// that were waves.
    fn run(
        n: u32,
        width: usize,
        interesting: impl Fn(&Configuration) -> bool,
    ) -> (Vec<u32>, usize) {
        let minimizer = Minimizer::DrDd.build(&MinimizerSettings::default());
        let policy = Box::new(FlatPolicy::new(minimizer, Arc::new(vec![1; n as usize])));
        let cursor = Cursor::new(policy, Arc::new(Configuration::full(n)));
        let mut waves = Waves::new(cursor, width);
        let mut outcomes = Outcomes::default();
        let mut best = Configuration::full(n);
        let mut wave_rounds = 0;
        let judge = |cs: &[Arc<Configuration>]| -> Vec<Option<bool>> {
            cs.iter().map(|c| Some(interesting(c))).collect()
        };
        loop {
            match waves.next_round(&outcomes) {
                Round::Over(_) => return (kept(&best), wave_rounds),
                Round::Chain(chain) => {
                    let mut verdicts = judge(&chain.candidates);
                    if let Some(at) = verdicts.iter().position(|v| *v == Some(true)) {
                        verdicts.truncate(at + 1);
                    }
                    if let Some(c) = waves.settle_chain(chain, &verdicts, &mut outcomes) {
                        best = (*c).clone();
                    }
                }
                Round::Wave(round) => {
                    wave_rounds += 1;
                    let (tested, candidates) = round.candidates();
                    let verdicts = judge(&candidates);
                    let Some(mut merging) =
                        waves.start_merge(round, &tested, &verdicts, &mut outcomes)
                    else {
                        continue;
                    };
                    loop {
                        let tries = merging.tries();
                        if tries.is_empty() {
                            break;
                        }
                        let verdicts = judge(&tries);
                        merging.take(tries, &verdicts);
                    }
                    let c = waves.commit_merge(merging);
                    assert!(interesting(&c), "a merge that failed was committed");
                    best = (*c).clone();
                }
            }
        }
    }

    #[test]
    fn waves_of_drdd_reach_the_needed_units() {
        let needed = [3, 17, 18, 40];
        let keeps = |c: &Configuration| needed.iter().all(|&u| c.contains(u));
        let (result, wave_rounds) = run(64, 16, keeps);
        assert_eq!(result, needed);
        assert!(wave_rounds > 0);
    }

    #[test]
    fn a_union_that_fails_is_split_and_the_conflicting_deletion_left_out() {
        // Unit 9 or unit 10 must stay, and units 3 and 50: deleting 9
        // and 10 pass alone, together they fail.
        let keeps = |c: &Configuration| {
            (c.contains(9) || c.contains(10)) && c.contains(3) && c.contains(50)
        };
        let (result, wave_rounds) = run(64, 64, keeps);
        assert_eq!(result.len(), 3, "{result:?}");
        assert!(result.contains(&3) && result.contains(&50));
        assert!(wave_rounds > 0);
    }
}
