//! A list minimizer run directly over the input's units.
//!
//! This is how `--algo ddmin|drdd|probdd|cdd|wdd` work on bytes, lines and
//! tokens: the elements are the kept units in order, each weighing its byte
//! length (for WDD), and a deletion of elements is a deletion of those units.

use std::sync::Arc;

use crate::configuration::{Configuration, Delta, Proposal};
use crate::policy::{ElemList, ListMinimizer, Policy};

/// A [`Policy`] that hands the kept units to a list minimizer.
#[derive(Clone)]
pub struct FlatPolicy {
    minimizer: Box<dyn ListMinimizer>,
    /// Weight of every unit of the input (indexed by unit).
    unit_weights: Arc<Vec<u64>>,
    elems: ElemList,
}

impl FlatPolicy {
    /// `unit_weights[u]` is unit `u`'s weight; use 1s when weights do not matter.
    pub fn new(minimizer: Box<dyn ListMinimizer>, unit_weights: Arc<Vec<u64>>) -> Self {
        FlatPolicy {
            minimizer,
            unit_weights,
            elems: ElemList::default(),
        }
    }

    fn elems_of(&self, config: &Configuration) -> ElemList {
        let ids: Vec<u32> = config.kept.iter().collect();
        let weights = ids
            .iter()
            .map(|&u| self.unit_weights.get(u as usize).copied().unwrap_or(1))
            .collect();
        ElemList { ids, weights }
    }
}

impl Policy for FlatPolicy {
    fn name(&self) -> String {
        self.minimizer.name()
    }

    fn start_pass(&mut self, config: &Configuration) {
        self.elems = self.elems_of(config);
        self.minimizer.start_pass(&self.elems);
    }

    fn next_proposal(&mut self, _config: &Configuration) -> Option<Proposal> {
        let selection = self.minimizer.next_deletion()?;
        let mut delta = Delta::new();
        for r in selection {
            for p in r {
                let u = self.elems.ids[p as usize];
                delta.push(u..u + 1);
            }
        }
        Some(Proposal::delete(delta))
    }

    fn on_reduced(&mut self, reduced: Option<&Configuration>) -> bool {
        let elems = reduced.map(|c| self.elems_of(c));
        self.minimizer.on_reduced(elems.as_ref())
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}
