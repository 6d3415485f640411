//! Cdd (to be written).

use crate::policy::{ElemList, ListMinimizer, Selection};

#[derive(Clone, Debug)]
pub struct Cdd;

impl Cdd {
    pub fn new(p0: f64) -> Self {
        let _ = p0;
        Cdd
    }
}

impl ListMinimizer for Cdd {
    fn name(&self) -> String {
        "cdd".into()
    }
    fn start_pass(&mut self, _elems: &ElemList) {}
    fn next_deletion(&mut self) -> Option<Selection> {
        None
    }
    fn clone_box(&self) -> Box<dyn ListMinimizer> {
        Box::new(self.clone())
    }
}
