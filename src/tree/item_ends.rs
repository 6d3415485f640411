//! Where a C or C++ text may be cut between top-level items, found by a
//! cheap lexical scan: the parse of a large input in pieces
//! ([`crate::tree::parse`]) proposes its pieces' ends from it, and the
//! syntax filter (`src/syntax/pieces.rs`) cuts every candidate into the
//! pieces it counts parse errors in. The scan is a function of the text
//! alone, and can resume at any end it reported from the state it
//! recorded there, which lets the filter rescan only around an edit.

use std::collections::VecDeque;

/// What the piece that ends at an [`End`] is, in a scan that marks the
/// blocks of `open_blocks` items ([`CItemEnds::marking_blocks`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum PieceKind {
    /// Top-level items (or a block's items), or anything else.
    Items,
    /// The header of a block up to its opening brace (`namespace std {`).
    Header,
    /// The closing brace of a block.
    Closer,
}

/// A place where the scan may cut, with the scan's state there: resuming
/// at it ([`CItemEnds::resume`]) finds the same ends after it as a scan
/// from the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct End {
    pub at: usize,
    /// What the piece ending here is.
    pub kind: PieceKind,
    /// How many blocks are open here.
    pub blocks: usize,
    /// Whether only whitespace precedes `at` on its line.
    pub line_start: bool,
    /// The end of the bytes the scan read to report this end: an edit at
    /// or after it cannot move or remove it.
    pub seen: usize,
}

/// Candidate ends of C top-level items: right after a `;` or `}` outside
/// brackets, or after a preprocessor line, outside preprocessor
/// conditionals. Comments, string and character literals and preprocessor
/// lines are skipped; in an `#if` group's `#else` branch bracket depth
/// starts again from where it was at the `#if`. Marking blocks, it also
/// cuts before and after the header and the closing brace of every block
/// of an `open_blocks` item outside conditionals.
pub(crate) struct CItemEnds<'a> {
    src: &'a [u8],
    /// Words that start a new item (`item_starts` in grammars/*.json).
    item_starts: &'a [Vec<u8>],
    /// Headers of items whose braces hold items (`open_blocks`).
    open_blocks: &'a [Vec<u8>],
    at: usize,
    /// Where the item being scanned began, and whether only whitespace
    /// preceded it on its line.
    item_start: usize,
    item_line_start: bool,
    /// How many brackets of any kind are open, but the braces of
    /// `open_blocks` items (whose items the scan treats as top-level ones).
    depth: usize,
    /// How many braces of `open_blocks` items are open.
    blocks: usize,
    /// The bracket depth at each open `#if`, `#ifdef` or `#ifndef`.
    conditionals: Vec<usize>,
    /// Whether only whitespace precedes `at` on its line.
    line_start: bool,
    /// Whether blocks are marked (see [`PieceKind`]).
    marks: bool,
    /// The last end reported.
    last: usize,
    /// Ends found but not reported yet.
    pending: VecDeque<End>,
}

impl<'a> CItemEnds<'a> {
    pub(crate) fn new(
        src: &'a [u8],
        item_starts: &'a [Vec<u8>],
        open_blocks: &'a [Vec<u8>],
    ) -> Self {
        CItemEnds {
            src,
            item_starts,
            open_blocks,
            at: 0,
            item_start: 0,
            item_line_start: true,
            depth: 0,
            blocks: 0,
            conditionals: Vec::new(),
            line_start: true,
            marks: false,
            last: 0,
            pending: VecDeque::new(),
        }
    }

    /// The scan that also cuts around blocks.
    pub(crate) fn marking_blocks(mut self) -> Self {
        self.marks = true;
        self
    }

    /// The scan of `src` from `end`, an end that a scan marking blocks
    /// reported on a text whose bytes before `end.seen` are `src`'s.
    pub(crate) fn resume(mut self, end: &End) -> Self {
        self.at = end.at;
        self.item_start = end.at;
        self.item_line_start = end.line_start;
        self.blocks = end.blocks;
        self.line_start = end.line_start;
        self.marks = true;
        self.last = end.at;
        self
    }

    /// How many blocks are open where the scan is (at the text's end once
    /// it has reported every end).
    pub(crate) fn blocks_open(&self) -> usize {
        self.blocks
    }

    fn peek(&self, offset: usize) -> Option<u8> {
        self.src.get(self.at + offset).copied()
    }

    fn at_top_level(&self) -> bool {
        self.depth == 0 && self.conditionals.is_empty()
    }

    /// Skips a comment starting at `at` (on its `/`), if there is one.
    fn skip_comment(&mut self) -> bool {
        match self.peek(1) {
            Some(b'/') => {
                // To the end of the line; a backslash continues it.
                self.at += 2;
                while let Some(b) = self.peek(0) {
                    match b {
                        b'\n' => break,
                        b'\\' => self.at += 2,
                        _ => self.at += 1,
                    }
                }
                true
            }
            Some(b'*') => {
                self.at = find(self.src, self.at + 2, b"*/").map_or(self.src.len(), |end| end + 2);
                true
            }
            _ => false,
        }
    }

    /// Skips a string or character literal starting at `at`, up to its
    /// closing quote or the end of its line.
    fn skip_literal(&mut self) {
        let quote = self.src[self.at];
        self.at += 1;
        while let Some(b) = self.peek(0) {
            match b {
                b'\\' => self.at += 2,
                b'\n' => return,
                _ => {
                    self.at += 1;
                    if b == quote {
                        return;
                    }
                }
            }
        }
    }

    /// Skips a preprocessor line starting at `at` (on its `#`), through its
    /// newline, and follows conditionals.
    fn skip_directive(&mut self) {
        self.at += 1;
        while matches!(self.peek(0), Some(b' ' | b'\t')) {
            self.at += 1;
        }
        let name_start = self.at;
        while self
            .peek(0)
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            self.at += 1;
        }
        match &self.src[name_start..self.at] {
            b"if" | b"ifdef" | b"ifndef" => self.conditionals.push(self.depth),
            b"else" | b"elif" | b"elifdef" | b"elifndef" => {
                if let Some(&depth) = self.conditionals.last() {
                    self.depth = depth;
                }
            }
            b"endif" => {
                self.conditionals.pop();
            }
            _ => {}
        }
        while let Some(b) = self.peek(0) {
            match b {
                b'\n' => {
                    self.at += 1;
                    return;
                }
                b'\\' => self.at += 2,
                b'/' if self.skip_comment() => {}
                b'"' | b'\'' => self.skip_literal(),
                _ => self.at += 1,
            }
        }
    }
}

impl CItemEnds<'_> {
    /// Whether what follows `at` (after whitespace and comments) is a
    /// preprocessor line or one of the grammar's `item_starts` words: the
    /// start of a new top-level item, which nothing before it can take in;
    /// and the end of the bytes it read to know.
    fn a_new_item_follows(&self) -> (bool, usize) {
        let src = self.src;
        let mut i = self.at;
        loop {
            while src.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            match (src.get(i), src.get(i + 1)) {
                (Some(b'/'), Some(b'/')) => {
                    i = find(src, i, b"\n").unwrap_or(src.len());
                }
                (Some(b'/'), Some(b'*')) => {
                    i = find(src, i + 2, b"*/").map_or(src.len(), |end| end + 2);
                }
                (Some(b'#'), _) => return (true, i + 1),
                (Some(_), _) => break,
                (None, _) => return (false, src.len()),
            }
        }
        let word = src[i..]
            .iter()
            .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
            .map_or(&src[i..], |len| &src[i..i + len]);
        let seen = (i + word.len() + 1).min(src.len());
        (self.item_starts.iter().any(|w| w == word), seen)
    }
}

impl CItemEnds<'_> {
    /// Whether the item before the `{` at `at` has the header of one of
    /// the grammar's `open_blocks` (C++'s `namespace std {`, `extern "C"
    /// {`): its whitespace made single spaces, the item starts with one,
    /// not followed by more of a word; a header ending in `{` must be all
    /// of the item up to its brace.
    fn header_opens_block(&self) -> bool {
        let longest = self.open_blocks.iter().map(Vec::len).max().unwrap_or(0);
        let mut header = Vec::with_capacity(longest + 1);
        for &b in &self.src[self.item_start..=self.at] {
            if header.len() > longest {
                break;
            }
            if !b.is_ascii_whitespace() {
                header.push(b);
            } else if header.last().is_some_and(|&last| last != b' ') {
                header.push(b' ');
            }
        }
        let word_char = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
        self.open_blocks.iter().any(|open| {
            if open.ends_with(b"{") {
                header == *open
            } else {
                header.starts_with(open) && !header.get(open.len()).is_some_and(word_char)
            }
        })
    }
}

impl CItemEnds<'_> {
    /// Reports an end at `at` (if past the last one) with the scan's state
    /// there.
    fn report(&mut self, at: usize, kind: PieceKind, blocks: usize, line_start: bool, seen: usize) {
        if at > self.last {
            self.last = at;
            self.pending.push_back(End {
                at,
                kind,
                blocks,
                line_start,
                seen,
            });
        }
    }

    /// The next end, with the scan's state there.
    pub(crate) fn next_end(&mut self) -> Option<End> {
        while self.pending.is_empty() {
            let b = self.peek(0)?;
            self.step(b);
        }
        self.pending.pop_front()
    }

    /// Scans past the byte `b` at `at` (and what it starts: a comment, a
    /// literal, a preprocessor line), reporting the ends it finds.
    fn step(&mut self, b: u8) {
        match b {
            b'\n' => {
                self.at += 1;
                self.line_start = true;
                return;
            }
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                self.at += 1;
                return;
            }
            b'#' if self.line_start => {
                self.skip_directive();
                if self.at_top_level() {
                    self.item_start = self.at;
                    self.item_line_start = true;
                    if self.at < self.src.len() {
                        let at = self.at;
                        self.report(at, PieceKind::Items, self.blocks, true, at);
                    }
                }
                return;
            }
            _ => {}
        }
        let line_start = std::mem::replace(&mut self.line_start, false);
        match b {
            b'/' if self.skip_comment() => return,
            b'"' | b'\'' => {
                self.skip_literal();
                return;
            }
            b'{' if self.depth == 0 && self.header_opens_block() => {
                self.open_block();
                return;
            }
            b'}' if self.depth == 0
                && self.marks
                && self.blocks > 0
                && self.conditionals.is_empty() =>
            {
                self.close_block(line_start);
                return;
            }
            b'}' if self.depth == 0 => self.blocks = self.blocks.saturating_sub(1),
            b'(' | b'[' | b'{' => self.depth += 1,
            b')' | b']' | b'}' => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
        self.at += 1;
        if matches!(b, b';' | b'}') && self.depth == 0 {
            self.item_start = self.at;
            self.item_line_start = false;
            if self.at_top_level() {
                let (follows, seen) = self.a_new_item_follows();
                if follows {
                    let at = self.at;
                    self.report(at, PieceKind::Items, self.blocks, false, seen);
                }
            }
        }
    }

    /// Enters the block whose `{` is at `at`; marking, cuts before its
    /// header and after the brace.
    fn open_block(&mut self) {
        let (header, header_line_start) = (self.item_start, self.item_line_start);
        self.blocks += 1;
        self.at += 1;
        self.item_start = self.at;
        self.item_line_start = false;
        if self.marks && self.conditionals.is_empty() {
            let at = self.at;
            self.report(
                header,
                PieceKind::Items,
                self.blocks - 1,
                header_line_start,
                at,
            );
            self.report(at, PieceKind::Header, self.blocks, false, at);
        }
    }

    /// Leaves the block whose `}` is at `at`, cutting before and after it.
    fn close_block(&mut self, line_start: bool) {
        let at = self.at;
        self.report(at, PieceKind::Items, self.blocks, line_start, at + 1);
        self.blocks -= 1;
        self.at += 1;
        self.item_start = self.at;
        self.item_line_start = false;
        self.report(at + 1, PieceKind::Closer, self.blocks, false, at + 1);
    }
}

impl Iterator for CItemEnds<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        self.next_end().map(|end| end.at)
    }
}

/// Where `needle` first occurs in `hay` at or after `from`.
pub(crate) fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|at| from + at)
}
