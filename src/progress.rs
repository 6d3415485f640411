//! What a person at a terminal sees while reducing: the only user of indicatif.
//!
//! One line on stderr, redrawn in place: elapsed time, phase, size now against
//! the start (bytes and units, with %), tests run and their rate, cache hits,
//! and, once there are any, syntax rejections and timeouts. Parts that do not
//! fit the terminal's width are left out, least useful first, so the line
//! never wraps. The display is hidden when stderr is not a terminal, when
//! `TERM=dumb`, and with `-q`; the final summary line is printed by `app`.
//!
//! indicatif pads its line to the full width it is given, which leaves the
//! cursor at the right margin: the `^C` a terminal echoes on Ctrl-C would then
//! wrap to a new line, and clearing the display would clear that line instead
//! of the display's. So the display draws through [`StderrTerm`], which
//! reports the width two columns short.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

use crate::interfaces::Messages;
use crate::stats::PhaseStats;

/// Columns kept free at the right margin, for the terminal's echo of `^C`.
const ECHO_ROOM: u16 = 2;
/// The width of the template's `{spinner} {elapsed_precise} ` part.
const PREFIX_WIDTH: usize = 11;

/// The live display.
pub(crate) struct Progress {
    bar: ProgressBar,
    started: Instant,
    units_start: u32,
    bytes_start: u64,
    /// Totals of phases already finished.
    earlier: PhaseStats,
}

impl Progress {
    /// A display on stderr; hidden when `quiet`, when stderr is not a
    /// terminal, or when the terminal is dumb.
    pub fn new(quiet: bool, units_start: u32, bytes_start: u64) -> Self {
        let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
        let visible = !quiet && !dumb && std::io::stderr().is_terminal();
        let bar = if visible {
            let target = ProgressDrawTarget::term_like_with_hz(Box::new(StderrTerm::default()), 8);
            let bar = ProgressBar::with_draw_target(None, target);
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed_precise} {wide_msg}")
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
        }
    }

    /// Where the run's other parts (the oracle) say what they must: above
    /// this display.
    pub(crate) fn printer(&self) -> Printer {
        Printer {
            bar: self.bar.clone(),
        }
    }

    /// Shows the current phase's counters (indicatif limits the redraws).
    pub(crate) fn update(&mut self, phase: &PhaseStats, units_now: u32, bytes_now: u64) {
        if self.bar.is_hidden() {
            return;
        }
        let tests = self.earlier.tests + phase.tests;
        let status = Status {
            phase: &phase.name,
            bytes: (self.bytes_start, bytes_now),
            units: (self.units_start as u64, units_now as u64),
            tests,
            rate: tests as f64 / self.started.elapsed().as_secs_f64().max(1e-3),
            cache_hits: self.earlier.cache_hits + phase.cache_hits,
            syntax_rejected: self.earlier.syntax_rejected + phase.syntax_rejected,
            timeouts: self.earlier.timeouts + phase.timeouts,
        };
        let width = StderrTerm::size().0.saturating_sub(ECHO_ROOM) as usize;
        self.bar
            .set_message(status.line(width.saturating_sub(PREFIX_WIDTH)));
    }

    /// A phase ended: fold its counters into the totals.
    pub(crate) fn phase_done(&mut self, phase: &PhaseStats) {
        self.earlier.tests += phase.tests;
        self.earlier.cache_hits += phase.cache_hits;
        self.earlier.syntax_rejected += phase.syntax_rejected;
        self.earlier.timeouts += phase.timeouts;
    }

    /// Removes the display.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Prints [`Messages`] above the live display, or on stderr when there is
/// none.
#[derive(Clone)]
pub struct Printer {
    bar: ProgressBar,
}

impl Printer {
    /// A printer with no display: plain lines on stderr.
    pub fn stderr() -> Self {
        Printer {
            bar: ProgressBar::hidden(),
        }
    }
}

impl Messages for Printer {
    fn say(&self, text: &str) {
        if self.bar.is_hidden() {
            let _ = std::io::stderr().lock().write_all(text.as_bytes());
        } else {
            self.bar.println(text.strip_suffix('\n').unwrap_or(text));
        }
    }
}

/// `now` as a percentage of `start`.
pub(crate) fn percent(now: u64, start: u64) -> f64 {
    if start == 0 {
        100.0
    } else {
        now as f64 * 100.0 / start as f64
    }
}

/// `n thing` or `n things`.
fn plural(n: u64, thing: &str) -> String {
    format!("{n} {thing}{}", if n == 1 { "" } else { "s" })
}

/// What the display line says.
struct Status<'a> {
    phase: &'a str,
    /// (at the start, now)
    bytes: (u64, u64),
    units: (u64, u64),
    tests: u64,
    rate: f64,
    cache_hits: u64,
    syntax_rejected: u64,
    timeouts: u64,
}

impl Status<'_> {
    /// The line, with the most important parts that fit in `width` columns,
    /// shown in a fixed order.
    fn line(&self, width: usize) -> String {
        let size = |(start, now): (u64, u64), what: &str| {
            format!("{start} → {now} {what} ({:.1}%)", percent(now, start))
        };
        // In display order: (importance, 0 first; text); zero counts of rare
        // events are left out. The rate follows the test count it qualifies.
        let mut parts = vec![
            (2, format!("{}:", self.phase)),
            (0, size(self.bytes, "bytes")),
            (4, size(self.units, "units")),
            (1, plural(self.tests, "test")),
            (3, format!("({:.1}/s)", self.rate)),
            (5, format!("{} cached", self.cache_hits)),
        ];
        if self.syntax_rejected > 0 {
            parts.push((6, format!("{} rejected by syntax", self.syntax_rejected)));
        }
        if self.timeouts > 0 {
            parts.push((7, format!("{} timed out", self.timeouts)));
        }
        let render = |shown: &[bool]| {
            let mut line = String::new();
            for ((_, text), _) in parts.iter().zip(shown).filter(|&(_, &on)| on) {
                if !line.is_empty() {
                    line.push_str(if line.ends_with(':') || text.starts_with('(') {
                        " "
                    } else {
                        ", "
                    });
                }
                line.push_str(text);
            }
            line
        };
        let mut by_importance: Vec<usize> = (0..parts.len()).collect();
        by_importance.sort_by_key(|&i| parts[i].0);
        let mut shown = vec![false; parts.len()];
        let mut line = String::new();
        for i in by_importance {
            shown[i] = true;
            let longer = render(&shown);
            if longer.chars().count() > width {
                break;
            }
            line = longer;
        }
        line
    }
}

/// Standard error as indicatif's terminal: writes are collected and sent in
/// one go on `flush`, and the width is reported [`ECHO_ROOM`] columns short.
#[derive(Debug, Default)]
struct StderrTerm {
    pending: Mutex<Vec<u8>>,
}

impl StderrTerm {
    /// (columns, rows) of the terminal on stderr; 80×24 when unknown.
    fn size() -> (u16, u16) {
        let mut size = libc::winsize {
            ws_row: 0,
            ws_col: 0,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: TIOCGWINSZ only writes a `winsize` to the pointer it is
        // given, which points to one that lives across the call.
        let ok = unsafe { libc::ioctl(libc::STDERR_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
        if ok && size.ws_col > 0 && size.ws_row > 0 {
            (size.ws_col, size.ws_row)
        } else {
            (80, 24)
        }
    }

    fn push(&self, text: &str) -> std::io::Result<()> {
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(text.as_bytes());
        Ok(())
    }

    fn escape(&self, n: usize, code: char) -> std::io::Result<()> {
        if n == 0 {
            return Ok(());
        }
        let mut text = String::new();
        write!(text, "\x1b[{n}{code}").expect("writing to a String cannot fail");
        self.push(&text)
    }
}

impl TermLike for StderrTerm {
    fn width(&self) -> u16 {
        Self::size().0.saturating_sub(ECHO_ROOM).max(1)
    }

    fn height(&self) -> u16 {
        Self::size().1
    }

    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        self.escape(n, 'A')
    }

    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        self.escape(n, 'B')
    }

    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        self.escape(n, 'C')
    }

    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        self.escape(n, 'D')
    }

    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.push(s)?;
        self.push("\n")
    }

    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.push(s)
    }

    fn clear_line(&self) -> std::io::Result<()> {
        self.push("\r\x1b[2K")
    }

    fn flush(&self) -> std::io::Result<()> {
        let bytes = std::mem::take(&mut *self.pending.lock().unwrap_or_else(|e| e.into_inner()));
        let mut err = std::io::stderr().lock();
        err.write_all(&bytes)?;
        err.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status() -> Status<'static> {
        Status {
            phase: "perses-sweep+probdd",
            bytes: (19119, 5570),
            units: (6172, 1754),
            tests: 133,
            rate: 8.66,
            cache_hits: 9,
            syntax_rejected: 126,
            timeouts: 0,
        }
    }

    #[test]
    fn a_wide_terminal_shows_everything() {
        assert_eq!(
            status().line(200),
            "perses-sweep+probdd: 19119 → 5570 bytes (29.1%), 6172 → 1754 units (28.4%), \
             133 tests (8.7/s), 9 cached, 126 rejected by syntax"
        );
    }

    #[test]
    fn a_narrow_terminal_keeps_the_important_parts_in_order() {
        // 80 columns, less the echo room and the spinner and clock.
        assert_eq!(
            status().line(80 - 2 - PREFIX_WIDTH),
            "perses-sweep+probdd: 19119 → 5570 bytes (29.1%), 133 tests (8.7/s)"
        );
        assert_eq!(status().line(45), "19119 → 5570 bytes (29.1%), 133 tests");
        assert_eq!(status().line(10), "");
    }

    #[test]
    fn rare_events_show_only_once_they_happen() {
        let mut s = status();
        s.syntax_rejected = 0;
        assert!(!s.line(200).contains("syntax"));
        s.timeouts = 2;
        assert!(s.line(200).ends_with(", 9 cached, 2 timed out"));
    }

    #[test]
    fn the_phase_comes_first_when_it_fits() {
        let s = Status {
            phase: "drdd",
            ..status()
        };
        assert_eq!(s.line(43), "drdd: 19119 → 5570 bytes (29.1%), 133 tests");
        assert_eq!(s.line(42), "19119 → 5570 bytes (29.1%), 133 tests");
    }
}
