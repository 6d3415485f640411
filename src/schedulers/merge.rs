//! Waves and their merges (`--wave W`): a wave is up to `W` proposals
//! from one base that the policy says are independent of one another
//! ([`Policy::next_wave`]: disjoint deletions from one list, the chunks of
//! one bulk level); the ones that pass are merged: their union is tested
//! (as the policy combines them, [`Policy::merge`]), and if it fails, what
//! is merged so far is tried with *splits* of the passing proposals not
//! yet merged, all at once: every shorter prefix, and, where the width has
//! room for both, all of them but one, for each one; the split that passes
//! holding the most joins the merge, and when none does the first of them
//! is left out (where recent unions failed, the splits are tested along
//! with the union, so that a failed union costs no extra batch). The
//! merge is committed ([`Policy::on_merged`]). Along with the union goes
//! the next wave, made for the room the union leaves
//! ([`Merging::wave_after_union`]), whose verdicts are that wave's if the
//! union passes, so that a run of waves whose unions pass takes one batch
//! per wave.
//!
//! Whether the next step is a wave or a chain along the serial loop's
//! path of failures ([`next_step`]) depends on the [`PassRates`]: a wave
//! when the policy offers at least two independent proposals and either
//! they fill half the width or the share of recent candidates that passed
//! says one of them should pass.
//!
//! [`Policy::next_wave`]: crate::policy::Policy::next_wave
//! [`Policy::merge`]: crate::policy::Policy::merge
//! [`Policy::on_merged`]: crate::policy::Policy::on_merged

use std::sync::Arc;

use super::cursor::{Cursor, Wave};
use super::rates::PassRates;
use crate::configuration::Configuration;

/// What the waves test next.
pub enum Step {
    /// The phase is over: the serial loop's state, which holds the policy
    /// as it leaves it.
    Over(Cursor),
    /// Candidates along the serial loop's path of failures, one at a
    /// time, until the first that passes is committed.
    Chain,
    /// Independent candidates from one base: test them all.
    Wave(OpenWave),
}

/// A wave, with the serial loop's state after its last proposal.
#[derive(Clone)]
pub struct OpenWave {
    wave: Wave,
    cursor: Cursor,
}

impl OpenWave {
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
#[derive(Clone)]
pub struct Merging {
    open: OpenWave,
    /// Whether each proposal of the wave passed alone.
    passed: Vec<bool>,
    /// The proposals merged so far (all passed), and their candidate,
    /// known to pass.
    merged: Vec<bool>,
    best: Arc<Configuration>,
    /// Proposals that passed alone and are not merged yet, in order.
    rest: Vec<usize>,
    stage: Stage,
    /// How many tests a batch may hold (the wave width).
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
    /// indices into it): every shorter prefix, and, where the batch has
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
        let merged = self.open.cursor.merged(&self.open.wave, &mut chosen);
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
        verdicts: &[bool],
        rates: &mut PassRates,
    ) {
        let mut tries = tries.into_iter().zip(verdicts);
        // Where the splits' tries start among the last tries.
        let splits_from = match self.stage {
            Stage::Union { with_splits } => {
                let (union, verdict) = tries.next().expect("the union was tried");
                let passed = *verdict;
                rates.record_union(passed);
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
            .filter(|(_, (_, verdict))| **verdict)
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

    /// The wave to test along with the union about to be tried (the
    /// first of `tries`, the last [`Self::tries`]), on the guess that it
    /// passes (it is then committed whole), made for the `room` the batch
    /// has left: the wave that follows the merge, if the step after it
    /// is a wave. `None` unless the union is what is tried next.
    pub fn wave_after_union(
        &self,
        tries: &[Arc<Configuration>],
        rates: &PassRates,
        room: usize,
    ) -> Option<OpenWave> {
        let union_next = matches!(self.stage, Stage::Union { .. }) && !self.rest.is_empty();
        let (union, chosen) = (tries.first()?, self.tried.first()?);
        if !union_next || room < 2 {
            return None;
        }
        let mut cursor = self.open.cursor.clone();
        cursor.commit_merged(&self.passed, chosen, Arc::clone(union));
        let mut rates = rates.clone();
        rates.record_union(true);
        match next_step(&cursor, room, &rates) {
            Step::Wave(wave) => Some(wave),
            Step::Over(_) | Step::Chain => None,
        }
    }

    /// Whether the merge is over: the next [`Self::tries`] would be none.
    pub fn is_done(&self) -> bool {
        self.rest.is_empty() || self.stage == Stage::Done
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

/// The next step from `cursor`, the serial loop's state (the best so
/// far, as its base), at width `width` (at least 2): a wave if the policy
/// offers one and `rates` say it pays, else a chain.
pub fn next_step(cursor: &Cursor, width: usize, rates: &PassRates) -> Step {
    let mut probe = cursor.clone();
    let Some(wave) = probe.next_wave(width) else {
        return Step::Over(probe);
    };
    let testable = wave.candidates.iter().filter(|c| c.is_some()).count();
    if testable >= 2 && rates.favours_wave(testable, width) {
        return Step::Wave(OpenWave {
            wave,
            cursor: probe,
        });
    }
    Step::Chain
}

/// Takes a wave's verdicts (in the order of [`OpenWave::candidates`]'s
/// indices): a merge to run when any passed, else the serial loop's state
/// after their failures.
pub fn start_merge(
    open: OpenWave,
    width: usize,
    tested: &[usize],
    verdicts: &[bool],
    rates: &mut PassRates,
) -> Result<Merging, Cursor> {
    let mut passed = vec![false; open.wave.proposals.len()];
    for (&i, verdict) in tested.iter().zip(verdicts) {
        let verdict = *verdict;
        rates.record(verdict);
        passed[i] = verdict;
    }
    let Some(first) = passed.iter().position(|p| *p) else {
        return Err(open.cursor);
    };
    let mut merged = vec![false; passed.len()];
    merged[first] = true;
    let best = Arc::new(
        open.wave.candidates[first]
            .clone()
            .expect("a candidate that passed changes something"),
    );
    let rest = (first + 1..passed.len()).filter(|&i| passed[i]).collect();
    Ok(Merging {
        open,
        passed,
        merged,
        best,
        rest,
        stage: Stage::Union {
            with_splits: rates.unions_fail(),
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
        open,
        passed,
        merged,
        best,
        ..
    } = merging;
    let mut cursor = open.cursor;
    cursor.commit_merged(&passed, &merged, Arc::clone(&best));
    (cursor, best)
}
