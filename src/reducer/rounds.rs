//! The loop of waves (`--wave W`, see `waves.rs`): the reducer's rounds
//! when many workers are at hand. A round is a wave of independent
//! candidates tested together and merged, or a chain tested ahead along
//! the serial loop's path of failures; this drives the workers for both
//! and commits what a round settles. Apart from `reducer.rs` only to keep
//! that file readable: it is the same loop, with the same cache, filter
//! and oracle.

use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use super::{Reducer, StopReason, work};
use crate::configuration::Configuration;
use crate::interfaces::{Observer, Verdict};
use crate::policy::Policy;
use crate::speculation::{Cursor, Done, Finished, Job, Speculation};
use crate::stats::PhaseStats;
use crate::waves::{self, Ahead, Batch, Merging, Prefetch, Round, TestedWave, WaveRound};

/// Where a round of waves left the phase.
enum Next {
    /// The serial loop's state for the next round.
    Round(Cursor),
    /// The phase is over: the policy.
    Over(Box<dyn Policy>),
}

/// The workers of a phase: where jobs go, where reports come from, how
/// many tests may run at once, and the number of the next job.
struct Pool<'c> {
    jobs: &'c mpsc::Sender<Job>,
    done: &'c mpsc::Receiver<Done>,
    size: usize,
    next_slot: u64,
}

/// The loop of waves (`--wave`, see `waves.rs`): rounds of candidates
/// tested together, each settled by its verdicts alone.
impl Reducer<'_> {
    pub(super) fn run_waves(
        &mut self,
        policy: &mut Box<dyn Policy>,
        start: Configuration,
        phase: &mut PhaseStats,
        observer: &mut dyn Observer,
        upcoming: &mut dyn Iterator<Item = Box<dyn Policy>>,
    ) -> (Configuration, StopReason) {
        let notice = Arc::clone(&self.notice);
        let tester = self.tester(&notice);
        let filter = self.active_filter();
        std::thread::scope(|scope| {
            let (job_tx, job_rx) = mpsc::channel::<Job>();
            let job_rx = Arc::new(Mutex::new(job_rx));
            let (done_tx, done_rx) = mpsc::channel::<Done>();
            for _ in 0..self.jobs {
                let job_rx = Arc::clone(&job_rx);
                let done_tx = done_tx.clone();
                scope.spawn(move || work(tester, filter, &job_rx, &done_tx));
            }
            drop(done_tx);
            let mut pool = Pool {
                jobs: &job_tx,
                done: &done_rx,
                size: self.jobs,
                next_slot: 0,
            };
            let result = self.drive_waves(policy, start, phase, observer, &mut pool, upcoming);
            drop(job_tx);
            result
        })
    }

    /// The rounds of a phase, with the workers running.
    fn drive_waves(
        &mut self,
        policy: &mut Box<dyn Policy>,
        start: Configuration,
        phase: &mut PhaseStats,
        observer: &mut dyn Observer,
        pool: &mut Pool<'_>,
        upcoming: &mut dyn Iterator<Item = Box<dyn Policy>>,
    ) -> (Configuration, StopReason) {
        let mut best = Arc::new(start);
        let mut cursor = Cursor::new(policy.clone_box(), Arc::clone(&best));
        let reason = loop {
            if let Some(reason) = self.limit_hit() {
                break reason;
            }
            let round = waves::next_round(&cursor, self.wave, &self.outcomes);
            let next = match round {
                Round::Over(ended) => {
                    *policy = ended;
                    break StopReason::Finished;
                }
                Round::Chain { length } => {
                    self.chain_round(cursor, length, &mut best, phase, observer, pool, upcoming)
                }
                Round::Wave(round) => self.wave_round(round, &mut best, phase, observer, pool),
            };
            cursor = match next {
                Ok(Next::Round(cursor)) => cursor,
                Ok(Next::Over(ended)) => {
                    *policy = ended;
                    break StopReason::Finished;
                }
                Err(reason) => break reason,
            };
        };
        (Arc::unwrap_or_clone(best), reason)
    }

    /// Tests ahead along the serial loop's path of failures from `cursor`,
    /// up to `length` tests at once (`speculation.rs`, without guesses),
    /// until a test passes: commits it, as the serial loop would. When the
    /// path runs out, the next phases' first candidates (from `upcoming`)
    /// are tested ahead ([`Prefetch`]).
    #[allow(clippy::too_many_arguments)]
    fn chain_round(
        &mut self,
        cursor: Cursor,
        length: usize,
        best: &mut Arc<Configuration>,
        phase: &mut PhaseStats,
        observer: &mut dyn Observer,
        pool: &mut Pool<'_>,
        upcoming: &mut dyn Iterator<Item = Box<dyn Policy>>,
    ) -> Result<Next, StopReason> {
        let room = length.min(self.jobs);
        let mut speculation = Speculation::new(cursor, room, self.recheck)
            .for_waves()
            .numbering_from(pool.next_slot);
        let mut prefetch = Prefetch::new(Arc::clone(best));
        let result = loop {
            let before = Arc::clone(best);
            if let Err(reason) = self.settle(&mut speculation, best, phase, observer) {
                break Err(reason);
            }
            if !Arc::ptr_eq(&before, best) {
                break Ok(None);
            }
            if let Some(reason) = self.limit_hit() {
                speculation.cancel_all(phase);
                break Err(reason);
            }
            if let Some(ended) = self.propose_ahead(&mut speculation, phase, pool.jobs) {
                break Ok(Some(ended));
            }
            if speculation.exhausted() && self.cache.is_some() {
                let free = room.saturating_sub(speculation.running() + prefetch.batch.running());
                self.test_ahead(
                    &mut prefetch,
                    free,
                    speculation.numbers(),
                    pool,
                    phase,
                    upcoming,
                );
            }
            if speculation.front_is_known() {
                continue;
            }
            match pool.done.recv_timeout(speculation.wait()) {
                Ok(done) if prefetch.batch.entry_of(done.slot).is_some() => {
                    let numbers = speculation.numbers();
                    if let Err(reason) =
                        self.take_ahead_report(&mut prefetch, done, pool, numbers, phase)
                    {
                        speculation.cancel_all(phase);
                        break Err(reason);
                    }
                }
                Ok(done) => {
                    if let Err(reason) =
                        self.take_report(&mut speculation, done, best, phase, observer)
                    {
                        break Err(reason);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    unreachable!("workers outlive the phase")
                }
            }
        };
        waves::settled(&mut self.outcomes, speculation.take_settled());
        // Tests ahead are waited for only when the phase ends as they assumed.
        let ended = matches!(result, Ok(Some(_)));
        let finished = if ended {
            self.finish_ahead(&mut prefetch, speculation.numbers(), pool, phase)
        } else {
            prefetch.batch.cancel_from(0, &mut phase.wasted);
            Ok(())
        };
        pool.next_slot = *speculation.numbers();
        finished?;
        match result? {
            Some(ended) => Ok(Next::Over(ended)),
            None => Ok(Next::Round(
                speculation
                    .into_settled()
                    .expect("nothing is outstanding after a commit"),
            )),
        }
    }

    /// Starts up to `free` tests of the next phases' candidates
    /// ([`Prefetch`]), numbering them from `numbers`.
    fn test_ahead(
        &mut self,
        prefetch: &mut Prefetch,
        free: usize,
        numbers: &mut u64,
        pool: &mut Pool<'_>,
        phase: &mut PhaseStats,
        upcoming: &mut dyn Iterator<Item = Box<dyn Policy>>,
    ) {
        // Called at every report while the chain waits: render nothing
        // when no worker is free.
        if prefetch.batch.running() >= free {
            return;
        }
        let parent = self.parent_bytes(prefetch.base()).map(Arc::new);
        while prefetch.batch.running() < free {
            let Some(candidate) = prefetch.next_candidate(upcoming) else {
                break;
            };
            let bytes = self.units.render(&candidate);
            let (known, key) = self.cached(&bytes, phase);
            prefetch.batch.add(candidate, bytes, key, known);
            for job in prefetch.batch.next_jobs(free, parent.as_ref(), numbers) {
                pool.jobs.send(job).expect("workers outlive the phase");
            }
        }
    }

    /// Waits for the tests started ahead, so that their verdicts are in
    /// the cache when the next phase proposes their candidates.
    fn finish_ahead(
        &mut self,
        prefetch: &mut Prefetch,
        numbers: &mut u64,
        pool: &mut Pool<'_>,
        phase: &mut PhaseStats,
    ) -> Result<(), StopReason> {
        while prefetch.batch.running() > 0 {
            if let Some(reason) = self.limit_hit() {
                prefetch.batch.cancel_from(0, &mut phase.wasted);
                return Err(reason);
            }
            match pool.done.recv_timeout(Duration::from_millis(50)) {
                Ok(done) => {
                    if let Err(reason) =
                        self.take_ahead_report(prefetch, done, pool, numbers, phase)
                    {
                        prefetch.batch.cancel_from(0, &mut phase.wasted);
                        return Err(reason);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    unreachable!("workers outlive the phase")
                }
            }
        }
        Ok(())
    }

    /// Takes a worker's report on a test of the next phases' candidates
    /// ([`Prefetch`]; their filter needs no parent text).
    fn take_ahead_report(
        &mut self,
        prefetch: &mut Prefetch,
        done: Done,
        pool: &Pool<'_>,
        numbers: &mut u64,
        phase: &mut PhaseStats,
    ) -> Result<(), StopReason> {
        self.take_batch_report(&mut prefetch.batch, done, &None, pool.jobs, numbers, phase)
    }

    /// Tests a wave and merges what passed, committing the merge; then
    /// the wave tested along with the merge's union, while there is one.
    fn wave_round(
        &mut self,
        mut round: WaveRound,
        best: &mut Arc<Configuration>,
        phase: &mut PhaseStats,
        observer: &mut dyn Observer,
        pool: &mut Pool<'_>,
    ) -> Result<Next, StopReason> {
        let mut known = None;
        loop {
            phase.waves += 1;
            let base = Arc::clone(best);
            let (tested, candidates) = round.candidates();
            let verdicts = match known.take() {
                Some(verdicts) => verdicts,
                None => self.test_batch(&candidates, &base, false, pool, phase)?,
            };
            observer.on_progress(phase, best);
            let merging = match waves::start_merge(
                round,
                self.wave,
                &tested,
                &verdicts,
                &mut self.outcomes,
            ) {
                Ok(merging) => merging,
                Err(after) => return Ok(Next::Round(after)),
            };
            let (cursor, next) = self.merge(merging, &base, best, phase, observer, pool)?;
            match next {
                Some((wave, verdicts)) => (round, known) = (wave, Some(verdicts)),
                None => return Ok(Next::Round(cursor)),
            }
        }
    }

    /// Runs a merge from `base` to the end and commits it: the serial
    /// loop's state after it, and the wave tested along with its union
    /// with that wave's verdicts, if the union passed.
    fn merge(
        &mut self,
        mut merging: Merging,
        base: &Arc<Configuration>,
        best: &mut Arc<Configuration>,
        phase: &mut PhaseStats,
        observer: &mut dyn Observer,
        pool: &mut Pool<'_>,
    ) -> Result<(Cursor, Option<TestedWave>), StopReason> {
        // What follows the union is tested along with it, on the guess
        // that it passes (not where the syntax filter judges a candidate
        // against its base: theirs would be the union).
        let mut guess_union = self.parent_bytes(base).is_none();
        let mut next = None;
        loop {
            let tries = merging.tries();
            if tries.is_empty() {
                break;
            }
            let mut tests = tries.clone();
            let mut ahead = None;
            if std::mem::take(&mut guess_union) {
                let room = self.wave.saturating_sub(tries.len());
                match merging.after_union(&tries, &self.outcomes, room) {
                    Ahead::Tests(candidates) => tests.extend(candidates),
                    Ahead::Wave(wave) => {
                        tests.extend(wave.candidates().1);
                        ahead = Some(wave);
                    }
                }
            }
            let mut verdicts = self.test_batch(&tests, base, false, pool, phase)?;
            let ahead_verdicts = verdicts.split_off(tries.len());
            merging.take(tries, &verdicts, &mut self.outcomes);
            if merging.union_passed() {
                next = ahead.map(|wave| (wave, ahead_verdicts));
            }
        }
        let size = merging.size() as u64;
        if size > 1 {
            phase.merged += size;
        }
        let (cursor, committed) = waves::commit_merge(merging);
        *best = committed;
        let bytes = self.units.render(best);
        self.commit(best, &bytes, phase, observer);
        Ok((cursor, next))
    }

    /// Judges `candidates`, proposed from `base`: the cache, then the
    /// workers (syntax filter and oracle), up to `pool.size` at once, in
    /// order; with `until_pass` only up to the first that passes (see
    /// [`Batch`]). The verdicts, in order; `Err` when a limit or a fault
    /// stops the run (every test is then cancelled).
    fn test_batch(
        &mut self,
        candidates: &[Arc<Configuration>],
        base: &Configuration,
        until_pass: bool,
        pool: &mut Pool<'_>,
        phase: &mut PhaseStats,
    ) -> Result<Vec<Option<bool>>, StopReason> {
        let parent = self.parent_bytes(base).map(Arc::new);
        let mut batch = Batch::new(until_pass);
        for candidate in candidates {
            let bytes = self.units.render(candidate);
            let (known, key) = self.cached(&bytes, phase);
            batch.add(Arc::clone(candidate), bytes, key, known);
        }
        loop {
            if batch.is_done() {
                batch.cancel_from(0, &mut phase.wasted);
                return Ok(batch.verdicts());
            }
            if let Some(reason) = self.limit_hit() {
                batch.cancel_from(0, &mut phase.wasted);
                return Err(reason);
            }
            for job in batch.next_jobs(pool.size, parent.as_ref(), &mut pool.next_slot) {
                pool.jobs.send(job).expect("workers outlive the phase");
            }
            match pool.done.recv_timeout(Duration::from_millis(50)) {
                Ok(done) => {
                    let report = self.take_batch_report(
                        &mut batch,
                        done,
                        &parent,
                        pool.jobs,
                        &mut pool.next_slot,
                        phase,
                    );
                    if let Err(reason) = report {
                        batch.cancel_from(0, &mut phase.wasted);
                        return Err(reason);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    unreachable!("workers outlive the phase")
                }
            }
        }
    }

    /// Counts a worker's report on a test of `batch` still wanted and
    /// records its verdict (a pass is tested again first, with recheck).
    /// `Err` when the test was cancelled by a stop, or could not run.
    fn take_batch_report(
        &mut self,
        batch: &mut Batch,
        done: Done,
        parent: &Option<Arc<Vec<u8>>>,
        jobs: &mpsc::Sender<Job>,
        numbers: &mut u64,
        phase: &mut PhaseStats,
    ) -> Result<(), StopReason> {
        let Some(at) = batch.entry_of(done.slot) else {
            return Ok(()); // cancelled after a pass before it
        };
        let key = batch.key(at);
        let verdict = match done.finished {
            Finished::Tested(outcome) if batch.is_confirming(at) => {
                let confirmed = outcome.verdict == Verdict::Interesting;
                self.count_test(&outcome, phase);
                self.recheck_failures += u64::from(!confirmed);
                self.remember(key, confirmed);
                confirmed
            }
            Finished::Tested(outcome) => {
                let interesting = self.record(key, outcome, phase);
                if interesting && self.recheck {
                    let job = batch.retest(at, parent.as_ref(), numbers);
                    jobs.send(job).expect("workers outlive the phase");
                    return Ok(());
                }
                interesting
            }
            Finished::SyntaxRejected => {
                self.record_rejection(key, phase);
                false
            }
            Finished::Cancelled => return Err(self.limit_hit().unwrap_or(StopReason::Interrupted)),
            Finished::Fault(fault) => {
                self.fault = Some(fault);
                return Err(StopReason::Fault);
            }
        };
        batch.set(at, verdict, &mut phase.wasted);
        Ok(())
    }
}
