//! The outside passes: candidates from outside the policies, tried when a
//! stage's rounds reach their fixpoint. `--reduce-with` reducers rewrite a
//! copy of the best in place, `--propose-with` commands print candidates,
//! `--llm-url` asks a chat model (`llm.rs`); the processes are started by
//! the oracle module (`oracle/outside.rs`).
//!
//! Nothing from outside is trusted: a candidate is kept only if it is
//! smaller (in bytes) than the best and the engine judges it interesting
//! ([`Engine::first_passing`]: the cache, the syntax filter, the oracle,
//! `--recheck`). A
//! command that fails (a crash, a hang past the oracle's timeout), gives
//! nothing smaller, or a model that cannot be reached, changes nothing and
//! is said once per command.

use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

use crate::engine::{Engine, StopReason};
use crate::interfaces::{Messages, Watch};
use crate::oracle::{Outside, ScriptOracle, split_proposals};
use crate::settings::Settings;
use crate::stats::PhaseStats;

/// The outside passes a run was asked for.
pub(crate) struct Passes<'a> {
    settings: &'a Settings,
    oracle: &'a ScriptOracle,
    messages: &'a dyn Messages,
    interrupt: Option<&'a AtomicBool>,
    /// What was said already (each problem of each command once).
    said: Mutex<HashSet<String>>,
}

/// Where a pass's candidates came from, for its messages.
struct Source<'s> {
    /// The flag, e.g. `--reduce-with`.
    flag: &'static str,
    /// The command or URL.
    what: &'s str,
}

impl<'a> Passes<'a> {
    pub(crate) fn new(
        settings: &'a Settings,
        oracle: &'a ScriptOracle,
        messages: &'a dyn Messages,
        interrupt: Option<&'a AtomicBool>,
    ) -> Self {
        Passes {
            settings,
            oracle,
            messages,
            interrupt,
            said: Mutex::default(),
        }
    }

    /// Runs every outside pass on `bytes`, each on the best so far; the
    /// new best if one shrank it. `Err` when a limit or fault stops the run.
    pub(crate) fn run(
        &self,
        engine: &mut Engine<'_>,
        bytes: &[u8],
    ) -> Result<Option<Vec<u8>>, StopReason> {
        let never = AtomicBool::new(false);
        let cancel = Watch::Flag(self.interrupt.unwrap_or(&never));
        let mut best = bytes.to_vec();
        let mut improved = false;
        for command in &self.settings.reduce_with {
            let source = Source {
                flag: "--reduce-with",
                what: command,
            };
            let given = self.oracle.reduce_with(command, &best, cancel);
            let candidates = self.candidates(&source, given.map(|o| o.map(|b| vec![b])));
            improved |= self.try_all(engine, "reduce-with", &source, candidates, &mut best)?;
        }
        for command in &self.settings.propose_with {
            let source = Source {
                flag: "--propose-with",
                what: command,
            };
            let given = self.oracle.propose_with(command, &best, cancel);
            let candidates =
                self.candidates(&source, given.map(|o| o.map(|b| split_proposals(&b))));
            improved |= self.try_all(engine, "propose-with", &source, candidates, &mut best)?;
        }
        if let Some(endpoint) = &self.settings.llm {
            let source = Source {
                flag: "--llm-url",
                what: &endpoint.url,
            };
            let timeout = self.oracle.timeout().max(crate::llm::MIN_TIMEOUT);
            let candidates = match crate::llm::propose(endpoint, &best, timeout) {
                Ok(candidates) => candidates,
                Err(e) => {
                    self.say_once(&source, &format!("{e:#}"));
                    Vec::new()
                }
            };
            improved |= self.try_all(engine, "llm", &source, candidates, &mut best)?;
        }
        Ok(improved.then_some(best))
    }

    /// The candidates an outside command gave, its failure said once.
    fn candidates(
        &self,
        source: &Source<'_>,
        given: anyhow::Result<Outside<Vec<Vec<u8>>>>,
    ) -> Vec<Vec<u8>> {
        match given {
            Ok(Outside::Gave(candidates)) => candidates,
            Ok(Outside::Failed(exit)) => {
                self.say_once(source, &format!("failed ({exit}); it changes nothing"));
                Vec::new()
            }
            Err(e) => {
                self.say_once(source, &format!("could not run: {e:#}"));
                Vec::new()
            }
        }
    }

    /// Judges `candidates`, smallest first, and makes the first
    /// interesting one smaller than `best` the best; whether one was.
    fn try_all(
        &self,
        engine: &mut Engine<'_>,
        pass: &str,
        source: &Source<'_>,
        mut candidates: Vec<Vec<u8>>,
        best: &mut Vec<u8>,
    ) -> Result<bool, StopReason> {
        let given = candidates.len();
        if candidates.iter().any(|c| c.len() > best.len()) {
            self.say_once(source, "gave a result larger than its input; ignored");
        }
        candidates.retain(|c| c.len() < best.len());
        candidates.sort_by_key(Vec::len);
        candidates.dedup();
        let mut phase = PhaseStats::new(pass);
        let judged = engine.first_passing(candidates, &mut phase);
        if given > 0 || judged.is_err() {
            engine.phases.push(phase);
        }
        match judged? {
            Some(found) => {
                *best = found;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Says `what` happened to `source`, the first time only.
    fn say_once(&self, source: &Source<'_>, what: &str) {
        let line = format!("reduce: {} {}: {what}\n", source.flag, source.what);
        let mut said = self.said.lock().unwrap_or_else(|e| e.into_inner());
        if said.insert(line.clone()) {
            self.messages.say(&line);
        }
    }
}
