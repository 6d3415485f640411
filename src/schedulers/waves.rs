//! The waves scheduler (`--wave W`, W at least 2): each step is a wave of
//! independent proposals and its merge (`merge.rs`) or a chain along the
//! serial loop's path of failures up to its first pass, whichever the
//! [`PassRates`] favour. Where successes are common a wave tests many
//! proposals from one base and commits what passes together; where they
//! are rare a chain commits what the serial loop would.
//!
//! What it asks and commits depends only on the verdicts, in the order it
//! takes them, and on the width; never on timing nor on how many workers
//! test them, so `-j 1 --wave W` commits what `-j 64 --wave W` commits.
//! The width itself changes what is committed, so it is a setting of its
//! own.

use std::sync::Arc;

use super::cursor::Cursor;
use super::merge::{Merging, OpenWave, Step, commit_merge, next_step, start_merge};
use super::rates::PassRates;
use super::serial::Serial;
use super::{Ask, Batch, Commit, Ended, Next, Scheduler, Taken};
use crate::configuration::Configuration;

/// Waves and chains (see the module documentation).
#[derive(Clone)]
pub struct Waves {
    width: usize,
    /// The syntax filter judges candidates against the text they were
    /// proposed from: no wave goes along with a union, whose candidates
    /// would be judged against the union.
    lenient: bool,
    rates: PassRates,
    mode: Mode,
}

/// Where the waves are.
#[derive(Clone)]
enum Mode {
    /// The next step is decided from the serial loop's state.
    Idle(Cursor),
    /// A chain along the path of failures, up to its first pass.
    Chain(Serial),
    /// A wave was asked: the indices of its proposals tested, and its base.
    Wave(OpenWave, Vec<usize>, Arc<Configuration>),
    /// A merge; the tries asked last, and the wave asked along with the
    /// union (with the indices of its proposals tested).
    Merge(Box<MergeStep>),
    /// The phase is over.
    Over(Cursor),
    /// Between two modes (never seen outside a call).
    Moving,
}

#[derive(Clone)]
struct MergeStep {
    merging: Merging,
    base: Arc<Configuration>,
    tries: Vec<Arc<Configuration>>,
    ahead: Option<(OpenWave, Vec<usize>)>,
    /// The union is tried next (the merge's first batch).
    first: bool,
}

impl Waves {
    /// A phase of the policy `cursor` holds, at width `width`, going on
    /// from the pass rates an earlier phase left.
    pub fn new(cursor: Cursor, width: usize, lenient: bool, rates: PassRates) -> Self {
        Waves {
            width: width.max(2),
            lenient,
            rates,
            mode: Mode::Idle(cursor),
        }
    }

    /// The batch of a merge's next tries (the union first, with the wave
    /// that follows it where there is room).
    fn merge_batch(&self, step: &mut MergeStep) -> Batch {
        let tries = step.merging.tries();
        let mut asks: Vec<Ask> = tries.iter().map(|t| Ask::of(Arc::clone(t))).collect();
        if std::mem::take(&mut step.first) {
            asks[0].prior = Some(self.rates.union_share());
            let room = self.width.saturating_sub(tries.len());
            if !self.lenient
                && let Some(wave) = step.merging.wave_after_union(&tries, &self.rates, room)
            {
                let (tested, candidates) = wave.candidates();
                asks.extend(candidates.into_iter().map(Ask::of));
                step.ahead = Some((wave, tested));
            }
        }
        step.tries = tries;
        Batch {
            base: Some(Arc::clone(&step.base)),
            asks,
        }
    }

    /// Takes a wave's verdicts: merges what passed.
    fn take_wave(
        &mut self,
        open: OpenWave,
        tested: &[usize],
        verdicts: &[bool],
        base: Arc<Configuration>,
        taken: &mut Taken,
    ) {
        taken.waves += 1;
        self.mode = match start_merge(open, self.width, tested, verdicts, &mut self.rates) {
            Err(after) => Mode::Idle(after),
            Ok(merging) if merging.is_done() => Mode::Idle(commit(merging, taken)),
            Ok(merging) => Mode::Merge(Box::new(MergeStep {
                merging,
                base,
                tries: Vec::new(),
                ahead: None,
                first: true,
            })),
        };
    }

    /// Takes a merge's tries' verdicts (and those of the wave asked along
    /// with the union): commits the merge once it is done, and takes the
    /// wave's verdicts if the union passed.
    fn take_merge(&mut self, mut step: MergeStep, verdicts: &[bool], taken: &mut Taken) {
        let n = step.tries.len();
        let tries = std::mem::take(&mut step.tries);
        step.merging.take(tries, &verdicts[..n], &mut self.rates);
        if !step.merging.is_done() {
            self.mode = Mode::Merge(Box::new(step));
            return;
        }
        let ahead = step.ahead.take().filter(|_| step.merging.union_passed());
        let cursor = commit(step.merging, taken);
        match ahead {
            Some((wave, tested)) => {
                let base = cursor.shared_base();
                self.take_wave(wave, &tested, &verdicts[n..], base, taken);
            }
            None => self.mode = Mode::Idle(cursor),
        }
    }
}

/// Commits a finished merge: the serial loop's state after it.
fn commit(merging: Merging, taken: &mut Taken) -> Cursor {
    let size = merging.size() as u64;
    if size > 1 {
        taken.merged += size;
    }
    let (cursor, best) = commit_merge(merging);
    taken.commits.push(Commit::of(best));
    cursor
}

impl Scheduler for Waves {
    fn next(&mut self) -> Next {
        loop {
            match std::mem::replace(&mut self.mode, Mode::Moving) {
                Mode::Idle(cursor) => match next_step(&cursor, self.width, &self.rates) {
                    Step::Over(end) => self.mode = Mode::Over(end),
                    Step::Chain => self.mode = Mode::Chain(Serial::on(cursor)),
                    Step::Wave(open) => {
                        let base = cursor.shared_base();
                        let (tested, candidates) = open.candidates();
                        self.mode = Mode::Wave(open, tested, Arc::clone(&base));
                        let asks = candidates.into_iter().map(Ask::of).collect();
                        return Next::Batch(Batch {
                            base: Some(base),
                            asks,
                        });
                    }
                },
                Mode::Chain(mut serial) => {
                    let next = serial.next();
                    self.mode = match next {
                        Next::Batch(_) => Mode::Chain(serial),
                        Next::Over => Mode::Over(serial.into_cursor()),
                    };
                    return next;
                }
                Mode::Merge(mut step) => {
                    let batch = self.merge_batch(&mut step);
                    self.mode = Mode::Merge(step);
                    return Next::Batch(batch);
                }
                Mode::Over(cursor) => {
                    self.mode = Mode::Over(cursor);
                    return Next::Over;
                }
                Mode::Wave(..) | Mode::Moving => unreachable!("a batch's verdicts come first"),
            }
        }
    }

    fn take(&mut self, verdicts: &[bool]) -> Taken {
        let mut taken = Taken::default();
        match std::mem::replace(&mut self.mode, Mode::Moving) {
            Mode::Chain(mut serial) => {
                self.rates.record(verdicts[0]);
                self.mode = match serial.take_one(verdicts[0]) {
                    Some(committed) => {
                        taken.commits.push(Commit::of(committed));
                        Mode::Idle(serial.into_cursor())
                    }
                    None => Mode::Chain(serial),
                };
            }
            Mode::Wave(open, tested, base) => {
                self.take_wave(open, &tested, verdicts, base, &mut taken);
            }
            Mode::Merge(step) => self.take_merge(*step, verdicts, &mut taken),
            Mode::Idle(_) | Mode::Over(_) | Mode::Moving => {
                unreachable!("verdicts come for a batch asked")
            }
        }
        taken
    }

    fn clone_box(&self) -> Box<dyn Scheduler> {
        Box::new(self.clone())
    }

    fn end(self: Box<Self>) -> Ended {
        let policy = match self.mode {
            Mode::Over(cursor) | Mode::Idle(cursor) => Some(cursor.into_policy()),
            _ => None,
        };
        Ended {
            policy,
            rates: Some(self.rates),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::flat::FlatPolicy;
    use crate::policy::{Minimizer, MinimizerSettings};

    /// What [`run`] saw.
    #[derive(Default)]
    struct Run {
        result: Vec<u32>,
        /// Waves whose verdicts were taken.
        waves: u64,
        /// Proposals committed in merges of two or more.
        merged: u64,
        /// Batches that held a union and the wave after it, both taken.
        waves_with_unions: u64,
    }

    /// Runs waves of Dr. DD over `n` units to the end, judging every
    /// candidate by `interesting`, batch after batch.
    fn run(
        n: u32,
        width: usize,
        lenient: bool,
        interesting: impl Fn(&Configuration) -> bool,
    ) -> Run {
        let minimizer = Minimizer::DrDd.build(&MinimizerSettings::default());
        let policy = Box::new(FlatPolicy::new(minimizer, Arc::new(vec![1; n as usize])));
        let start = Arc::new(Configuration::full(n));
        let mut waves = Waves::new(
            Cursor::new(policy, start),
            width,
            lenient,
            PassRates::default(),
        );
        let mut seen = Run::default();
        while let Next::Batch(batch) = waves.next() {
            let verdicts: Vec<bool> = batch.asks.iter().map(|a| interesting(&a.config)).collect();
            let taken = waves.take(&verdicts);
            for commit in &taken.commits {
                assert!(
                    interesting(&commit.config),
                    "a merge that failed was committed"
                );
                seen.result = commit.config.kept.iter().collect();
            }
            seen.waves += taken.waves;
            seen.merged += taken.merged;
            // Only a union that passed merges in a take that also takes a wave.
            seen.waves_with_unions += u64::from(taken.waves > 0 && taken.merged > 0);
        }
        seen
    }

    #[test]
    fn waves_of_drdd_reach_the_needed_units() {
        let needed = [3, 17, 18, 40];
        let run = run(64, 16, false, |c| needed.iter().all(|&u| c.contains(u)));
        assert_eq!(run.result, needed);
        assert!(run.waves > 0 && run.merged > 0);
    }

    #[test]
    fn a_union_that_fails_is_split_and_the_conflicting_deletion_left_out() {
        // Unit 9 or unit 10 must stay, and units 3 and 50: deleting 9
        // and 10 pass alone, together they fail.
        let keeps = |c: &Configuration| {
            (c.contains(9) || c.contains(10)) && c.contains(3) && c.contains(50)
        };
        let run = run(64, 64, false, keeps);
        assert_eq!(run.result.len(), 3, "{:?}", run.result);
        assert!(run.result.contains(&3) && run.result.contains(&50));
        assert!(run.waves > 0);
    }

    #[test]
    fn a_wave_tested_along_with_the_union_before_it_is_taken_with_it() {
        for width in [4, 16, 64] {
            let needed = [3, 17, 18, 40];
            let run = run(64, width, false, |c| needed.iter().all(|&u| c.contains(u)));
            assert_eq!(run.result, needed, "width {width}");
            assert!(
                run.waves_with_unions > 0,
                "width {width}: no wave followed a union"
            );
        }
    }

    #[test]
    fn with_a_lenient_filter_no_wave_goes_along_with_a_union() {
        let needed = [3, 17, 18, 40];
        let run = run(64, 16, true, |c| needed.iter().all(|&u| c.contains(u)));
        assert_eq!(run.result, needed);
        assert_eq!(run.waves_with_unions, 0);
    }
}
