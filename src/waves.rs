//! Waves (`--wave W`): what the loop tests when many workers are at hand,
//! and how it merges what they find.
//!
//! The serial loop takes one success at a time: after a success, every
//! proposal tested ahead on the guess that it would fail was made from the
//! wrong base. Where successes are common that wastes most of the workers.
//! A *wave* is up to `W` proposals from one base that the policy says are
//! independent of one another ([`Policy::next_wave`]:
//! disjoint deletions from one list, the chunks of one bulk level). All are
//! tested; the ones that pass are merged: their union is tested (as the
//! policy combines them, [`Policy::merge`]),
//! and if it fails, what is merged so far is tried with *splits* of the
//! passing proposals not yet merged, all at once: every shorter prefix,
//! and, where the width has room for both, all of them but one, for each
//! one; the split that passes holding the most joins the merge, and when
//! none does the first of them is left out (where recent unions failed,
//! the splits are tested along with the union, so that a failed union
//! costs no extra round). The merge is committed ([`Policy::on_merged`]).
//! Along with the union goes what follows it if it passes
//! ([`Ahead`]): the next wave, made for the room the union leaves, whose
//! verdicts are then that wave's, so that a run of waves whose unions
//! pass takes one round per wave; or the first candidates of the chain
//! that follows, for the cache.
//!
//! Where successes are rare, testing ahead along the serial loop's path
//! of failures pays more: a *chain* of up to `W` candidates, each what the
//! serial loop would test next if the ones before it failed, across list
//! levels; the first that passes is committed, as the serial loop would.
//! When the phase's own candidates run out, the next phases' first
//! candidates are tested ahead ([`Prefetch`]) so that the workers stay busy
//! at a phase's end; their verdicts only fill the cache, which answers the
//! next phase's proposals, so they change no result.
//! Which of the two a round is depends on what the run has
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
    /// Whether the last merges' unions passed.
    unions: VecDeque<bool>,
}

/// How many merges' unions [`Outcomes`] remembers.
const UNIONS: usize = 8;

impl Outcomes {
    fn record_union(&mut self, passed: bool) {
        if self.unions.len() == UNIONS {
            self.unions.pop_front();
        }
        self.unions.push_back(passed);
    }

    /// Whether at least a third of the recent unions failed: a merge then
    /// tests the prefixes of what passed along with the union, so that
    /// one that fails costs no round more.
    fn unions_fail(&self) -> bool {
        let failed = self.unions.iter().filter(|p| !**p).count();
        3 * failed >= self.unions.len().max(1)
    }

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

    /// How long a chain to test at once: about four times as many
    /// candidates as it takes for one to pass, and at least a quarter of
    /// the width, at most all of it. (A chain commits what the serial loop
    /// does whatever its length; only the tests started after a pass,
    /// wasted, depend on it.)
    fn chain_length(&self, width: usize) -> usize {
        let per_pass = (4.0 / self.pass_share()).ceil() as usize;
        per_pass.max(width / 4).clamp(1, width)
    }
}

/// What the loop tests next.
pub enum Round {
    /// The phase is over: the policy, as the serial loop leaves it.
    Over(Box<dyn Policy>),
    /// Candidates along the serial loop's path of failures, tested ahead
    /// (`speculation.rs`, without guesses of passes) with up to `length`
    /// tests at once, until the first that passes is committed.
    Chain { length: usize },
    /// Independent candidates from one base: test them all.
    Wave(WaveRound),
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

/// What is tested along with a merge's union, on the guess that it
/// passes ([`Merging::after_union`]).
pub enum Ahead {
    /// The wave the round after the merge is, if the union passes: its
    /// tests are the ones made along with the union.
    Wave(WaveRound),
    /// The first candidates of the chain after the merge: their verdicts
    /// only fill the cache.
    Tests(Vec<Arc<Configuration>>),
}

/// A wave whose candidates were tested along with the union before it,
/// and their verdicts (in the order of [`WaveRound::candidates`]).
pub type TestedWave = (WaveRound, Vec<Option<bool>>);

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
    stage: Stage,
    /// How many tests a round may hold (the wave width).
    width: usize,
    union_passed: bool,
    /// The proposals each of the last tries holds (the policy may leave
    /// some of those asked for out).
    tried: Vec<Vec<bool>>,
}

/// Where a merge is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// The union of all that passed is tested next, with the splits of
    /// the rest besides when `with_splits`.
    Union {
        with_splits: bool,
    },
    /// The union failed: the splits of the rest are tested next.
    Splits,
    Done,
}

impl Merging {
    /// The candidates to test next, none when the merge is done: the
    /// union, or what is merged with each split of the rest.
    pub fn tries(&mut self) -> Vec<Arc<Configuration>> {
        let r = self.rest.len();
        let subsets: Vec<Vec<usize>> = match self.stage {
            _ if r == 0 => Vec::new(),
            Stage::Union { with_splits } => {
                let splits = if with_splits {
                    self.splits()
                } else {
                    Vec::new()
                };
                std::iter::once((0..r).collect()).chain(splits).collect()
            }
            Stage::Splits => self.splits(),
            Stage::Done => Vec::new(),
        };
        let (tried, tries) = subsets.iter().map(|s| self.with_rest(s)).unzip();
        self.tried = tried;
        tries
    }

    /// The parts of the rest worth trying when their union fails (as
    /// indices into it): every shorter prefix, and, where the round has
    /// room for both, the rest without each one of it (one deletion that
    /// conflicts with the others then costs the merge only itself).
    fn splits(&self) -> Vec<Vec<usize>> {
        let r = self.rest.len();
        let prefixes = (1..r).map(|take| (0..take).collect());
        let leave_one_out = (0..r.saturating_sub(1))
            .filter(|_| 2 * r - 1 <= self.width)
            .map(|out| (0..r).filter(|&i| i != out).collect());
        prefixes.chain(leave_one_out).collect()
    }

    /// The candidate merging `merged` and the rest at `subset`, and the
    /// proposals it holds.
    fn with_rest(&self, subset: &[usize]) -> (Vec<bool>, Arc<Configuration>) {
        let mut chosen = self.merged.clone();
        for &i in subset {
            chosen[self.rest[i]] = true;
        }
        let merged = self.round.cursor.merged(&self.round.wave, &mut chosen);
        (
            chosen,
            Arc::new(merged.unwrap_or_else(|| (*self.best).clone())),
        )
    }

    /// Takes the verdicts of the last [`Self::tries`], in order: a union
    /// that passed merges the rest; else the split that passed holding
    /// the most proposals is merged (none: the first pass stays alone),
    /// once the splits are known, and the merge is done.
    pub fn take(
        &mut self,
        tries: Vec<Arc<Configuration>>,
        verdicts: &[Option<bool>],
        outcomes: &mut Outcomes,
    ) {
        let mut tries = tries.into_iter().zip(verdicts);
        // Where the splits' tries start among the last tries.
        let splits_from = match self.stage {
            Stage::Union { with_splits } => {
                let (union, verdict) = tries.next().expect("the union was tried");
                let passed = *verdict == Some(true);
                outcomes.record_union(passed);
                if passed {
                    self.union_passed = true;
                    self.take_try(0, union);
                    return;
                }
                if !with_splits && self.rest.len() > 1 {
                    self.stage = Stage::Splits;
                    return;
                }
                1
            }
            Stage::Splits => 0,
            Stage::Done => return,
        };
        let holds = |at: usize| self.tried[at].iter().filter(|c| **c).count();
        let largest = tries
            .enumerate()
            .filter(|(_, (_, verdict))| **verdict == Some(true))
            .map(|(at, (candidate, _))| (splits_from + at, candidate))
            .rev()
            .max_by_key(|(at, _)| holds(*at));
        match largest {
            Some((at, candidate)) => self.take_try(at, candidate),
            None => self.stage = Stage::Done,
        }
    }

    /// The merge is the `at`th try, `candidate`; done.
    fn take_try(&mut self, at: usize, candidate: Arc<Configuration>) {
        self.merged = std::mem::take(&mut self.tried[at]);
        self.best = candidate;
        self.rest.clear();
        self.stage = Stage::Done;
    }

    /// What to test along with the union about to be tried (the first
    /// of `tries`, the last [`Self::tries`]), on the guess that it passes
    /// (it is then committed whole), in the `room` the round has left:
    /// the wave that follows the merge, made for that room, or the first
    /// candidates of the chain that follows it. Nothing unless the union
    /// is what is tried next.
    pub fn after_union(
        &self,
        tries: &[Arc<Configuration>],
        outcomes: &Outcomes,
        room: usize,
    ) -> Ahead {
        let union_next = matches!(self.stage, Stage::Union { .. }) && !self.rest.is_empty();
        let (Some(union), Some(chosen)) = (tries.first(), self.tried.first()) else {
            return Ahead::Tests(Vec::new());
        };
        if !union_next || room < 2 {
            return Ahead::Tests(Vec::new());
        }
        let mut cursor = self.round.cursor.clone();
        cursor.commit_merged(&self.passed, chosen, Arc::clone(union));
        let mut outcomes = outcomes.clone();
        outcomes.record_union(true);
        match next_round(&cursor, room, &outcomes) {
            Round::Over(_) => Ahead::Tests(Vec::new()),
            Round::Wave(wave) => Ahead::Wave(wave),
            Round::Chain { length } => Ahead::Tests(
                std::iter::from_fn(|| cursor.next_candidate())
                    .take(length.min(room))
                    .map(Arc::new)
                    .collect(),
            ),
        }
    }

    /// Whether the merge is the union of all that passed, tested whole.
    pub fn union_passed(&self) -> bool {
        self.union_passed
    }

    /// How many proposals the merge holds.
    pub fn size(&self) -> usize {
        self.merged.iter().filter(|m| **m).count()
    }
}

/// The next round from `cursor`, the serial loop's state (the best so
/// far, as its base), at width `width` (at least 2): a wave if the policy
/// offers one and `outcomes` say it pays, else a chain.
pub fn next_round(cursor: &Cursor, width: usize, outcomes: &Outcomes) -> Round {
    let mut probe = cursor.clone();
    let Some(wave) = probe.next_wave(width) else {
        return Round::Over(probe.into_policy());
    };
    let testable = wave.candidates.iter().filter(|c| c.is_some()).count();
    if testable >= 2 && outcomes.favours_wave(testable, width) {
        return Round::Wave(WaveRound {
            wave,
            cursor: probe,
        });
    }
    Round::Chain {
        length: outcomes.chain_length(width),
    }
}

/// Counts the verdicts a chain settled, in order.
pub fn settled(outcomes: &mut Outcomes, verdicts: impl IntoIterator<Item = bool>) {
    for passed in verdicts {
        outcomes.record(passed);
    }
}

/// Takes a wave's verdicts (in the order of [`WaveRound::candidates`]'s
/// indices): a merge to run when any passed, else the serial loop's state
/// after their failures.
pub fn start_merge(
    round: WaveRound,
    width: usize,
    tested: &[usize],
    verdicts: &[Option<bool>],
    outcomes: &mut Outcomes,
) -> Result<Merging, Cursor> {
    let mut passed = vec![false; round.wave.proposals.len()];
    for (&i, verdict) in tested.iter().zip(verdicts) {
        let verdict = verdict.expect("a wave's verdicts are all known");
        outcomes.record(verdict);
        passed[i] = verdict;
    }
    let Some(first) = passed.iter().position(|p| *p) else {
        return Err(round.cursor);
    };
    let mut merged = vec![false; passed.len()];
    merged[first] = true;
    let best = Arc::new(
        round.wave.candidates[first]
            .clone()
            .expect("a candidate that passed changes something"),
    );
    let rest = (first + 1..passed.len()).filter(|&i| passed[i]).collect();
    Ok(Merging {
        round,
        passed,
        merged,
        best,
        rest,
        stage: Stage::Union {
            with_splits: outcomes.unions_fail(),
        },
        width,
        union_passed: false,
        tried: Vec::new(),
    })
}

/// Commits a finished merge: the policy hears of it; the serial loop's
/// state after it, and its candidate, the new base.
pub fn commit_merge(merging: Merging) -> (Cursor, Arc<Configuration>) {
    let Merging {
        round,
        passed,
        merged,
        best,
        ..
    } = merging;
    let mut cursor = round.cursor;
    cursor.commit_merged(&passed, &merged, Arc::clone(&best));
    (cursor, best)
}

/// The next phases' first candidates, tested ahead while a chain's own
/// path of failures has run out: if every test outstanding fails, the
/// phase ends and the next one starts from the same base with these
/// candidates, so their verdicts, cached, spare it a round. A candidate
/// that passes ends the tests ahead (what follows it would be proposed
/// from another base). Nothing is committed from here: the cache only
/// answers what the tests would.
pub struct Prefetch {
    base: Arc<Configuration>,
    /// The phase whose candidates come next (`None` before the first).
    cursor: Option<Cursor>,
    /// No more candidates: the phases ran out, or one passed.
    over: bool,
    pub batch: Batch,
}

impl Prefetch {
    /// Tests ahead of the phases after the one at `base`.
    pub fn new(base: Arc<Configuration>) -> Self {
        Prefetch {
            base,
            cursor: None,
            over: false,
            batch: Batch::new(true),
        }
    }

    /// The next candidate to test ahead, from the current phase's policy,
    /// or the next one `upcoming` gives; `None` when there is none.
    pub fn next_candidate(
        &mut self,
        upcoming: &mut dyn Iterator<Item = Box<dyn Policy>>,
    ) -> Option<Arc<Configuration>> {
        while !self.over && !self.batch.knows_a_pass() {
            if let Some(candidate) = self.cursor.as_mut().and_then(Cursor::next_candidate) {
                return Some(Arc::new(candidate));
            }
            match upcoming.next() {
                Some(policy) => self.cursor = Some(Cursor::new(policy, Arc::clone(&self.base))),
                None => self.over = true,
            }
        }
        None
    }

    /// The text the candidates are proposed from.
    pub fn base(&self) -> &Configuration {
        &self.base
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
    pub fn add(
        &mut self,
        candidate: Arc<Configuration>,
        bytes: Vec<u8>,
        key: u128,
        known: Option<bool>,
    ) {
        let same_as = self
            .entries
            .iter()
            .position(|e| e.key == key && e.same_as.is_none());
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

    /// Whether a candidate is known to pass.
    pub fn knows_a_pass(&self) -> bool {
        self.entries.iter().any(|e| e.verdict == Some(true))
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
    pub fn running(&self) -> usize {
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

    type Judge<'a> = dyn Fn(&[Arc<Configuration>]) -> Vec<Option<bool>> + 'a;

    /// What [`run`] saw.
    struct Run {
        result: Vec<u32>,
        /// Rounds that were waves.
        wave_rounds: usize,
        /// Merges that took more than one round of tries.
        long_merges: usize,
        /// Merges whose union failed, and those of them that left out
        /// only one of the proposals that passed.
        split_merges: usize,
        left_one_out: usize,
        /// Waves whose tests were made along with the union before them.
        waves_ahead: usize,
        /// Merges whose union passed and was followed by a chain whose
        /// first candidates were found to be those tested ahead with it.
        chains_ahead: usize,
    }

    /// Runs rounds of Dr. DD over `n` units to the end, judging every
    /// candidate by `interesting`, as the loop of waves does (a chain as
    /// the serial loop, one at a time).
    fn run(n: u32, width: usize, interesting: impl Fn(&Configuration) -> bool) -> Run {
        let minimizer = Minimizer::DrDd.build(&MinimizerSettings::default());
        let policy = Box::new(FlatPolicy::new(minimizer, Arc::new(vec![1; n as usize])));
        let mut cursor = Cursor::new(policy, Arc::new(Configuration::full(n)));
        let mut outcomes = Outcomes::default();
        let mut seen = Run {
            result: Vec::new(),
            wave_rounds: 0,
            long_merges: 0,
            split_merges: 0,
            left_one_out: 0,
            waves_ahead: 0,
            chains_ahead: 0,
        };
        let judge = |cs: &[Arc<Configuration>]| -> Vec<Option<bool>> {
            cs.iter().map(|c| Some(interesting(c))).collect()
        };
        loop {
            match next_round(&cursor, width, &outcomes) {
                Round::Over(_) => {
                    seen.result = kept(cursor.base());
                    return seen;
                }
                Round::Chain { .. } => {
                    while let Some(candidate) = cursor.next_candidate() {
                        let passed = interesting(&candidate);
                        settled(&mut outcomes, [passed]);
                        if passed {
                            cursor.commit(Arc::new(candidate));
                            break;
                        }
                    }
                }
                Round::Wave(mut round) => {
                    let mut known = None;
                    cursor = loop {
                        seen.wave_rounds += 1;
                        let (tested, candidates) = round.candidates();
                        let verdicts = known.take().unwrap_or_else(|| judge(&candidates));
                        let merging = start_merge(round, width, &tested, &verdicts, &mut outcomes);
                        let (after, next) = match merging {
                            Ok(merging) => merge(merging, width, &mut outcomes, &mut seen, &judge),
                            Err(after) => break after,
                        };
                        assert!(
                            interesting(after.base()),
                            "a merge that failed was committed"
                        );
                        match next {
                            Some((wave, verdicts)) => (round, known) = (wave, Some(verdicts)),
                            None => break after,
                        }
                    };
                }
            }
        }
    }

    /// A merge as the loop of waves runs it, with what follows the union.
    fn merge(
        mut merging: Merging,
        width: usize,
        outcomes: &mut Outcomes,
        seen: &mut Run,
        judge: &Judge<'_>,
    ) -> (Cursor, Option<TestedWave>) {
        let (mut batches, mut next, mut chain_ahead) = (0, None, Vec::new());
        loop {
            let tries = merging.tries();
            if tries.is_empty() {
                break;
            }
            let mut ahead = None;
            if batches == 0 {
                match merging.after_union(&tries, outcomes, width - tries.len()) {
                    Ahead::Tests(candidates) => chain_ahead = candidates,
                    Ahead::Wave(wave) => ahead = Some(wave),
                }
            }
            batches += 1;
            let verdicts = judge(&tries);
            merging.take(tries, &verdicts, outcomes);
            if merging.union_passed() {
                next = ahead.map(|wave| {
                    let verdicts = judge(&wave.candidates().1);
                    (wave, verdicts)
                });
            }
        }
        seen.long_merges += usize::from(batches > 1);
        if !merging.union_passed() && batches > 0 {
            let passed = merging.passed.iter().filter(|p| **p).count();
            seen.split_merges += 1;
            seen.left_one_out += usize::from(merging.size() + 1 == passed);
        }
        seen.waves_ahead += usize::from(next.is_some());
        let union_passed = merging.union_passed();
        let (after, _) = commit_merge(merging);
        if union_passed && !chain_ahead.is_empty() && next.is_none() {
            let mut path = after.clone();
            let chain: Vec<_> = std::iter::from_fn(|| path.next_candidate())
                .take(chain_ahead.len())
                .collect();
            let ahead: Vec<_> = chain_ahead.iter().map(|c| (**c).clone()).collect();
            if matches!(next_round(&after, width, outcomes), Round::Chain { .. }) {
                assert_eq!(
                    chain, ahead,
                    "the chain's candidates tested ahead of the union"
                );
                seen.chains_ahead += 1;
            }
        }
        (after, next)
    }

    #[test]
    fn waves_of_drdd_reach_the_needed_units() {
        let needed = [3, 17, 18, 40];
        let keeps = |c: &Configuration| needed.iter().all(|&u| c.contains(u));
        let run = run(64, 16, keeps);
        assert_eq!(run.result, needed);
        assert!(run.wave_rounds > 0);
    }

    #[test]
    fn a_union_that_fails_is_split_and_the_conflicting_deletion_left_out() {
        // Unit 9 or unit 10 must stay, and units 3 and 50: deleting 9
        // and 10 pass alone, together they fail.
        let keeps = |c: &Configuration| {
            (c.contains(9) || c.contains(10)) && c.contains(3) && c.contains(50)
        };
        let run = run(64, 64, keeps);
        assert_eq!(run.result.len(), 3, "{:?}", run.result);
        assert!(run.result.contains(&3) && run.result.contains(&50));
        assert!(run.wave_rounds > 0);
    }

    #[test]
    fn a_failed_union_leaves_out_only_the_deletion_that_conflicts_where_the_width_has_room() {
        // Of 16 units, 3 must stay and 9 or 10: every merge holds at most
        // 15 proposals, and a width of 64 has room for every split.
        let keeps = |c: &Configuration| (c.contains(9) || c.contains(10)) && c.contains(3);
        let wide = run(16, 64, keeps);
        assert_eq!(wide.result.len(), 2, "{:?}", wide.result);
        assert!(wide.split_merges > 0, "no union failed");
        assert_eq!(wide.left_one_out, wide.split_merges);
    }

    #[test]
    fn a_wave_tested_along_with_the_union_before_it_is_the_round_after_it() {
        for width in [4, 16, 64] {
            let needed = [3, 17, 18, 40];
            let run = run(64, width, |c: &Configuration| {
                needed.iter().all(|&u| c.contains(u))
            });
            assert_eq!(run.result, needed, "width {width}");
            assert!(
                run.waves_ahead > 0,
                "width {width}: no wave followed a union"
            );
        }
    }

    #[test]
    fn what_is_tested_ahead_of_a_union_for_a_chain_is_what_the_chain_tests() {
        let needed = [3, 17, 18, 40];
        let run = run(64, 8, |c: &Configuration| {
            needed.iter().all(|&u| c.contains(u))
        });
        assert_eq!(run.result, needed);
        assert!(run.chains_ahead > 0, "no chain followed a union");
    }
}
