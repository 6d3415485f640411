//! What a person at a terminal sees while reducing: the only user of indicatif.
//!
//! A one-line display on stderr redrawn in place (phase, size now against the
//! start, tests, cache hits, syntax rejections, rate, elapsed time), hidden
//! when stderr is not a terminal or with `-q`, and a final summary line.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::stats::PhaseStats;

/// The live display.
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    units_start: u32,
    bytes_start: u64,
    /// Totals of phases already finished.
    earlier: PhaseStats,
    last_draw: Instant,
}

impl Progress {
    /// A display on stderr; hidden when `quiet` or stderr is not a terminal.
    pub fn new(quiet: bool, units_start: u32, bytes_start: u64) -> Self {
        let visible = !quiet && std::io::stderr().is_terminal();
        let bar = if visible {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(8));
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                    .expect("valid template"),
            );
            bar.enable_steady_tick(Duration::from_millis(125));
            bar
        } else {
            ProgressBar::hidden()
        };
        Progress {
            bar,
            started: Instant::now(),
            units_start,
            bytes_start,
            earlier: PhaseStats::default(),
            last_draw: Instant::now() - Duration::from_secs(1),
        }
    }

    /// Prints a line above the display (or plainly when it is hidden).
    pub fn println(&self, line: &str) {
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    /// Redraws with the current phase's counters.
    pub fn update(&mut self, phase: &PhaseStats, units_now: u32, bytes_now: u64) {
        if self.bar.is_hidden() || self.last_draw.elapsed() < Duration::from_millis(100) {
            return;
        }
        self.last_draw = Instant::now();
        let tests = self.earlier.tests + phase.tests;
        let rate = tests as f64 / self.started.elapsed().as_secs_f64().max(1e-3);
        self.bar.set_message(format!(
            "{}: {} → {} units ({:.1}%), {} → {} bytes, {} tests, {} cached, {} rejected by syntax, {:.1} tests/s",
            phase.name,
            self.units_start,
            units_now,
            percent(units_now as u64, self.units_start as u64),
            self.bytes_start,
            bytes_now,
            tests,
            self.earlier.cache_hits + phase.cache_hits,
            self.earlier.syntax_rejected + phase.syntax_rejected,
            rate,
        ));
    }

    /// A phase ended: fold its counters into the totals.
    pub fn phase_done(&mut self, phase: &PhaseStats) {
        self.earlier.tests += phase.tests;
        self.earlier.cache_hits += phase.cache_hits;
        self.earlier.syntax_rejected += phase.syntax_rejected;
    }

    /// Removes the display.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// `now` as a percentage of `start`.
pub fn percent(now: u64, start: u64) -> f64 {
    if start == 0 {
        100.0
    } else {
        now as f64 * 100.0 / start as f64
    }
}
