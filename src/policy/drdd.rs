//! DrDd (to be written).

use crate::policy::{ElemList, ListMinimizer, Selection};

#[derive(Clone, Debug)]
pub struct DrDd;

impl DrDd {
    pub fn new(restarts: Option<u32>) -> Self {
        let _ = restarts;
        DrDd
    }
}

impl ListMinimizer for DrDd {
    fn name(&self) -> String {
        "drdd".into()
    }
    fn start_pass(&mut self, _elems: &ElemList) {}
    fn next_deletion(&mut self) -> Option<Selection> {
        None
    }
    fn clone_box(&self) -> Box<dyn ListMinimizer> {
        Box::new(self.clone())
    }
}
