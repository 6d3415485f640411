//! `--format compact`: once reduction is done, the whitespace between tokens
//! is minimized, as a candidate the oracle judges like any other.
//!
//! The policy proposes the compact layout (no line breaks but those that
//! end line comments and `#` lines), then, if the oracle rejects it, the
//! layout that keeps every line break but drops indentation and needless
//! spaces. Whichever passes first is kept; if neither does, the text keeps
//! its original whitespace. Meaning that hangs on whitespace is therefore
//! never changed unless the oracle still passes.

use crate::configuration::{Configuration, Layout, Proposal};
use crate::policy::Policy;

/// Proposes tighter layouts of the whitespace, tightest first.
#[derive(Clone, Debug, Default)]
pub struct Format {
    tried: usize,
}

/// The layouts proposed, in order.
const LAYOUTS: [Layout; 2] = [Layout::Compact, Layout::Lines];

impl Format {
    pub fn new() -> Self {
        Format::default()
    }
}

impl Policy for Format {
    fn name(&self) -> String {
        "format".into()
    }

    fn start_pass(&mut self, _config: &Configuration) {}

    fn next_proposal(&mut self, config: &Configuration) -> Option<Proposal> {
        // A layout tried already, or the current one, is not proposed again.
        while let Some(&layout) = LAYOUTS.get(self.tried) {
            self.tried += 1;
            if layout != config.layout {
                return Some(Proposal::relayout(layout));
            }
        }
        None
    }

    fn on_reduced(&mut self, _reduced: Option<&Configuration>) -> bool {
        false // the first layout that passes is the tightest one that can
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}
