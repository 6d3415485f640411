//! The reduction itself: the plan's rounds through the reduce loop, stage
//! after stage, with every improvement saved and shown as it comes.
//!
//! A stage is one parse of the text: the default pipeline on a grammar
//! parses its result again after each round that changed it, and runs the
//! next round on the new tree; the loop's cache, counters and stats go on
//! from stage to stage ([`Carried`]).
//!
//! With a journal (`journal.rs`) every verdict and improvement is written to
//! it; a resumed run starts with the journal's verdicts in the cache, and
//! while it replays the earlier run (every test a cache hit) it saves
//! nothing larger than the result the earlier run had saved.

use anyhow::Result;

use crate::cache::key_of;
use crate::configuration::Configuration;
use crate::interfaces::{Messages, Observer, Oracle, VerdictLog};
use crate::journal::{Journal, Resumed};
use crate::languages::Lang;
use crate::output::Save;
use crate::pipeline::Plan;
use crate::progress::Progress;
use crate::reducer::{Carried, Limits, Reducer, StopReason};
use crate::settings::Settings;
use crate::stats::PhaseStats;
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
}

/// What the stages left: the result, its unit count, why the run stopped,
/// and the reducer's state (stats, recheck failures).
pub(crate) struct Reduced {
    pub(crate) bytes: Vec<u8>,
    pub(crate) units: u32,
    pub(crate) reason: StopReason,
    pub(crate) reducer: Carried,
}

impl Stages<'_> {
    /// Reduces `source` as `plan` says, one stage per parse of the text:
    /// the default pipeline parses its result again after each round that
    /// changed it (see `Plan::reparses_between_rounds`), and the reducer's
    /// cache, counters and stats go on from stage to stage. `resumed` is
    /// what a journal kept of an earlier run of the same command;
    /// `carried`, what an earlier reduction of the same run handed on.
    pub(crate) fn run_stages(
        &self,
        plan: &Plan,
        source: &[u8],
        progress: &mut Progress,
        resumed: Option<Resumed>,
        mut carried: Option<Carried>,
    ) -> Result<Reduced> {
        let (mut known, mut replaying) = match resumed {
            Some(r) => (r.verdicts, r.best),
            None => (Vec::new(), None),
        };
        let settings = self.settings;
        let mut reparsed: Option<Plan> = None;
        let mut stage_text = source.to_vec();
        // A round's tree phase runs while the last one changed something.
        let mut tree_phase = true;
        loop {
            let stage = reparsed.as_ref().unwrap_or(plan);
            let stage_units = stage.units();
            let mut observer = SaveAndShow {
                destination: self.destination,
                progress: &mut *progress,
                units: stage_units,
                save_error: None,
                journal: self.journal,
                replaying,
            };
            let filter = if settings.no_syntax_filter {
                None
            } else {
                stage.syntax_filter()
            };
            let mut reducer = Reducer::new(stage_units, self.oracle)
                .with_cache(settings.cache)
                .with_jobs(settings.jobs)
                .with_recheck(settings.recheck)
                .with_filter(filter)
                .with_limits(self.limits.clone())
                .with_log(self.journal.map(|j| j as &dyn VerdictLog))
                .with_messages(Some(self.messages));
            reducer = match carried.take() {
                Some(c) => reducer.with_carried(c),
                None => reducer.with_known(std::mem::take(&mut known)),
            };
            let full = Configuration::full(stage_units.len());
            let (mut result, mut reason, tree_changed) =
                stage.run_rounds(&mut reducer, full, &mut observer, tree_phase);
            tree_phase = tree_changed;
            let mut bytes = stage_units.render(&result);
            let again = reason == StopReason::Finished
                && stage.reparses_between_rounds()
                && bytes != stage_text;
            if !again && reason == StopReason::Finished {
                (result, reason) = stage.run_closing(&mut reducer, result, &mut observer);
                bytes = stage_units.render(&result);
            }
            if let Some(err) = observer.save_error.take() {
                return Err(err);
            }
            replaying = observer.replaying;
            let state = reducer.into_carried();
            if !again {
                return Ok(Reduced {
                    bytes,
                    units: result.len(),
                    reason,
                    reducer: state,
                });
            }
            carried = Some(state);
            let next = Plan::new(&settings.strategy, self.lang, bytes.clone())?;
            reparsed = Some(next.for_a_later_round());
            stage_text = bytes;
        }
    }
}

/// Saves every improvement and keeps the display current.
struct SaveAndShow<'a> {
    destination: &'a dyn Save,
    progress: &'a mut Progress,
    units: &'a Units,
    save_error: Option<anyhow::Error>,
    journal: Option<&'a Journal>,
    /// The size and hash of the last improvement an earlier run saved,
    /// while the run replays the way to it.
    replaying: Option<(u64, u128)>,
}

impl Observer for SaveAndShow<'_> {
    fn on_improved(&mut self, _config: &Configuration, bytes: &[u8]) {
        if let Some((size, key)) = self.replaying {
            let reached = key_of(bytes) == key;
            if reached || (bytes.len() as u64) < size {
                self.replaying = None;
            }
            if reached || (bytes.len() as u64) >= size {
                return; // the output already holds it, or a better one
            }
        }
        if self.save_error.is_none()
            && let Err(e) = self.destination.save(bytes)
        {
            self.save_error = Some(e);
        }
        if let Some(journal) = self.journal {
            journal.committed(bytes);
        }
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
