//! Counters of a run, and the machine-readable `--stats-json` report.
//!
//! The field names written by [`RunReport::to_json`] are a stable interface
//! for pipelines (documented in docs/stats.md); add fields, never rename them.

use serde_json::json;

/// What the reduce loop counted in one phase (one policy run).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PhaseStats {
    pub name: String,
    /// Oracle runs (not cache hits, not syntax rejections).
    pub tests: u64,
    /// Oracle runs that were interesting and committed.
    pub successes: u64,
    pub(crate) cache_hits: u64,
    pub timeouts: u64,
    /// Candidates rejected by the syntax filter without running the oracle.
    pub syntax_rejected: u64,
    /// Oracle runs started speculatively whose result was not needed.
    pub(crate) wasted: u64,
    /// Oracle runs started on the guess that a test still running would
    /// pass (`-j` > 1, when passing tests are the slow ones).
    pub guessed_pass: u64,
    /// Waves tested (`--wave`): batches of independent candidates from one base.
    pub waves: u64,
    /// Proposals committed in merges of two or more.
    pub merged: u64,
    pub seconds: f64,
    pub units_before: u32,
    pub units_after: u32,
}

impl PhaseStats {
    pub fn new(name: impl Into<String>) -> Self {
        PhaseStats {
            name: name.into(),
            ..PhaseStats::default()
        }
    }
}

/// Everything `--stats-json` reports.
#[derive(Clone, Debug, Default)]
pub(crate) struct RunReport {
    pub algo: String,
    pub phases: Vec<PhaseStats>,
    pub units_before: u32,
    pub units_after: u32,
    pub(crate) bytes_before: u64,
    pub bytes_after: u64,
    pub(crate) wall_seconds: f64,
    pub jobs: usize,
    /// The wave width (`--wave`; 1: no waves).
    pub wave: usize,
    pub unit: String,
    pub language: String,
    pub parse_errors: usize,
    /// The grammar left most of the input in parse errors, so it was
    /// reduced as text blocks.
    pub(crate) blocks_fallback: bool,
    pub stop_reason: String,
    /// CPU time of the reducer process itself (user + system), children excluded.
    pub(crate) reducer_cpu_seconds: f64,
    /// `--memory-limit` in bytes, and the tests that ran out of memory under it.
    pub(crate) memory_limit: Option<(u64, u64)>,
    /// Re-tests of the best (`--retest-every`).
    pub(crate) retests: u64,
    /// What `--restart` did, if it ran.
    pub(crate) restart: Option<RestartGain>,
    /// Several files: each one's path and size before and after (`None`: deleted).
    pub(crate) files: Vec<(String, u64, Option<u64>)>,
}

/// Where a run stood when `--restart` began (its fixpoint), and how many
/// restarts ran; the report's totals are where it ended.
#[derive(Clone, Debug)]
pub(crate) struct RestartGain {
    pub(crate) restarts: u32,
    pub(crate) units_before: u32,
    pub(crate) bytes_before: u64,
    pub(crate) tests_before: u64,
}

/// One phase's counters in `--stats-json`.
fn phase_json(p: &PhaseStats) -> serde_json::Value {
    json!({
        "name": p.name,
        "tests": p.tests,
        "successes": p.successes,
        "cache_hits": p.cache_hits,
        "timeouts": p.timeouts,
        "syntax_rejected": p.syntax_rejected,
        "wasted_tests": p.wasted,
        "guessed_pass_tests": p.guessed_pass,
        "waves": p.waves,
        "merged": p.merged,
        "seconds": p.seconds,
        "units_before": p.units_before,
        "units_after": p.units_after,
    })
}

/// CPU seconds (user + system) this process has used so far, children excluded.
pub(crate) fn self_cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes into the struct we pass.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
            return 0.0;
        }
        usage
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

impl RunReport {
    fn total(&self, f: impl Fn(&PhaseStats) -> u64) -> u64 {
        self.phases.iter().map(f).sum()
    }

    /// Oracle runs of the reduce loop (excluding the initial and final checks).
    pub fn oracle_calls(&self) -> u64 {
        self.total(|p| p.tests)
    }

    pub(crate) fn cache_hits(&self) -> u64 {
        self.total(|p| p.cache_hits)
    }

    pub(crate) fn to_json(&self) -> serde_json::Value {
        let mut report = self.counters_json();
        if !self.files.is_empty() {
            report["files"] = self
                .files
                .iter()
                .map(|(path, before, after)| {
                    json!({"path": path, "bytes_before": before, "bytes_after": after})
                })
                .collect();
        }
        report
    }

    fn counters_json(&self) -> serde_json::Value {
        json!({
            "algo": self.algo,
            "oracle_calls": self.oracle_calls(),
            "cache_hits": self.cache_hits(),
            "timeouts": self.total(|p| p.timeouts),
            "syntax_rejected": self.total(|p| p.syntax_rejected),
            "successes": self.total(|p| p.successes),
            "wasted_tests": self.total(|p| p.wasted),
            "guessed_pass_tests": self.total(|p| p.guessed_pass),
            "units_before": self.units_before,
            "units_after": self.units_after,
            "bytes_before": self.bytes_before,
            "bytes_after": self.bytes_after,
            "wall_seconds": self.wall_seconds,
            "jobs": self.jobs,
            "wave": self.wave,
            "waves": self.total(|p| p.waves),
            "merged": self.total(|p| p.merged),
            "unit": self.unit,
            "language": self.language,
            "parse_errors": self.parse_errors,
            "blocks_fallback": self.blocks_fallback,
            "stop_reason": self.stop_reason,
            "reducer_cpu_seconds": self.reducer_cpu_seconds,
            "memory_limit_bytes": self.memory_limit.map(|(bytes, _)| bytes),
            "memory_limit_hits": self.memory_limit.map_or(0, |(_, hits)| hits),
            "retests": self.retests,
            "restart": self.restart.as_ref().map(|r| json!({
                "restarts": r.restarts,
                "units_at_fixpoint": r.units_before,
                "bytes_at_fixpoint": r.bytes_before,
                "oracle_calls_at_fixpoint": r.tests_before,
                "units_gained": r.units_before.saturating_sub(self.units_after),
                "bytes_gained": r.bytes_before.saturating_sub(self.bytes_after),
                "extra_oracle_calls": self.oracle_calls().saturating_sub(r.tests_before),
            })),
            "phases": self.phases.iter().map(phase_json).collect::<Vec<_>>(),
        })
    }
}
