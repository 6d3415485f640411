//! The rounds and phases of a stage, run through the engine: a plan
//! (`pipeline.rs`) is data, and this is where its phases meet the engine.
//! The rounds repeat while one changes something (or once, where the text
//! is parsed afresh between rounds), leaving the tree phase out after a
//! round whose tree phase changed nothing; the closing phases run once the
//! rounds are over.

use std::sync::Arc;

use super::{Closing, Plan};
use crate::configuration::Configuration;
use crate::engine::{Engine, StopReason};
use crate::interfaces::{Formatter, Observer, Strictness};
use crate::policy::registry::{self, Entry, Role};

impl Plan {
    /// Runs the phases, once if the plan re-parses between rounds, else
    /// repeated while a round changes something; returns the result, why
    /// it stopped, and whether the tree phase changed anything in the
    /// last round it ran.
    ///
    /// With `tree_phase` false the round leaves out the tree phase; the
    /// caller passes false after a round whose tree phase changed nothing
    /// (on the shared bench such a tree phase, run again after the other
    /// phases' small changes, never found anything, while on the nested
    /// struct it cost 411 tests), and a round repeated here leaves it out
    /// on the same condition. An enabling pass (`Role::Enabler`) runs only
    /// where the round's phases before it changed nothing.
    pub(crate) fn run_rounds(
        &self,
        engine: &mut Engine<'_>,
        start: Configuration,
        observer: &mut dyn Observer,
        mut tree_phase: bool,
    ) -> (Configuration, StopReason, bool) {
        // The syntax filter serves tree policies and the default pipeline; a
        // list algorithm asked for by name sees every candidate, as in the papers.
        let named_list_algo = self.algo.role == Role::List;
        engine.set_filter((!named_list_algo).then_some(Strictness::Strict));
        let mut config = start;
        loop {
            let round_start = config.clone();
            for &phase in &self.phases {
                let skip = match phase.role {
                    Role::Tree => !tree_phase,
                    Role::Enabler => config != round_start,
                    _ => false,
                };
                if skip {
                    continue;
                }
                let before = (phase.role == Role::Tree).then(|| config.clone());
                // What runs next if this phase changes nothing, for the
                // loop to test ahead (built only if it asks).
                let unchanged = config == round_start;
                let at = self.phases.iter().position(|p| std::ptr::eq(*p, phase));
                let later = at.map_or(&[][..], |at| &self.phases[at + 1..]);
                let mut upcoming = later
                    .iter()
                    .filter(|p| match p.role {
                        Role::Tree => tree_phase,
                        Role::Enabler => unchanged,
                        _ => true,
                    })
                    .map(|p| p.policy(&self.context));
                let mut policy = phase.policy(&self.context);
                let (next, reason) = engine.run_then(&mut policy, config, observer, &mut upcoming);
                if let Some(before) = before {
                    tree_phase = next != before;
                }
                if reason != StopReason::Finished {
                    return (next, reason, tree_phase);
                }
                config = next;
            }
            if !self.repeat || self.reparses_between_rounds() || config == round_start {
                return (config, StopReason::Finished, tree_phase);
            }
        }
    }

    /// Runs one part of the closing phases, once the rounds are over. The
    /// format pass first proposes what `formatter` (`--format native`)
    /// makes of the text, if anything.
    pub(crate) fn run_closing(
        &self,
        engine: &mut Engine<'_>,
        mut config: Configuration,
        observer: &mut dyn Observer,
        formatter: Option<&dyn Formatter>,
        part: Closing,
    ) -> (Configuration, StopReason) {
        // The last token pass may leave missing tokens (the parser's
        // insertions) but no text the grammar cannot place; a literal's
        // inside must parse; renamings and layouts are for the oracle
        // alone to judge.
        let phases = self.closing.iter().filter(|p| {
            let lenient_part = matches!(p.role, Role::LenientPass | Role::Finisher);
            lenient_part == (part == Closing::Lenient)
        });
        for &phase in phases {
            let strictness = match phase.role {
                Role::LenientPass => Some(Strictness::MissingTokensFree),
                Role::Finisher => Some(Strictness::Strict),
                _ => None,
            };
            engine.set_filter(strictness);
            let formatted = formatter
                .filter(|_| std::ptr::eq(phase, &registry::FORMAT))
                .and_then(|f| {
                    let commands = self.context.language.map(|l| &l.grammar().formatters);
                    let text = self.context.units.render(&config);
                    f.format(commands.map_or(&[][..], Vec::as_slice), &text)
                });
            let (next, reason) = match formatted {
                Some(text) => {
                    let context = self.context.with_formatted(Arc::from(text));
                    let mut policy = phase.policy(&context);
                    engine.run(&mut policy, config, observer)
                }
                None => self.run_phases(&[phase], engine, config, observer),
            };
            config = next;
            if reason != StopReason::Finished {
                return (config, reason);
            }
        }
        (config, StopReason::Finished)
    }

    /// Runs `phases` in order; stops at the first that does not finish.
    fn run_phases(
        &self,
        phases: &[&Entry],
        engine: &mut Engine<'_>,
        mut config: Configuration,
        observer: &mut dyn Observer,
    ) -> (Configuration, StopReason) {
        for &phase in phases {
            let mut policy = phase.policy(&self.context);
            let (next, reason) = engine.run(&mut policy, config, observer);
            config = next;
            if reason != StopReason::Finished {
                return (config, reason);
            }
        }
        (config, StopReason::Finished)
    }
}
