//! The pass rates the waves decide from: the verdicts of the run's last
//! settled candidates, and whether the last merges' unions passed. They
//! are part of a [`super::waves::Waves`] scheduler's state: settled in the
//! order the scheduler defines, never in the order tests finish, so that
//! what the waves decide depends on the verdicts alone.

use std::collections::VecDeque;

/// How many settled verdicts [`PassRates`] remembers.
const MEMORY: usize = 64;

/// The verdicts of the run's last settled candidates (cache hits and
/// syntax rejections too, so that a resumed run, which finds its tests in
/// the cache, decides as the run it resumes did).
#[derive(Clone, Debug, Default)]
pub struct PassRates {
    recent: VecDeque<bool>,
    /// Whether the last merges' unions passed.
    unions: VecDeque<bool>,
}

/// How many merges' unions [`PassRates`] remembers.
const UNIONS: usize = 8;

impl PassRates {
    /// Counts a merge's union that passed or failed.
    pub fn record_union(&mut self, passed: bool) {
        if self.unions.len() == UNIONS {
            self.unions.pop_front();
        }
        self.unions.push_back(passed);
    }

    /// Whether at least a third of the recent unions failed: a merge then
    /// tests the prefixes of what passed along with the union, so that
    /// one that fails costs no batch more.
    pub fn unions_fail(&self) -> bool {
        let failed = self.unions.iter().filter(|p| !**p).count();
        3 * failed >= self.unions.len().max(1)
    }

    /// Counts a settled candidate's verdict.
    pub fn record(&mut self, passed: bool) {
        if self.recent.len() == MEMORY {
            self.recent.pop_front();
        }
        self.recent.push_back(passed);
    }

    /// The share of recent candidates that passed, with one pass and one
    /// failure assumed (one half before anything is known).
    fn pass_share(&self) -> f64 {
        let passed = self.recent.iter().filter(|p| **p).count();
        (passed as f64 + 1.0) / (self.recent.len() as f64 + 2.0)
    }

    /// Whether `k` (at least 2) independent proposals are worth a wave at
    /// width `width` rather than a chain: they fill half the width, or one
    /// of them is expected to pass.
    pub fn favours_wave(&self, k: usize, width: usize) -> bool {
        2 * k >= width || k as f64 * self.pass_share() >= 1.0
    }

    /// The share of recent unions that passed, with one pass and one
    /// failure assumed: how likely the next union is to pass.
    pub fn union_share(&self) -> f64 {
        let passed = self.unions.iter().filter(|p| **p).count();
        (passed as f64 + 1.0) / (self.unions.len() as f64 + 2.0)
    }
}
