//! Policies: what to propose next, and when to stop.
//!
//! The reduce loop (`crate::reducer`) owns the oracle, the cache and the best
//! result; a [`Policy`] only proposes and learns. A pass starts with
//! [`Policy::start_pass`]; each call to [`Policy::next_proposal`] yields one
//! proposal, and *being asked for the next one means the previous one was not
//! interesting*. When a proposal is interesting, or the policy runs out, the
//! loop calls [`Policy::on_reduced`], which decides whether to go on.
//!
//! Policies are plain state machines that can be cloned ([`Policy::clone_box`]):
//! the parallel executor tests proposals ahead on a clone and, when proposal
//! `k` wins, continues from a snapshot taken right after proposal `k` was
//! made. That is exactly the state the serial loop would be in, so `-j N`
//! commits the same steps as `-j 1`.
//!
//! List minimizers ([`ListMinimizer`]) are the same protocol over an abstract
//! list of elements (units, or tree nodes); [`flat::FlatPolicy`] runs one over
//! the units directly, and the tree policies run them over nodes.

pub mod cdd;
pub mod ddmin;
pub mod drdd;
pub mod flat;
pub mod probdd;
pub mod wdd;

use std::ops::Range;

use crate::configuration::{Configuration, Proposal};

/// A reduction strategy over the units of one input.
pub trait Policy: Send {
    /// A short name for progress and stats, e.g. `hdd+probdd`.
    fn name(&self) -> String;

    /// A pass begins over `config` (the current best).
    fn start_pass(&mut self, config: &Configuration);

    /// The next proposal of this pass, or `None` when the pass has nothing
    /// more. Calling it again means the previous proposal failed.
    fn next_proposal(&mut self, config: &Configuration) -> Option<Proposal>;

    /// The pass ended: `reduced` is the new configuration when its last
    /// proposal was interesting. Returns whether to run another pass.
    fn on_reduced(&mut self, reduced: Option<&Configuration>) -> bool {
        reduced.is_some()
    }

    /// A copy of this policy's whole state (for speculative execution).
    fn clone_box(&self) -> Box<dyn Policy>;
}

impl Clone for Box<dyn Policy> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The elements a list minimizer works on in one pass, in their fixed order.
///
/// `ids` identify elements across passes (a unit index, a node id); the
/// order of surviving elements never changes between passes. `weights` are
/// only read by weight-aware minimizers (WDD).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ElemList {
    pub ids: Vec<u32>,
    pub weights: Vec<u64>,
}

impl ElemList {
    /// Elements that all weigh 1.
    pub fn unweighted(ids: Vec<u32>) -> Self {
        let weights = vec![1; ids.len()];
        ElemList { ids, weights }
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

/// A subset of a pass's elements, as sorted disjoint ranges of positions
/// into that pass's [`ElemList`].
pub type Selection = Vec<Range<u32>>;

/// Sorts and merges positions into a [`Selection`].
pub fn selection_of(mut positions: Vec<u32>) -> Selection {
    positions.sort_unstable();
    positions.dedup();
    let mut out: Selection = Vec::new();
    for p in positions {
        match out.last_mut() {
            Some(r) if r.end == p => r.end += 1,
            _ => out.push(p..p + 1),
        }
    }
    out
}

/// The positions `0..len` not in `selection` (which must be sorted).
pub fn complement(selection: &[Range<u32>], len: u32) -> Selection {
    let mut out = Vec::new();
    let mut at = 0;
    for r in selection {
        if r.start > at {
            out.push(at..r.start);
        }
        at = at.max(r.end);
    }
    if at < len {
        out.push(at..len);
    }
    out
}

/// A list minimizer: the [`Policy`] protocol over an abstract element list.
pub trait ListMinimizer: Send {
    /// A short name, e.g. `ddmin`.
    fn name(&self) -> String;

    /// A pass begins over these elements.
    fn start_pass(&mut self, elems: &ElemList);

    /// The next subset of the pass's elements to delete (never empty), or
    /// `None`. Calling it again means the previous deletion failed.
    fn next_deletion(&mut self) -> Option<Selection>;

    /// The pass ended; `reduced` holds the surviving elements when its last
    /// deletion was interesting. Returns whether this list is not yet minimal.
    fn on_reduced(&mut self, reduced: Option<&ElemList>) -> bool {
        reduced.is_some()
    }

    /// A copy of the whole state.
    fn clone_box(&self) -> Box<dyn ListMinimizer>;
}

impl Clone for Box<dyn ListMinimizer> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The list minimizers, by command-line name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Minimizer {
    DdMin,
    DrDd,
    ProbDd,
    Cdd,
    Wdd,
}

/// Settings shared by the list minimizers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MinimizerSettings {
    /// Prior probability that an element is essential (ProbDD, CDD).
    pub p0: f64,
    /// Dr. DD's budget of single-element scans (`None`: until a scan changes nothing).
    pub restarts: Option<u32>,
}

impl Default for MinimizerSettings {
    fn default() -> Self {
        MinimizerSettings {
            p0: 0.1,
            restarts: None,
        }
    }
}

impl Minimizer {
    pub const ALL: [Minimizer; 5] = [
        Minimizer::DdMin,
        Minimizer::DrDd,
        Minimizer::ProbDd,
        Minimizer::Cdd,
        Minimizer::Wdd,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Minimizer::DdMin => "ddmin",
            Minimizer::DrDd => "drdd",
            Minimizer::ProbDd => "probdd",
            Minimizer::Cdd => "cdd",
            Minimizer::Wdd => "wdd",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Minimizer::ALL.into_iter().find(|m| m.name() == name)
    }

    /// A fresh minimizer of this kind.
    pub fn build(self, settings: &MinimizerSettings) -> Box<dyn ListMinimizer> {
        match self {
            Minimizer::DdMin => Box::new(ddmin::DdMin::new()),
            Minimizer::DrDd => Box::new(drdd::DrDd::new(settings.restarts)),
            Minimizer::ProbDd => Box::new(probdd::ProbDd::new(settings.p0)),
            Minimizer::Cdd => Box::new(cdd::Cdd::new(settings.p0)),
            Minimizer::Wdd => Box::new(wdd::Wdd::new()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selections_are_sorted_merged_and_complemented() {
        let s = selection_of(vec![5, 1, 2, 9, 2]);
        assert_eq!(s, vec![1..3, 5..6, 9..10]);
        assert_eq!(complement(&s, 11), vec![0..1, 3..5, 6..9, 10..11]);
        assert_eq!(complement(&[], 3), vec![0..3]);
        assert_eq!(complement(&[0..3], 3), vec![]);
    }
}
