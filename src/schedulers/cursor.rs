//! The policy protocol's control flow over one copy of a policy: start a
//! pass, ask for proposals, tell the policy how the pass ended. The
//! schedulers drive one; the engine's copies of a scheduler, run ahead on
//! guesses, each hold their own.

use std::sync::Arc;

use crate::configuration::{Configuration, Proposal};
use crate::policy::Policy;

/// The serial loop's position in a phase, on its own copy of the policy.
pub struct Cursor {
    policy: Box<dyn Policy>,
    /// The configuration the current pass works on (the best so far on
    /// this branch of outcomes).
    base: Arc<Configuration>,
    in_pass: bool,
    finished: bool,
}

impl Clone for Cursor {
    fn clone(&self) -> Self {
        Cursor {
            policy: self.policy.clone_box(),
            base: Arc::clone(&self.base),
            in_pass: self.in_pass,
            finished: self.finished,
        }
    }
}

impl Cursor {
    /// A phase about to start on `base`.
    pub fn new(policy: Box<dyn Policy>, base: Arc<Configuration>) -> Self {
        Cursor {
            policy,
            base,
            in_pass: false,
            finished: false,
        }
    }

    /// The next candidate the serial loop would test, given that the
    /// previous one (if any) failed; `None` when the phase is over on this
    /// branch. Ends passes and starts new ones as the serial loop does.
    pub fn next_candidate(&mut self) -> Option<Configuration> {
        while !self.finished {
            if !self.in_pass {
                self.policy.start_pass(&self.base);
                self.in_pass = true;
            }
            match self.policy.next_proposal(&self.base) {
                // A proposal that removes nothing cannot be progress.
                Some(proposal) => {
                    if let Some(candidate) = self.base.apply(&proposal) {
                        return Some(candidate);
                    }
                }
                None => {
                    self.in_pass = false;
                    self.finished = !self.policy.on_reduced(None);
                }
            }
        }
        None
    }

    /// The policy's next wave (`--wave`): up to `k` independent proposals
    /// from the base, as [`Policy::next_wave`] makes them, each with its
    /// candidate (`None` for one that changes nothing, which counts as
    /// failed); `None` when the phase is over on this branch. Ends passes
    /// and starts new ones as [`Self::next_candidate`] does.
    pub fn next_wave(&mut self, k: usize) -> Option<Wave> {
        while !self.finished {
            if !self.in_pass {
                self.policy.start_pass(&self.base);
                self.in_pass = true;
            }
            let proposals = self.policy.next_wave(&self.base, k.max(1));
            if proposals.is_empty() {
                self.in_pass = false;
                self.finished = !self.policy.on_reduced(None);
                continue;
            }
            let candidates: Vec<_> = proposals.iter().map(|p| self.base.apply(p)).collect();
            // A wave that changes nothing failed whole: ask again.
            if candidates.iter().any(Option::is_some) {
                return Some(Wave {
                    proposals,
                    candidates,
                });
            }
        }
        None
    }

    /// The candidate applying the `chosen` proposals of `wave` (the last
    /// wave) together, as the policy merges them (unmarking in `chosen`
    /// those it leaves out); `None` if it changes nothing.
    pub fn merged(&self, wave: &Wave, chosen: &mut [bool]) -> Option<Configuration> {
        let proposal = self.policy.merge(&self.base, &wave.proposals, chosen);
        self.base.apply(&proposal)
    }

    /// What the loop does when a merge of the last wave is committed: the
    /// pass ends with it (the policy hears which proposals passed and
    /// which are in it), and it becomes the base.
    pub fn commit_merged(&mut self, passed: &[bool], merged: &[bool], config: Arc<Configuration>) {
        self.in_pass = false;
        self.finished = !self.policy.on_merged(passed, merged, &config);
        self.base = config;
    }

    /// What the serial loop does when the last candidate passed: the pass
    /// ends with it, and it becomes the base.
    pub fn commit(&mut self, candidate: Arc<Configuration>) {
        self.in_pass = false;
        self.finished = !self.policy.on_reduced(Some(&candidate));
        self.base = candidate;
    }

    /// The configuration proposals are made from.
    pub fn base(&self) -> &Configuration {
        &self.base
    }

    /// The same, shared.
    pub fn shared_base(&self) -> Arc<Configuration> {
        Arc::clone(&self.base)
    }

    pub fn into_policy(self) -> Box<dyn Policy> {
        self.policy
    }
}

/// Independent proposals from one base ([`Cursor::next_wave`]).
#[derive(Clone)]
pub struct Wave {
    pub proposals: Vec<Proposal>,
    /// Each proposal applied to the base (`None`: it changes nothing).
    pub candidates: Vec<Option<Configuration>>,
}
