//! The input cut into ordered units, and rendering a configuration back into bytes.
//!
//! Every unit is a contiguous byte range of the input and the ranges tile the
//! whole input, so rendering all units gives the input back byte for byte.
//! Bytes and lines render exactly; tokens carry their trailing whitespace and,
//! when deletions bring two tokens together that would fuse into one
//! (`int x` → `intx`, `a - -b` → `a--b`), a single space is put between them.

use std::ops::Range;

use crate::configuration::{Configuration, Layout};

/// How the input is cut into flat units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitKind {
    Byte,
    Line,
    Token,
    /// A set's pool units: whole files (their markers and content), cut by
    /// `fileset.rs`, never by [`Units::flat`].
    File,
    /// A set's pool units: the markers and every file's top-level items.
    Item,
}

impl UnitKind {
    /// Every kind, in `--unit`'s order.
    pub const ALL: [UnitKind; 3] = [UnitKind::Byte, UnitKind::Line, UnitKind::Token];

    /// The kind's name on the command line and in stats.
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Byte => "byte",
            UnitKind::Line => "line",
            UnitKind::Token => "token",
            UnitKind::File => "file",
            UnitKind::Item => "item",
        }
    }
}

/// The input and its units.
#[derive(Debug, Clone)]
pub struct Units {
    source: Vec<u8>,
    /// `starts[i]` is where unit `i` begins; unit `i` ends where `i + 1` begins.
    starts: Vec<u32>,
    /// Whether rendering keeps tokens apart when deletions make them
    /// adjacent, and a rewritten unit keeps the whitespace after it (bytes
    /// and lines are rewritten whole).
    separate_tokens: bool,
    /// Whether tokens a deletion brings together may share a line that a
    /// line break stood between (text, whose lines mean nothing the
    /// reducer knows of), instead of keeping that line break (languages).
    join_lines: bool,
    /// Whether, where a deletion ends a line after a space, the next
    /// line's tokens follow that space instead of the line break that
    /// stood before them (`lines_join_after_deletions` in grammars/*.json).
    join_after_space: bool,
}

impl Units {
    /// Units from explicit start offsets (the first must be 0 unless the input is empty).
    pub(crate) fn from_starts(source: Vec<u8>, starts: Vec<u32>, separate_tokens: bool) -> Self {
        debug_assert!(starts.windows(2).all(|w| w[0] < w[1]));
        debug_assert!(starts.first().is_none_or(|&s| s == 0));
        Units {
            source,
            starts,
            separate_tokens,
            join_lines: false,
            join_after_space: false,
        }
    }

    /// The same units, rendered with the next line's tokens after the
    /// space a deletion that ends a line leaves ([`Self::push_after`]).
    pub(crate) fn joining_lines_after_deletions(mut self) -> Self {
        self.join_after_space = true;
        self
    }

    /// The same units, rendered with tokens that deletions bring together
    /// on one line even where a line break stood between them: for text,
    /// where a Makefile's `main.o ...` and a later line's `:` may make the
    /// rule the bug needs.
    pub(crate) fn joining_lines(mut self) -> Self {
        self.join_lines = true;
        self
    }

    /// Cuts `source` into flat units of the given kind.
    pub fn flat(source: Vec<u8>, kind: UnitKind) -> Self {
        let starts = match kind {
            UnitKind::Byte => (0..source.len() as u32).collect(),
            UnitKind::Line => line_starts(&source),
            UnitKind::Token => token_starts(&source),
            UnitKind::File | UnitKind::Item => {
                unreachable!("a set's pool units are cut by fileset.rs")
            }
        };
        Units::from_starts(source, starts, kind == UnitKind::Token).joining_lines()
    }

    /// Units whose text is given piece by piece (tests and toy trees): each
    /// piece is one unit, rendered with a space after it.
    #[cfg(test)]
    pub(crate) fn from_pieces<S: AsRef<str>>(pieces: &[S]) -> Self {
        let mut source = Vec::new();
        let mut starts = Vec::new();
        for (i, p) in pieces.iter().enumerate() {
            starts.push(source.len() as u32);
            source.extend_from_slice(p.as_ref().as_bytes());
            if i + 1 < pieces.len() {
                source.push(b' ');
            }
        }
        Units::from_starts(source, starts, true)
    }

    pub fn len(&self) -> u32 {
        self.starts.len() as u32
    }

    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    pub fn source(&self) -> &[u8] {
        &self.source
    }

    /// The byte range of unit `i`.
    pub(crate) fn span(&self, i: u32) -> Range<usize> {
        let start = self.starts[i as usize] as usize;
        let end = self
            .starts
            .get(i as usize + 1)
            .map_or(self.source.len(), |&s| s as usize);
        start..end
    }

    /// The bytes of unit `i`.
    pub fn text(&self, i: u32) -> &[u8] {
        &self.source[self.span(i)]
    }

    /// The byte that byte unit `u` renders as in `config` (its rewrite, or
    /// its own; 0 for an empty one).
    pub(crate) fn byte(&self, config: &Configuration, u: u32) -> u8 {
        let text = config.rewrites.get(&u).map_or(self.text(u), |t| t);
        text.first().copied().unwrap_or(0)
    }

    /// The text kept unit `u` renders as in `config`, without surrounding
    /// whitespace: its rewrite, or its own token.
    pub(crate) fn token_text<'a>(&'a self, config: &'a Configuration, u: u32) -> &'a [u8] {
        match config.rewrites.get(&u) {
            Some(text) => text,
            None => self.text(u).trim_ascii(),
        }
    }

    /// The text of the kept units `kept` (in order) as one piece: their
    /// texts (rewrites applied), with the whitespace the input had between
    /// units that were neighbours there, and a space between others where
    /// they would fuse; no whitespace after the last.
    pub(crate) fn join_kept(
        &self,
        config: &Configuration,
        kept: impl IntoIterator<Item = u32>,
    ) -> Vec<u8> {
        self.join_kept_with(config, kept, |_| None)
    }

    /// [`Self::join_kept`] with some tokens read as other texts: those
    /// for which `instead` gives one.
    pub(crate) fn join_kept_with<'a>(
        &'a self,
        config: &'a Configuration,
        kept: impl IntoIterator<Item = u32>,
        instead: impl Fn(u32) -> Option<&'a [u8]>,
    ) -> Vec<u8> {
        let mut out = Vec::new();
        let mut prev: Option<u32> = None;
        for u in kept {
            let token = instead(u).unwrap_or_else(|| self.token_text(config, u));
            if let Some(p) = prev {
                let own = self.text(p);
                let space = &own[own.len() - trailing_space(own)..];
                if p + 1 == u && !space.is_empty() {
                    out.extend_from_slice(space);
                } else if let (Some(&a), Some(&b)) = (out.last(), token.first())
                    && would_fuse(a, b)
                {
                    out.push(b' ');
                }
            }
            out.extend_from_slice(token);
            prev = Some(u);
        }
        out
    }

    /// The byte length of every unit (WDD's weights for flat units).
    pub(crate) fn byte_lengths(&self) -> Vec<u64> {
        (0..self.len()).map(|i| self.span(i).len() as u64).collect()
    }

    /// The bytes of `config`: its kept units in order, with rewrites applied.
    pub fn render(&self, config: &Configuration) -> Vec<u8> {
        if config.layout != Layout::Original {
            let mut out = Vec::new();
            self.render_into(config, &mut out);
            return out;
        }
        // The exact size but for rewrites and separating spaces: a small
        // candidate of a large input must not cost a large allocation
        // (which the allocator would map and unmap page by page).
        let runs = config.kept.runs();
        let size = runs
            .iter()
            .map(|r| self.span(r.end - 1).end - self.span(r.start).start + 1)
            .sum();
        let mut out = Vec::with_capacity(size);
        self.render_runs(config, &runs, &mut out);
        out
    }

    /// Writes the bytes of `config` ([`Self::render`]) to `out`.
    pub fn render_into(&self, config: &Configuration, out: &mut impl Sink) {
        match config.layout {
            Layout::Original => self.render_runs(config, &config.kept.runs(), out),
            Layout::Tidy => self.render_tidy(config, out),
            Layout::Lines | Layout::Compact => self.render_laid_out(config, out),
            Layout::Given => {
                for u in config.kept.iter() {
                    out.extend(self.token_text(config, u));
                }
            }
        }
    }

    /// [`Layout::Original`]: the kept `runs` of `config` as they stand in
    /// the source, rewrites applied.
    fn render_runs(&self, config: &Configuration, runs: &[Range<u32>], out: &mut impl Sink) {
        let mut prev_kept: Option<u32> = None;
        // The whitespace after the last kept token, written when the next
        // piece shows whether it keeps the two apart well enough.
        let mut held: &[u8] = &[];
        for run in runs {
            let mut i = run.start;
            while i < run.end {
                // Copy a stretch of units without rewrites in one go.
                let next_rewrite = config
                    .rewrites
                    .range(i..run.end)
                    .next()
                    .map_or(run.end, |(&u, _)| u);
                let at = i;
                // A rewrite is kept apart from a token it would fuse with
                // even where the two were neighbours.
                let after_gap = prev_kept.is_some_and(|p| p + 1 != at) || next_rewrite == at;
                // A token keeps the whitespace after it; a byte (or a
                // line) is replaced whole.
                let (piece, space): (&[u8], &[u8]) = if next_rewrite > i {
                    let bytes = &self.source[self.span(i).start..self.span(next_rewrite - 1).end];
                    let cut = if self.separate_tokens {
                        bytes.len() - trailing_space(bytes)
                    } else {
                        bytes.len()
                    };
                    i = next_rewrite;
                    bytes.split_at(cut)
                } else {
                    let own = self.text(i);
                    let space = if self.separate_tokens {
                        &own[own.len() - trailing_space(own)..]
                    } else {
                        &[]
                    };
                    i += 1;
                    (&config.rewrites[&at], space)
                };
                self.push_after(out, held, piece, after_gap, at);
                held = space;
                prev_kept = Some(i - 1);
            }
        }
        out.extend(held);
    }

    /// [`Self::render`] for a [`Layout`] other than the original: every
    /// token without its whitespace, then a line break, a space or nothing.
    /// Even the compact layout keeps the line break that ends a line holding
    /// a line comment (a token starting with `//`) or starting with `#` (a
    /// preprocessor directive, a shell or Python comment): joining the next
    /// line to it would change what it means.
    fn render_laid_out(&self, config: &Configuration, out: &mut impl Sink) {
        let mut line_break = false;
        // The current output line starts with `#` or holds a `//` comment.
        let mut line_must_end = false;
        // Whether the previous kept token was followed by whitespace or a gap.
        let mut spaced = false;
        let mut ends_line = false;
        let mut prev: Option<u32> = None;
        for i in config.kept.iter() {
            let own = self.text(i);
            let token_len = own.len() - trailing_space(own);
            let token = self.token_text(config, i);
            if let (Some(a), Some(b)) = (out.last_byte(), token.first().copied()) {
                if line_break {
                    out.push(b'\n');
                } else if (spaced || prev.is_some_and(|p| p + 1 != i)) && would_fuse(a, b) {
                    out.push(b' ');
                }
            }
            if out.is_empty() || line_break {
                line_must_end = token.starts_with(b"#");
            }
            // `//` inside the token or across its start (`/` `/` as two tokens).
            line_must_end |= token.windows(2).any(|w| w == b"//")
                || (out.last_byte() == Some(b'/') && token.first() == Some(&b'/'));
            out.extend(token);
            spaced = token_len < own.len();
            ends_line = own[token_len..].contains(&b'\n');
            prev = Some(i);
            line_break = ends_line && (config.layout == Layout::Lines || line_must_end);
        }
        if ends_line {
            out.push(b'\n');
        }
    }

    /// [`Layout::Tidy`]: every token with the whitespace that followed it
    /// in the input, cut down by [`tidy_space`]; after the last token, one
    /// line break if it was followed by any, else nothing (as the other
    /// layouts end).
    fn render_tidy(&self, config: &Configuration, out: &mut impl Sink) {
        let mut prev: Option<u32> = None;
        let last = config.kept.iter().last();
        for i in config.kept.iter() {
            let own = self.text(i);
            let token = self.token_text(config, i);
            self.push_piece(out, token, prev.is_some_and(|p| p + 1 != i), i);
            tidy_space(
                &own[own.len() - trailing_space(own)..],
                Some(i) == last,
                out,
            );
            prev = Some(i);
        }
    }

    /// Appends `piece`, the text from unit `at` on. After deleted units,
    /// tokens that would touch are kept apart: by a line break where one
    /// stood right before `at` (rustc and Go read a missing `;` at a line
    /// end, not inside a line) unless the units join lines, else by a
    /// space where they would fuse.
    fn push_piece(&self, out: &mut impl Sink, piece: &[u8], after_gap: bool, at: u32) {
        if self.separate_tokens
            && after_gap
            && let (Some(a), Some(b)) = (out.last_byte(), piece.first().copied())
            && !a.is_ascii_whitespace()
            && !b.is_ascii_whitespace()
        {
            if !self.join_lines && self.line_break_before(at) {
                out.push(b'\n');
            } else if would_fuse(a, b) {
                out.push(b' ');
            }
        }
        out.extend(piece);
    }

    /// Appends `held`, the whitespace after the last kept token, then
    /// `piece` ([`Self::push_piece`]); but where a deletion would bring the
    /// piece onto the line of that token although a line break stood right
    /// before the piece (`fi esac` + `}` minus `esac`: bash needs `fi` and
    /// `}` on lines of their own), the whitespace before the piece instead,
    /// its line break and indentation, unless the units join lines or
    /// join them after such a space.
    fn push_after(&self, out: &mut impl Sink, held: &[u8], piece: &[u8], after_gap: bool, at: u32) {
        if self.separate_tokens
            && after_gap
            && !self.join_lines
            && !self.join_after_space
            && !held.is_empty()
            && !held.contains(&b'\n')
            && self.line_break_before(at)
        {
            out.extend(self.space_before(at));
            out.extend(piece);
        } else {
            out.extend(held);
            self.push_piece(out, piece, after_gap, at);
        }
    }

    /// The whitespace right before unit `at` in the source (the end of the
    /// unit before it).
    fn space_before(&self, at: u32) -> &[u8] {
        if at == 0 {
            return &[];
        }
        let before = self.text(at - 1);
        &before[before.len() - trailing_space(before)..]
    }

    /// Whether [`Self::space_before`] unit `at` holds a line break.
    fn line_break_before(&self, at: u32) -> bool {
        self.space_before(at).contains(&b'\n')
    }
}

/// Appends `space`, the whitespace after a token, tidied: kept as it is
/// within a line; across lines, without what ends each line and with at
/// most two line breaks (one blank line), each `\r\n` if the first was,
/// then the next line's indentation. After the `last` token: at most one
/// line break, nothing else.
fn tidy_space(space: &[u8], last: bool, out: &mut impl Sink) {
    let breaks = space.iter().filter(|&&b| b == b'\n').count();
    let Some(first_break) = space.iter().position(|&b| b == b'\n') else {
        if !last {
            out.extend(space);
        }
        return;
    };
    let line_break: &[u8] = if first_break > 0 && space[first_break - 1] == b'\r' {
        b"\r\n"
    } else {
        b"\n"
    };
    for _ in 0..breaks.min(if last { 1 } else { 2 }) {
        out.extend(line_break);
    }
    if !last {
        let indentation = space.iter().rposition(|&b| b == b'\n').unwrap_or(0) + 1;
        out.extend(&space[indentation..]);
    }
}

/// Where a rendering goes: a buffer, or a hash of the bytes that never
/// holds them (the verdict cache's key of a candidate).
pub trait Sink {
    fn extend(&mut self, bytes: &[u8]);
    /// The last byte written, if any.
    fn last_byte(&self) -> Option<u8>;

    fn push(&mut self, byte: u8) {
        self.extend(&[byte]);
    }

    fn is_empty(&self) -> bool {
        self.last_byte().is_none()
    }
}

impl Sink for Vec<u8> {
    fn extend(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }

    fn last_byte(&self) -> Option<u8> {
        self.as_slice().last().copied()
    }
}

fn trailing_space(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_whitespace())
        .count()
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

fn is_operator_byte(b: u8) -> bool {
    b"+-*/%<>=!&|^~.:#?@\\".contains(&b)
}

/// Whether two bytes, once adjacent, could read as one token.
pub(crate) fn would_fuse(a: u8, b: u8) -> bool {
    (is_word_byte(a) && is_word_byte(b))
        || (is_operator_byte(a) && is_operator_byte(b))
        || (a == b'/' && b == b'*')
        || (is_word_byte(a) && (b == b'"' || b == b'\''))
}

fn line_starts(source: &[u8]) -> Vec<u32> {
    let mut starts = Vec::new();
    if source.is_empty() {
        return starts;
    }
    starts.push(0);
    for (i, &b) in source.iter().enumerate() {
        if b == b'\n' && i + 1 < source.len() {
            starts.push(i as u32 + 1);
        }
    }
    starts
}

/// A simple lexer for text without a grammar: identifiers and numbers,
/// quoted strings, and single punctuation bytes are tokens; whitespace goes
/// with the token before it (leading whitespace with the first token).
pub(crate) fn token_starts(source: &[u8]) -> Vec<u32> {
    let mut starts = Vec::new();
    let mut i = 0;
    let n = source.len();
    while i < n && source[i].is_ascii_whitespace() {
        i += 1;
    }
    if n > 0 {
        starts.push(0);
    }
    let mut first = true;
    while i < n {
        if !first {
            starts.push(i as u32);
        }
        first = false;
        let b = source[i];
        if is_word_byte(b) {
            while i < n && is_word_byte(source[i]) {
                i += 1;
            }
        } else if b == b'"' || b == b'\'' {
            i += 1;
            while i < n && source[i] != b && source[i] != b'\n' {
                i += if source[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(n);
        } else {
            i += 1;
        }
        while i < n && source[i].is_ascii_whitespace() {
            i += 1;
        }
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configuration::{Delta, Proposal};

    #[test]
    fn a_rewritten_byte_is_replaced_whole_even_when_it_is_whitespace() {
        let units = Units::flat(b"a \nb".to_vec(), UnitKind::Byte);
        let zero: std::sync::Arc<[u8]> = std::sync::Arc::from(&[0u8][..]);
        let proposal = Proposal {
            delta: Delta::new(),
            rewrites: vec![(1, zero.clone()), (2, zero.clone()), (3, zero)],
            layout: None,
        };
        let config = Configuration::full(4).apply(&proposal).unwrap();
        assert_eq!(units.render(&config), b"a\0\0\0");
    }

    fn pieces(units: &Units) -> Vec<String> {
        (0..units.len())
            .map(|i| String::from_utf8_lossy(units.text(i)).into_owned())
            .collect()
    }

    #[test]
    fn lines_keep_their_newlines() {
        let u = Units::flat(b"a\nbb\n\nc".to_vec(), UnitKind::Line);
        assert_eq!(pieces(&u), ["a\n", "bb\n", "\n", "c"]);
    }

    #[test]
    fn joined_units_keep_the_inputs_spacing_between_neighbours_and_part_only_what_would_fuse() {
        let u = Units::flat(b"f ( x,\n  y ) + \"s\"".to_vec(), UnitKind::Token);
        assert_eq!(
            pieces(&u),
            ["f ", "( ", "x", ",\n  ", "y ", ") ", "+ ", "\"s\""]
        );
        let mut config = Configuration::full(u.len());
        let join = |config: &Configuration, kept: &[u32]| {
            String::from_utf8(u.join_kept(config, kept.iter().copied())).unwrap()
        };
        assert_eq!(join(&config, &[0, 1, 2, 3, 4, 5]), "f ( x,\n  y )");
        // Across a gap: `f` and `y` would fuse, `(` and `)` would not.
        assert_eq!(join(&config, &[0, 4]), "f y");
        assert_eq!(join(&config, &[1, 5]), "()");
        std::sync::Arc::make_mut(&mut config.rewrites).insert(2, std::sync::Arc::from(&b"zz"[..]));
        assert_eq!(join(&config, &[2, 4, 7]), "zz y \"s\"");
    }

    #[test]
    fn tokens_carry_trailing_whitespace() {
        let u = Units::flat(b"  int x=\"a b\";\n".to_vec(), UnitKind::Token);
        assert_eq!(pieces(&u), ["  int ", "x", "=", "\"a b\"", ";\n"]);
    }

    #[test]
    fn rendering_everything_gives_the_input_back() {
        for kind in [UnitKind::Byte, UnitKind::Line, UnitKind::Token] {
            for input in [
                &b""[..],
                b"x",
                b"\n\n",
                b" a+b \xff\x00 'q\n",
                b"\"unterminated",
            ] {
                let u = Units::flat(input.to_vec(), kind);
                assert_eq!(u.render(&Configuration::full(u.len())), input, "{kind:?}");
            }
        }
    }

    #[test]
    fn deleting_between_tokens_never_fuses_them() {
        let u = Units::flat(b"a-(-b)".to_vec(), UnitKind::Token);
        // a - ( - b ): drop "(" and ")" -> "a- -b", not "a--b"
        let c = Configuration::from_units(u.len(), [0, 1, 3, 4]);
        assert_eq!(u.render(&c), b"a- -b");
        let u = Units::flat(b"int(x)".to_vec(), UnitKind::Token);
        let c = Configuration::from_units(u.len(), [0, 2]);
        assert_eq!(u.render(&c), b"int x");
    }

    #[test]
    fn bytes_render_exactly_even_when_they_touch() {
        let u = Units::flat(b"ab-c".to_vec(), UnitKind::Byte);
        let c = Configuration::from_units(u.len(), [0, 3]);
        assert_eq!(u.render(&c), b"ac");
    }

    #[test]
    fn layouts_drop_indentation_and_needless_spaces_but_keep_what_lines_mean() {
        let source = "#define N 1\nint  x = - -N;  // note\n    int y=-1;\n";
        let units = Units::flat(source.as_bytes().to_vec(), UnitKind::Token);
        let mut config = Configuration::full(units.len());
        config.layout = Layout::Lines;
        // Spaces stay only where tokens apart in the input would fuse: `= -`
        // and `- -` (`=-` and `--` read differently); `=-`, adjacent in the
        // input, stays adjacent.
        let lines = "#define N 1\nint x= - -N;//note\nint y=-1;\n";
        assert_eq!(String::from_utf8(units.render(&config)).unwrap(), lines);
        config.layout = Layout::Compact;
        // The `#` line and the line with a comment keep their line breaks.
        assert_eq!(String::from_utf8(units.render(&config)).unwrap(), lines);
        let without_comment = config
            .apply(&Proposal::delete(Delta::from_units(
                (0..units.len()).filter(|&u| {
                    let t = units.text(u);
                    t.starts_with(b"/") || t.starts_with(b"note")
                }),
            )))
            .unwrap();
        assert_eq!(
            String::from_utf8(units.render(&without_comment)).unwrap(),
            "#define N 1\nint x= - -N;int y=-1;\n"
        );
    }

    #[test]
    fn a_deletion_keeps_the_line_break_that_stood_before_the_next_kept_token() {
        // A language's tokens (as a tree's units are), then text's.
        let source = b"use a;\nfn f() { let v = g();\n x }".to_vec();
        let units = Units::from_starts(source.clone(), token_starts(&source), true);
        let text = Units::flat(source, UnitKind::Token);
        let without_in = |units: &Units, gone: &[&str]| {
            let cut = Configuration::full(units.len())
                .apply(&Proposal::delete(Delta::from_units(
                    (0..units.len()).filter(|&u| {
                        gone.contains(&std::str::from_utf8(units.text(u).trim_ascii()).unwrap())
                    }),
                )))
                .unwrap();
            String::from_utf8(units.render(&cut)).unwrap()
        };
        let without = |gone: &[&str]| without_in(&units, gone);
        // A `;` at a line end goes, its line break stays.
        assert_eq!(without(&[";"]), "use a\nfn f() { let v = g()\nx }");
        // Text joins the lines: a Makefile's `main.o` and a later line's
        // `:` may make the rule a bug needs.
        assert_eq!(without_in(&text, &[";"]), "use a fn f() { let v = g()x }");
        // Within a line, touching tokens are kept apart by a space only
        // where they would fuse.
        assert_eq!(without(&["="]), "use a;\nfn f() { let v g();\n x }");
        assert_eq!(without(&["let", "v", "="]), "use a;\nfn f() { g();\n x }");
        // A kept token's space gives way to the line break (and the
        // indentation) that stood before the next kept token: bash's `fi`
        // and `}` cannot share a line.
        let source = b"{\n  if x; then y; fi esac\n  }\n".to_vec();
        let units = Units::from_starts(source.clone(), token_starts(&source), true);
        assert_eq!(
            without_in(&units, &["esac"]),
            "{\n  if x; then y; fi\n  }\n"
        );
        assert_eq!(
            without_in(&units, &["fi"]),
            "{\n  if x; then y; esac\n  }\n"
        );
        // Where lines join after deletions (Python's grammar data), the
        // next line's tokens follow the space instead.
        let joining = units.joining_lines_after_deletions();
        assert_eq!(without_in(&joining, &["esac"]), "{\n  if x; then y; fi }\n");
    }

    #[test]
    fn the_tidy_layout_keeps_spacing_and_indentation_but_drops_blank_runs_and_spaces_at_either_end()
    {
        let source = b"\n\nint  f(x)   \n\n\n\n  {\n    return x;  \r\n\r\n\r\n}\n\n\n".to_vec();
        let units = Units::from_starts(source.clone(), token_starts(&source), true);
        let mut config = Configuration::full(units.len());
        config.layout = Layout::Tidy;
        let tidy = |config: &Configuration| String::from_utf8(units.render(config)).unwrap();
        assert_eq!(tidy(&config), "int  f(x)\n\n  {\n    return x;\r\n\r\n}\n");
        // Deleted tokens take their whitespace with them, as in the
        // original layout, but for a line break that stood right before
        // the next kept token; a rewrite keeps its token's.
        let gone = |u: &[u8]| u == b"(" || u == b"x" || u == b")" || u == b"return" || u == b";";
        let mut cut = config
            .apply(&Proposal::delete(Delta::from_units(
                (0..units.len()).filter(|&u| gone(units.text(u).trim_ascii())),
            )))
            .unwrap();
        assert_eq!(tidy(&cut), "int  f\n{\n    }\n");
        std::sync::Arc::make_mut(&mut cut.rewrites).insert(1, std::sync::Arc::from(&b"g"[..]));
        assert_eq!(tidy(&cut), "int  g\n{\n    }\n");
        // A last token followed by spaces alone ends the text.
        let head = Configuration::from_units(units.len(), [0, 1, 2, 3]);
        assert_eq!(
            tidy(&Configuration {
                layout: Layout::Tidy,
                ..head
            }),
            "int  f(x"
        );
        // Nothing kept, nothing written.
        let empty = Configuration::from_units(units.len(), []);
        assert_eq!(
            tidy(&Configuration {
                layout: Layout::Tidy,
                ..empty
            }),
            ""
        );
    }
}
