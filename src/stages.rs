//! The reduction itself: the plan's rounds through the reduce loop, stage
//! after stage, with every improvement saved and shown as it comes.
//!
//! A stage is one parse of the text: the default pipeline on a grammar
//! parses its result again after each round that changed it, and runs the
//! next round on the new tree; the loop's cache, counters and stats go on
//! from stage to stage ([`Carried`]). When a stage's rounds reach their
//! fixpoint the outside passes (`--reduce-with`, `--propose-with`,
//! `--llm-url`; `proposals.rs`) get the result, and one they shrink starts
//! a new stage.
//!
//! With `--restart`, once the run reaches its fixpoint it starts over from
//! the original on another path (`pipeline::restart_variants`), the cache
//! going on, and keeps what it finds only where it beats the best (tokens,
//! then bytes); it stops when a restart cannot.
//!
//! Every `--retest-every` improvements the best is tested again ([`Retest`]);
//! one that fails stops the run ([`StopReason::Flaky`]) and the last
//! result that passed twice is kept.
//!
//! With a journal (`journal.rs`) every verdict and improvement is written to
//! it; a resumed run starts with the journal's verdicts in the cache, and
//! while it replays the earlier run (every test a cache hit) it saves
//! nothing larger than the result the earlier run had saved.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Result;

use crate::configuration::Configuration;
use crate::engine::{Carried, Engine, Limits, StopReason};
use crate::interfaces::{
    Candidate, Formatter, Messages, Observer, Oracle, StepLog, Verdict, VerdictLog, Watch,
};
use crate::journal::{Journal, Replaying, Resumed};
use crate::languages::Lang;
use crate::output::Save;
use crate::pipeline::{Closing, Plan, Strategy, restart_variants};
use crate::progress::Progress;
use crate::proposals::Passes;
use crate::settings::Settings;
use crate::stats::{PhaseStats, RestartGain};
use crate::units::Units;

/// What every stage of a run shares (see [`Stages::run_stages`]).
pub(crate) struct Stages<'a> {
    pub(crate) settings: &'a Settings,
    pub(crate) lang: Lang,
    pub(crate) oracle: &'a dyn Oracle,
    pub(crate) destination: &'a dyn Save,
    pub(crate) limits: Limits,
    /// Where verdicts and improvements are journaled, if anywhere.
    pub(crate) journal: Option<&'a Journal>,
    /// Where a test that could not run is said (the display).
    pub(crate) messages: &'a dyn Messages,
    /// Hears every accepted candidate (`--history`).
    pub(crate) steps: Option<&'a dyn StepLog>,
    /// The outside passes tried at each fixpoint.
    pub(crate) passes: &'a Passes<'a>,
    /// The formatter the format pass asks first (`--format native`).
    pub(crate) formatter: Option<&'a dyn Formatter>,
}

/// What the stages left: the result, its unit count, why the run stopped,
/// and the reducer's state (stats, recheck failures).
pub(crate) struct Reduced {
    pub(crate) bytes: Vec<u8>,
    pub(crate) units: u32,
    pub(crate) reason: StopReason,
    pub(crate) carried: Carried,
    /// The last result that passed the oracle twice, if a re-test
    /// confirmed one (else the original input, which the checks before the
    /// run saw pass twice).
    pub(crate) confirmed: Option<Vec<u8>>,
    /// Re-tests of the best run (`--retest-every`).
    pub(crate) retests: u64,
    /// What `--restart` did, if it ran.
    pub(crate) restart: Option<RestartGain>,
    /// The run stopped while replaying a journal, short of the result the
    /// earlier run saved: the output holds that smaller result and is
    /// left as it is.
    pub(crate) output_ahead: bool,
}

/// What [`Stages::first_interesting`] found: the candidate it saved, if
/// one passed, why it stopped, and the run's state.
pub(crate) struct Judged {
    pub(crate) found: Option<Vec<u8>>,
    pub(crate) reason: StopReason,
    pub(crate) carried: Carried,
}

/// A run's result so far.
struct Best {
    bytes: Vec<u8>,
    units: u32,
    reason: StopReason,
}

impl Best {
    /// Tokens, then bytes.
    fn size(&self) -> (u32, u64) {
        (self.units, self.bytes.len() as u64)
    }
}

/// What goes on from stage to stage, and from the first run to its restarts.
struct Run<'a> {
    carried: Option<Carried>,
    known: Vec<(u128, bool)>,
    keeper: Keeper<'a>,
    limits: Limits,
}

impl<'a> Stages<'a> {
    /// Reduces `source` as `plan` says, then (with `--restart`) again from
    /// `source` on other paths while that beats the best. `resumed` is
    /// what a journal kept of an earlier run of the same command;
    /// `carried`, what an earlier reduction of the same run handed on.
    pub(crate) fn run_stages(
        &self,
        plan: &Plan,
        source: &[u8],
        progress: &mut Progress,
        resumed: Option<Resumed>,
        carried: Option<Carried>,
    ) -> Result<Reduced> {
        let mut run = self.new_run(source, resumed, carried);
        let mut best = self.run_from(&self.settings.strategy, plan, progress, &mut run)?;
        let mut restart = None;
        if self.settings.restart && best.reason == StopReason::Finished {
            restart = Some(RestartGain {
                restarts: 0,
                units_before: best.units,
                bytes_before: best.bytes.len() as u64,
                tests_before: tests_of(&run),
            });
            best = self.restart(source, best, progress, &mut run, restart.as_mut())?;
        }
        Ok(Reduced {
            bytes: best.bytes,
            units: best.units,
            reason: best.reason,
            carried: run.carried.take().expect("a stage ran"),
            confirmed: run.keeper.retest.confirmed,
            retests: run.keeper.retest.runs,
            restart,
            output_ahead: run.keeper.replaying.is_on(),
        })
    }

    /// What goes on from stage to stage of a run from `source`.
    fn new_run(
        &self,
        source: &[u8],
        resumed: Option<Resumed>,
        carried: Option<Carried>,
    ) -> Run<'a> {
        let (known, replaying) = match resumed {
            Some(r) => (r.verdicts, r.best),
            None => (Vec::new(), None),
        };
        let flaky = Arc::new(AtomicBool::new(false));
        let mut limits = self.limits.clone();
        limits.flaky = Some(Arc::clone(&flaky));
        Run {
            carried,
            known,
            keeper: Keeper {
                destination: self.destination,
                journal: self.journal,
                replaying: Replaying::new(replaying),
                save_error: None,
                floor: None,
                retest: Retest {
                    every: self.settings.retest_every,
                    since: 0,
                    confirmed: None,
                    original_len: source.len(),
                    flaky,
                    runs: 0,
                },
            },
            limits,
        }
    }

    /// Judges `candidates` of `plan`'s text in turn, as the loop judges its
    /// own (the cache, `plan`'s syntax filter, the oracle), in a phase
    /// named `pass`, and saves the first interesting one: rewrites no
    /// policy proposes (a set's include inlined). `carried` is what the
    /// run's earlier stages handed on.
    pub(crate) fn first_interesting(
        &self,
        plan: &Plan,
        pass: &str,
        candidates: Vec<Vec<u8>>,
        progress: &mut Progress,
        carried: Option<Carried>,
    ) -> Result<Judged> {
        let mut run = self.new_run(plan.units().source(), None, carried);
        let (mut engine, _) = self.engine_for(plan, &mut run);
        let mut phase = PhaseStats::new(pass);
        let started = std::time::Instant::now();
        let (found, reason) = match engine.first_passing(candidates, &mut phase) {
            Ok(found) => (found, StopReason::Finished),
            Err(stop) => (None, stop),
        };
        phase.seconds = started.elapsed().as_secs_f64();
        if let Some(bytes) = &found {
            self.keep_outside(plan, bytes, progress, &mut run);
        }
        progress.phase_done(&phase);
        engine.phases.push(phase);
        if let Some(err) = run.keeper.save_error.take() {
            return Err(err);
        }
        Ok(Judged {
            found,
            reason,
            carried: engine.into_carried(),
        })
    }

    /// `--restart`: runs from `source` on each restart variant in turn,
    /// keeping a result smaller than `best`, until one is not.
    fn restart(
        &self,
        source: &[u8],
        mut best: Best,
        progress: &mut Progress,
        run: &mut Run<'_>,
        mut report: Option<&mut RestartGain>,
    ) -> Result<Best> {
        for strategy in restart_variants(&self.settings.strategy) {
            if let Some(report) = report.as_deref_mut() {
                report.restarts += 1;
            }
            run.keeper.floor = Some(best.size());
            let plan = Plan::new(&strategy, self.lang, source.to_vec())?;
            let round = self.run_from(&strategy, &plan, progress, run)?;
            let (beaten, reason) = (round.size() < best.size(), round.reason);
            if beaten {
                best = round;
            }
            best.reason = reason;
            if !beaten || reason != StopReason::Finished {
                break;
            }
        }
        run.keeper.floor = None;
        Ok(best)
    }

    /// Reduces `source` as `plan` says, one stage per parse of the text:
    /// the default pipeline parses its result again after each round that
    /// changed it (see `Plan::reparses_between_rounds`), and so does any
    /// plan after an outside pass shrank its result. `plan` is `strategy`'s
    /// plan of the text the run starts from.
    fn run_from(
        &self,
        strategy: &Strategy,
        plan: &Plan,
        progress: &mut Progress,
        run: &mut Run<'_>,
    ) -> Result<Best> {
        let mut state = StageState {
            plan: None,
            tree_phase: true,
            scanned: false,
        };
        loop {
            let owned = state.plan.take();
            let stage = owned.as_ref().unwrap_or(plan);
            let (next, best) = self.run_stage(strategy, stage, &mut state, progress, run)?;
            let fell_back = stage.fell_back_to_blocks().is_some();
            let outside = matches!(next, Next::Outside);
            let bytes = best.bytes;
            let plan = match next {
                Next::Done => {
                    return Ok(Best { bytes, ..best });
                }
                Next::Blocks(plan) => *plan,
                Next::Round | Next::Outside if fell_back => {
                    Plan::new(strategy, self.lang, bytes.clone())?
                }
                Next::Round | Next::Outside => {
                    Plan::on_grammar(strategy, self.lang, bytes.clone())?.for_a_later_round()
                }
            };
            // Blocks go on until the grammar's tree takes over (a round
            // after blocks is the first on it); once on the tree, the run
            // stays there.
            state.tree_phase |= fell_back || plan.fell_back_to_blocks().is_some();
            if outside {
                state.tree_phase = true;
                self.keep_outside(&plan, &bytes, progress, run);
            }
            state.plan = Some(plan);
        }
    }

    /// Runs a stage's rounds, then decides what comes next, in this
    /// order: another round if they changed the text, or if the last one
    /// left the tree phase out (the rounds end only once the tree phase,
    /// too, finds nothing on this text, as in a run starting from it); the
    /// blocks' rounds if the grammar's left the text mostly in parse
    /// errors; a new stage if an outside pass shrinks the result; else the
    /// closing phases, and another round if their scan deleted tokens.
    /// The stage's result goes with the next step.
    fn run_stage(
        &self,
        strategy: &Strategy,
        stage: &Plan,
        state: &mut StageState,
        progress: &mut Progress,
        run: &mut Run<'_>,
    ) -> Result<(Next, Best)> {
        let (mut engine, units) = self.engine_for(stage, run);
        let mut observer = SaveAndShow {
            keeper: &mut run.keeper,
            progress: &mut *progress,
            units,
            oracle: self.oracle,
            interrupt: self.limits.interrupt.as_deref(),
            messages: self.messages,
        };
        let full = Configuration::full(units.len());
        let ran_tree_phase = state.tree_phase;
        let (mut result, mut reason, tree_changed) =
            stage.run_rounds(&mut engine, full, &mut observer, state.tree_phase);
        state.tree_phase = tree_changed;
        let mut bytes = units.render(&result);
        let reparses = stage.reparses_between_rounds();
        let next = if reason != StopReason::Finished {
            Next::Done
        } else if reparses && bytes != units.source() {
            Next::Round
        } else if reparses && !ran_tree_phase {
            state.tree_phase = true;
            Next::Round
        } else if let Some(plan) = self.blocks_after(strategy, stage, &bytes, state.scanned)? {
            Next::Blocks(Box::new(plan))
        } else {
            match self.passes.run(&mut engine, &bytes) {
                Ok(Some(better)) => {
                    bytes = better;
                    Next::Outside
                }
                Err(stop) => {
                    reason = stop;
                    Next::Done
                }
                Ok(None) => {
                    let scanned;
                    (result, reason, scanned) =
                        self.close(stage, &mut engine, result, &mut observer);
                    state.scanned |= scanned;
                    bytes = units.render(&result);
                    if scanned { Next::Round } else { Next::Done }
                }
            }
        };
        if let Some(err) = run.keeper.save_error.take() {
            return Err(err);
        }
        run.carried = Some(engine.into_carried());
        let best = Best {
            bytes,
            units: result.len(),
            reason,
        };
        Ok((next, best))
    }

    /// The plan of text blocks for `bytes` when the grammar's rounds of
    /// `stage` are over and left it mostly in parse errors, as a run
    /// starting from it would reduce it (so that a second run changes
    /// nothing); `None` otherwise, and once the closing scan has deleted
    /// something: its deletions may leave parse errors a compiler takes
    /// (`f() {}`), which are the result, not a text the grammar cannot read.
    fn blocks_after(
        &self,
        strategy: &Strategy,
        stage: &Plan,
        bytes: &[u8],
        scanned: bool,
    ) -> Result<Option<Plan>> {
        if scanned || !stage.reparses_between_rounds() || stage.fell_back_to_blocks().is_some() {
            return Ok(None);
        }
        let plan = Plan::new(strategy, self.lang, bytes.to_vec())?;
        Ok(Some(plan).filter(|p| p.fell_back_to_blocks().is_some()))
    }

    /// The closing phases of a stage whose rounds are over: the lenient
    /// scan and the literal insides, then the renaming and layout; but a
    /// token the scan deleted may free more on a fresh parse (`println!(x)`
    /// minus `!` is a call whose parentheses may go), and so may an inside
    /// cut (a format string that takes one argument fewer), so then
    /// another round comes first (the returned flag), and a second run
    /// changes nothing.
    fn close(
        &self,
        stage: &Plan,
        engine: &mut Engine<'_>,
        result: Configuration,
        observer: &mut dyn Observer,
    ) -> (Configuration, StopReason, bool) {
        let before = result.clone();
        let (result, reason) =
            stage.run_closing(engine, result, observer, self.formatter, Closing::Lenient);
        let again =
            reason == StopReason::Finished && stage.reparses_between_rounds() && result != before;
        if again || reason != StopReason::Finished {
            return (result, reason, again);
        }
        let (result, reason) =
            stage.run_closing(engine, result, observer, self.formatter, Closing::Finishing);
        (result, reason, false)
    }

    /// Saves a result an outside pass found, as the observer saves the
    /// loop's (`next` is the plan of its text).
    fn keep_outside(&self, next: &Plan, bytes: &[u8], progress: &mut Progress, run: &mut Run<'_>) {
        let mut observer = SaveAndShow {
            keeper: &mut run.keeper,
            progress,
            units: next.units(),
            oracle: self.oracle,
            interrupt: self.limits.interrupt.as_deref(),
            messages: self.messages,
        };
        observer.on_improved(&Configuration::full(next.units().len()), bytes);
    }

    /// The reduce loop for a stage of `stage`, going on from the run so
    /// far, and the stage's units.
    fn engine_for<'p>(&'p self, stage: &'p Plan, run: &mut Run<'_>) -> (Engine<'p>, &'p Units) {
        let settings = self.settings;
        let units = stage.units();
        let filter = if settings.no_syntax_filter {
            None
        } else {
            stage.syntax_filter()
        };
        let engine = Engine::new(units, self.oracle)
            .with_cache(settings.cache)
            .with_jobs(settings.jobs)
            .with_wave(settings.wave)
            .with_recheck(settings.recheck)
            .with_filter(filter)
            .with_limits(run.limits.clone())
            .with_log(self.journal.map(|j| j as &dyn VerdictLog))
            .with_steps(self.steps)
            .with_messages(Some(self.messages));
        let engine = match run.carried.take() {
            Some(c) => engine.with_carried(c),
            None => engine.with_known(std::mem::take(&mut run.known)),
        };
        (engine, units)
    }
}

/// Where the stages of a run stand.
struct StageState {
    /// The plan of the next stage (`None`: the run's first plan).
    plan: Option<Plan>,
    /// Whether the next round runs the tree phase: a round whose tree
    /// phase changed nothing is followed by one without it.
    tree_phase: bool,
    /// Whether the closing scan has deleted something.
    scanned: bool,
}

/// What comes after a stage's rounds ([`Stages::run_stage`]).
enum Next {
    /// Another round, on a fresh parse of the stage's result.
    Round,
    /// The grammar's rounds left the text mostly in parse errors: the
    /// blocks' rounds, as a run starting from it would have them.
    Blocks(Box<Plan>),
    /// An outside pass shrank the result: a new stage on its text.
    Outside,
    /// The run is over.
    Done,
}

/// Oracle tests run so far.
fn tests_of(run: &Run<'_>) -> u64 {
    run.carried
        .as_ref()
        .map_or(0, |c| c.phases.iter().map(|p| p.tests).sum())
}

/// Where improvements go, from stage to stage: the output, the journal,
/// and the re-tests of the best.
struct Keeper<'a> {
    destination: &'a dyn Save,
    journal: Option<&'a Journal>,
    /// The last improvement an earlier run saved, while the run replays
    /// the way to it.
    replaying: Replaying,
    save_error: Option<anyhow::Error>,
    /// While restarting: the best's size (tokens, bytes); only a smaller
    /// result is saved.
    floor: Option<(u32, u64)>,
    retest: Retest,
}

impl Keeper<'_> {
    /// Whether an improvement to `bytes` (`units` units) is to be saved.
    fn worth_saving(&mut self, units: u32, bytes: &[u8]) -> bool {
        let size = (units, bytes.len() as u64);
        if let Some(floor) = self.floor {
            if size >= floor {
                return false;
            }
            self.floor = Some(size);
        }
        self.replaying.worth_saving(bytes)
    }
}

/// `--retest-every`: the best tested again after every `every`
/// improvements; the last result that passed twice.
struct Retest {
    every: u32,
    since: u32,
    /// The last result a re-test confirmed (`None`: the original).
    confirmed: Option<Vec<u8>>,
    /// The original's length, for the message about it.
    original_len: usize,
    /// Thrown when a re-test fails: the loop stops.
    flaky: Arc<AtomicBool>,
    runs: u64,
}

impl Retest {
    /// Counts an improvement to `bytes`, re-testing it when it is due.
    fn improved(
        &mut self,
        bytes: &[u8],
        oracle: &dyn Oracle,
        interrupt: Option<&AtomicBool>,
        messages: &dyn Messages,
    ) {
        self.since += 1;
        if self.every == 0 || self.since < self.every || self.flaky.load(Ordering::SeqCst) {
            return;
        }
        self.since = 0;
        let never = AtomicBool::new(false);
        let config = Configuration::full(0);
        let candidate = Candidate {
            config: &config,
            bytes,
        };
        let watch = interrupt.map_or(Watch::Flag(&never), Watch::Interrupt);
        let Ok(outcome) = oracle.test(&candidate, watch) else {
            return; // could not run: no verdict either way
        };
        if outcome.cancelled {
            return;
        }
        self.runs += 1;
        if outcome.verdict == Verdict::Interesting {
            self.confirmed = Some(bytes.to_vec());
        } else {
            self.flaky.store(true, Ordering::SeqCst);
            messages.say(&format!(
                "reduce: the oracle is flaky: the best result so far ({} bytes) passed once and \
                 failed when tested again; stopping, keeping the last result that passed twice \
                 ({} bytes)\n",
                bytes.len(),
                self.confirmed.as_ref().map_or(self.original_len, Vec::len)
            ));
        }
    }
}

/// Saves every improvement and keeps the display current.
struct SaveAndShow<'a, 'k> {
    keeper: &'a mut Keeper<'k>,
    progress: &'a mut Progress,
    units: &'a Units,
    oracle: &'a dyn Oracle,
    interrupt: Option<&'a AtomicBool>,
    messages: &'a dyn Messages,
}

impl Observer for SaveAndShow<'_, '_> {
    fn on_improved(&mut self, config: &Configuration, bytes: &[u8]) {
        let keeper = &mut *self.keeper;
        if !keeper.worth_saving(config.len(), bytes) {
            return;
        }
        if keeper.save_error.is_none() {
            match keeper.destination.save(bytes) {
                // Only what the output holds is the journal's best: a
                // resumed run writes nothing larger until it passes it.
                Ok(()) => {
                    if let Some(journal) = keeper.journal {
                        journal.committed(bytes);
                    }
                }
                Err(e) => keeper.save_error = Some(e),
            }
        }
        keeper
            .retest
            .improved(bytes, self.oracle, self.interrupt, self.messages);
    }

    fn on_progress(&mut self, phase: &PhaseStats, current: &Configuration) {
        let bytes: u64 = if current.len() == self.units.len() {
            self.units.source().len() as u64
        } else {
            current
                .kept
                .runs()
                .iter()
                .map(|r| (self.units.span(r.end - 1).end - self.units.span(r.start).start) as u64)
                .sum()
        };
        self.progress.update(phase, current.len(), bytes);
        if phase.seconds > 0.0 {
            self.progress.phase_done(phase);
        }
    }
}
