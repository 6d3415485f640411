//! A list minimizer run directly over the input's units.
//!
//! This is how `--algo ddmin|drdd|probdd|cdd|wdd` work on bytes, lines and
//! tokens: the elements are the kept units in order, each weighing its byte
//! length (for WDD), and a deletion of elements is a deletion of those units.
//!
//! `FlatPolicy::by_lines` groups units instead: an element is a line's
//! kept units (named by the line's first unit, so that learning minimizers
//! see the same element from pass to pass), and deleting it deletes them.
//! The default pipeline reduces text without a grammar by lines, then by
//! tokens: a line pass costs a fraction of the tests a token pass needs to
//! drop the same lines.

use std::sync::Arc;

use crate::bitset::BitSet;
use crate::configuration::{Configuration, Delta, Proposal};
use crate::policy::{ElemList, ListMinimizer, Policy, Selection};

/// A [`Policy`] that hands the kept units to a list minimizer.
#[derive(Clone)]
pub(crate) struct FlatPolicy {
    minimizer: Box<dyn ListMinimizer>,
    /// Weight of every unit of the input (indexed by unit).
    unit_weights: Arc<Vec<u64>>,
    /// Units never proposed for deletion (kept out of the list).
    spared: Option<Arc<BitSet>>,
    /// With [`Self::by_lines`]: the first unit of every line, in order,
    /// then the unit count.
    line_starts: Option<Arc<Vec<u32>>>,
    elems: ElemList,
}

impl FlatPolicy {
    /// `unit_weights[u]` is unit `u`'s weight; use 1s when weights do not matter.
    pub fn new(minimizer: Box<dyn ListMinimizer>, unit_weights: Arc<Vec<u64>>) -> Self {
        FlatPolicy {
            minimizer,
            unit_weights,
            spared: None,
            line_starts: None,
            elems: ElemList::default(),
        }
    }

    /// The same policy over lines: `line_starts` holds the first unit of
    /// every line, in order (unit 0 first), then the unit count. Not
    /// combined with [`Self::sparing`].
    pub(crate) fn by_lines(mut self, line_starts: Arc<Vec<u32>>) -> Self {
        assert!(self.spared.is_none(), "lines with spared units");
        assert!(line_starts.first() == Some(&0), "line starts from unit 0");
        self.line_starts = Some(line_starts);
        self
    }

    /// The units of the line whose first unit is `start`.
    fn line_of(lines: &[u32], start: u32) -> std::ops::Range<u32> {
        start..lines[lines.partition_point(|&s| s <= start)]
    }

    /// The same policy, never deleting any of `units`.
    pub(crate) fn sparing(mut self, units: Arc<BitSet>) -> Self {
        self.spared = Some(units);
        self
    }

    /// The units of the elements `selection` picks, as a deletion.
    fn deletion(&self, selection: Selection) -> Proposal {
        let mut delta = Delta::new();
        for r in selection {
            for p in r {
                let u = self.elems.ids[p as usize];
                match &self.line_starts {
                    Some(lines) => delta.push(Self::line_of(lines, u)),
                    None => delta.push(u..u + 1),
                }
            }
        }
        Proposal::delete(delta)
    }

    fn elems_of(&self, config: &Configuration) -> ElemList {
        if let Some(lines) = &self.line_starts {
            let mut elems = ElemList::default();
            for u in config.kept.iter() {
                let line = lines[lines.partition_point(|&s| s <= u) - 1];
                let weight = self.unit_weights.get(u as usize).copied().unwrap_or(1);
                if elems.ids.last() == Some(&line) {
                    *elems.weights.last_mut().expect("a weight per id") += weight;
                } else {
                    elems.ids.push(line);
                    elems.weights.push(weight);
                }
            }
            return elems;
        }
        let spared = |u: u32| self.spared.as_ref().is_some_and(|s| s.contains(u));
        let ids: Vec<u32> = config.kept.iter().filter(|&u| !spared(u)).collect();
        let weights = ids
            .iter()
            .map(|&u| self.unit_weights.get(u as usize).copied().unwrap_or(1))
            .collect();
        ElemList { ids, weights }
    }
}

impl Policy for FlatPolicy {
    fn name(&self) -> String {
        match self.line_starts {
            Some(_) => format!("{}-lines", self.minimizer.name()),
            None => self.minimizer.name(),
        }
    }

    fn start_pass(&mut self, config: &Configuration) {
        self.elems = self.elems_of(config);
        self.minimizer.start_pass(&self.elems);
    }

    fn next_proposal(&mut self, _config: &Configuration) -> Option<Proposal> {
        let selection = self.minimizer.next_deletion()?;
        Some(self.deletion(selection))
    }

    fn on_reduced(&mut self, reduced: Option<&Configuration>) -> bool {
        let elems = reduced.map(|c| self.elems_of(c));
        self.minimizer.on_reduced(elems.as_ref())
    }

    fn next_wave(&mut self, _config: &Configuration, k: usize) -> Vec<Proposal> {
        let selections = self.minimizer.next_wave(k);
        selections.into_iter().map(|s| self.deletion(s)).collect()
    }

    fn on_merged(&mut self, passed: &[bool], merged: &[bool], config: &Configuration) -> bool {
        let elems = self.elems_of(config);
        self.minimizer.on_merged(passed, merged, &elems)
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::engine::Engine;
    use crate::interfaces::{Candidate, Quiet, Verdict};
    use crate::policy::drdd::DrDd;
    use crate::units::Units;

    #[test]
    fn by_lines_every_proposal_deletes_whole_lines() {
        let units = Units::from_pieces(&["a ", "b\n", "c ", "d\n", "e\n", "f ", "g\n"]);
        let lines = Arc::new(vec![0, 2, 4, 5, 7]);
        let seen = Mutex::new(Vec::new());
        // Interesting while `d` is there: its line stays, whole.
        let oracle = |c: &Candidate<'_>| {
            let kept: Vec<u32> = (0..7).filter(|&u| c.keeps(u)).collect();
            let interesting = kept.contains(&3);
            seen.lock().unwrap().push(kept);
            if interesting {
                Verdict::Interesting
            } else {
                Verdict::NotInteresting
            }
        };
        let mut engine = Engine::new(&units, &oracle).with_cache(false);
        let policy = FlatPolicy::new(Box::new(DrDd::new(None)), Arc::new(vec![1; 7]))
            .by_lines(Arc::clone(&lines));
        assert_eq!(policy.name(), "drdd-lines");
        let mut policy: Box<dyn Policy> = Box::new(policy);
        let (result, _) = engine.run(&mut policy, Configuration::full(7), &mut Quiet);
        assert_eq!(result.kept.iter().collect::<Vec<_>>(), vec![2, 3]);
        let seen = seen.into_inner().unwrap();
        assert!(!seen.is_empty());
        let line_of = |u: u32| lines.partition_point(|&s| s <= u) - 1;
        for kept in seen {
            // A line is kept whole or not at all.
            for u in 0..7u32 {
                let line = line_of(u);
                let whole = (0..7u32).filter(|&v| line_of(v) == line);
                assert!(
                    whole
                        .clone()
                        .all(|v| kept.contains(&v) == kept.contains(&u)),
                    "{kept:?}"
                );
            }
        }
    }

    #[test]
    fn spared_units_are_never_proposed_for_deletion() {
        let units = Units::from_pieces(&["a", "(", "b", ")", "c", "{", "}"]);
        let spared = Arc::new(BitSet::from_units(7, [1, 3, 5, 6]));
        let seen = Mutex::new(Vec::new());
        // Everything is interesting: whatever may go, goes.
        let oracle = |c: &Candidate<'_>| {
            seen.lock()
                .unwrap()
                .push((0..7).filter(|&u| c.keeps(u)).collect::<Vec<_>>());
            Verdict::Interesting
        };
        let mut engine = Engine::new(&units, &oracle).with_cache(false);
        let mut policy: Box<dyn Policy> = Box::new(
            FlatPolicy::new(Box::new(DrDd::single_scans(Some(1))), Arc::new(vec![1; 7]))
                .sparing(Arc::clone(&spared)),
        );
        let (result, _) = engine.run(&mut policy, Configuration::full(7), &mut Quiet);
        assert_eq!(result.kept.iter().collect::<Vec<_>>(), vec![1, 3, 5, 6]);
        let seen = seen.into_inner().unwrap();
        assert_eq!(seen.len(), 3, "one test per unspared unit: {seen:?}");
        for kept in seen {
            assert!(spared.iter().all(|u| kept.contains(&u)), "{kept:?}");
        }
    }
}
