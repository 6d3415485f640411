//! ProbDd (to be written).

use crate::policy::{ElemList, ListMinimizer, Selection};

#[derive(Clone, Debug)]
pub struct ProbDd;

impl ProbDd {
    pub fn new(p0: f64) -> Self {
        let _ = p0;
        ProbDd
    }
}

impl ListMinimizer for ProbDd {
    fn name(&self) -> String {
        "probdd".into()
    }
    fn start_pass(&mut self, _elems: &ElemList) {}
    fn next_deletion(&mut self) -> Option<Selection> {
        None
    }
    fn clone_box(&self) -> Box<dyn ListMinimizer> {
        Box::new(self.clone())
    }
}
