//! Wdd (to be written).

use crate::policy::{ElemList, ListMinimizer, Selection};

#[derive(Clone, Debug)]
pub struct Wdd;

impl Wdd {
    pub fn new() -> Self {
        Wdd
    }
}

impl ListMinimizer for Wdd {
    fn name(&self) -> String {
        "wdd".into()
    }
    fn start_pass(&mut self, _elems: &ElemList) {}
    fn next_deletion(&mut self) -> Option<Selection> {
        None
    }
    fn clone_box(&self) -> Box<dyn ListMinimizer> {
        Box::new(self.clone())
    }
}
