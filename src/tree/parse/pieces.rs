//! Parsing a large input in pieces, so that tree-sitter never holds a tree
//! of more than a bounded stretch of it (its tree costs about 40 times the
//! text). tree-sitter's included ranges let a parse see only some bytes of
//! the input while it reports nodes at their offsets in the whole input, so
//! [`Emitter`] walks the trees of the pieces one after another as if they
//! were parts of one tree. A cheap lexical scan proposes where pieces may
//! end; the parse says whether they fit.
//!
//! - Top-level items (`Pieces::TopLevelItems`, C): the root is a sequence of top-level items. A piece runs from the end
//!   of the one before to a candidate end at least a piece further on: a `;`
//!   or `}` outside brackets and preprocessor conditionals that a keyword
//!   starting a declaration (`static`, `int`, `struct`, ...) or a
//!   preprocessor line follows, or the end of a preprocessor line. Nothing
//!   that follows such an end can continue the item before it (as `else`
//!   continues `if (x) {}`, `;` or a declarator `struct s {}`), so a piece
//!   that parses without errors is walked whole. A piece never ends inside a
//!   block (`open_blocks`: a namespace, `extern "C" {`); a block longer
//!   than a piece is parsed with its interior left out, and its interior's
//!   items are walked in pieces the same way, so a namespace of a megabyte
//!   is never one parse. A piece whose errors lie among its last few items
//!   stops at the last candidate end before them ([`clean_cut`]), so the
//!   next piece starts with them; one with no such end grows to a
//!   candidate twice as far. When its parse is mostly one error
//!   region (which growing only feeds) or it reaches the end of the input
//!   (or of the block) with errors, the first piece is
//!   parsed in halves cut at candidate ends, down to single items, so each
//!   error stays in its own item: tree-sitter-cpp's recovery from one
//!   `extern template` declaration it does not know had strung the 63,000
//!   tokens after it in a libstdc++ unit into one error region.
//! - Containers (`Pieces::Containers`, JSON): a container (array or object) bigger than a piece is cut: the tree
//!   around it is parsed with its interior left out, and the interior is
//!   parsed in runs of elements between its own brackets
//!   (`[` + elements + `]`), with the commas between runs added as tokens.
//!   An element bigger than a piece has its own big containers cut the same
//!   way, down to [`MAX_CUT_LEVELS`] levels. A parse error in any part, or
//!   brackets that do not pair up, means the input is parsed whole
//!   ([`GiveUp`]): pieces of a valid document always parse cleanly.
//!
//! Either way the trees agree with a parse of the whole input when it has no
//! errors: a piece that parses cleanly is a complete run of items (or
//! elements) that parse the same wherever they stand.

use std::collections::VecDeque;
use std::ops::Range;

use anyhow::Result;

use super::{Cuts, Emitter, GiveUp};
use crate::languages::Pieces;
use crate::tree::item_ends::{CItemEnds, PieceKind, find};

/// How many cut JSON containers may enclose one another; deeper ones are
/// parsed as part of their runs.
const MAX_CUT_LEVELS: usize = 32;

impl Emitter<'_> {
    /// Walks the input in pieces of about `piece_bytes` bytes; [`GiveUp`]
    /// if the input had better be parsed whole.
    pub(super) fn pieces(&mut self, piece_bytes: usize) -> Result<()> {
        match self.lang.pieces() {
            Pieces::TopLevelItems => self.top_level_items(piece_bytes),
            Pieces::Containers => self.json_document(piece_bytes),
            Pieces::Whole => Err(GiveUp.into()),
        }
    }

    /// C: pieces of whole top-level items.
    fn top_level_items(&mut self, piece_bytes: usize) -> Result<()> {
        let grammar = self.lang.grammar();
        let mut ends = CItemEnds::new(self.source, &grammar.item_starts, &grammar.open_blocks);
        if ends.find(|&end| end >= piece_bytes).is_none() {
            return Err(GiveUp.into());
        }
        let root_end = self.items_in(0..self.source.len(), piece_bytes)?;
        self.close_root(root_end);
        Ok(())
    }

    /// Walks the items of `range` (the input, or a block's interior) in
    /// pieces, each block longer than a piece with its interior left out
    /// and walked the same way ([`Self::walk_block`]); returns where the
    /// root of the last piece walked ends.
    fn items_in(&mut self, range: Range<usize>, piece_bytes: usize) -> Result<usize> {
        let source = self.source;
        let grammar = self.lang.grammar();
        let mut scan = CItemEnds::new(
            &source[range.clone()],
            &grammar.item_starts,
            &grammar.open_blocks,
        );
        // Pieces end between the items of `range`, never inside a block of
        // it: a piece would lack the block's `}`.
        let ends = std::iter::from_fn(|| scan.next_end())
            .filter(|end| end.blocks == 0)
            .map(|end| end.at + range.start);
        let mut ends = PieceEnds::new(ends);
        let mut blocks = big_blocks(source, range.clone(), piece_bytes, grammar).into_iter();
        let mut block = blocks.next();
        let mut start = range.start;
        // Where the root of the last piece walked ends.
        let mut root_end = range.start;
        while start < range.end {
            if let Some(b) = block.filter(|b| b.start == start) {
                block = blocks.next();
                if let Some(end) = self.walk_block(b, piece_bytes)? {
                    (start, root_end) = (b.close + 1, end);
                    continue;
                }
            }
            // A piece stops where the next block starts.
            let limit = block.map_or(range.end, |b| b.start);
            (start, root_end) = self.walk_items(&mut ends, start..limit, piece_bytes)?;
        }
        Ok(root_end)
    }

    /// Walks the next piece of items from `range.start`, no further than
    /// `range.end`: a piece of about `piece_bytes`, grown while its parse
    /// has errors a longer piece may mend, else cut in halves. Returns
    /// where the piece ends and where its last root ends.
    fn walk_items<I: Iterator<Item = usize>>(
        &mut self,
        ends: &mut PieceEnds<I>,
        range: Range<usize>,
        piece_bytes: usize,
    ) -> Result<(usize, usize)> {
        let (start, limit) = (range.start, range.end);
        let mut want = piece_bytes;
        let mut first_end = None;
        loop {
            let end = ends
                .first_at_or_after(start, start.saturating_add(want))
                .map_or(limit, |end| end.min(limit));
            let first = *first_end.get_or_insert(end);
            let tree = self.run(std::slice::from_ref(&(start..end)))?;
            let root = tree.root_node();
            if !root.has_error() || errors_behind(root, self.source) {
                return Ok((end, self.walk_piece(root)?));
            }
            let one_error =
                mostly_one_error(root) && unclosed_braces(&self.source[start..end]) == 0;
            if !one_error && let Some((cut, items)) = clean_cut(root, &ends.between(start, end)) {
                // The items before the errors near the end; the next
                // piece starts with those errors, followed by more items.
                return Ok((cut, self.walk_items_of(root, items)?));
            }
            if end == limit || one_error {
                // Errors that a longer piece does not mend: the first
                // piece's items are parsed in halves until each error
                // is alone in its item, so that tree-sitter's recovery
                // cannot string the rest of the input into one region.
                drop(tree);
                let inside = ends.between(start, first);
                return Ok((first, self.walk_split(start..first, &inside)?));
            }
            want = want.saturating_mul(2);
        }
    }

    /// Walks `block` with its interior left out, the interior's items in
    /// pieces of their own ([`Self::items_in`], through
    /// [`Self::interior`]); returns where its root ends, or `None` (and
    /// walks nothing) if the parse has no node of exactly its braces to
    /// fill in.
    fn walk_block(&mut self, block: Block, piece_bytes: usize) -> Result<Option<usize>> {
        let (open, close) = (block.open, block.close);
        let tree = self.run(&[block.start..open + 1, close..close + 1])?;
        let root = tree.root_node();
        let braces = root
            .descendant_for_byte_range(open, close + 1)
            .filter(|n| n.start_byte() == open && n.end_byte() == close + 1)
            .filter(|n| {
                n.child_count() == 2 && n.child(1).is_some_and(|c| c.start_byte() == close)
            });
        if braces.is_none() {
            return Ok(None);
        }
        self.count.blocks += 1;
        let cuts = Cuts {
            brackets: &[(open, close)],
            piece_bytes,
            level: 0,
        };
        self.walk_children(root, root.child_count(), &cuts)?;
        Ok(Some(root.end_byte()))
    }

    /// Walks the items of a piece's parse into the tree; returns where
    /// the piece's root ends.
    fn walk_piece(&mut self, root: tree_sitter::Node<'_>) -> Result<usize> {
        self.walk_children(root, root.child_count(), &Cuts::NONE)?;
        Ok(root.end_byte())
    }

    /// Walks the first `items` children of a piece's root (at least one);
    /// returns where the last ends.
    fn walk_items_of(&mut self, root: tree_sitter::Node<'_>, items: usize) -> Result<usize> {
        self.walk_children(root, items, &Cuts::NONE)?;
        Ok(root
            .child(items - 1)
            .map_or(root.start_byte(), |c| c.end_byte()))
    }

    /// Walks the first `items` children of a piece's root into the tree
    /// (opening the tree's root with the first piece), counting their
    /// errors (all of the root's when they are all its children), and
    /// filling in `cuts`.
    fn walk_children(
        &mut self,
        root: tree_sitter::Node<'_>,
        items: usize,
        cuts: &Cuts<'_>,
    ) -> Result<()> {
        if self.root.is_none() {
            self.open_root(root);
        }
        if items == root.child_count() {
            self.note_errors(root);
        } else {
            let mut cursor = root.walk();
            for child in root.children(&mut cursor).take(items) {
                self.note_errors(child);
            }
        }
        self.children(root, 0..items, cuts)?;
        self.make_room();
        Ok(())
    }

    /// Walks `piece`, a run of items with a parse error: whole if it parses
    /// with its errors behind clean items or is one item (no candidate end
    /// among `inside`, the candidate ends strictly within it), else its
    /// two halves in turn, cut at the middle candidate end. Returns where
    /// the last root walked ends.
    fn walk_split(&mut self, piece: Range<usize>, inside: &[usize]) -> Result<usize> {
        let tree = self.run(std::slice::from_ref(&piece))?;
        let root = tree.root_node();
        if inside.is_empty() || !root.has_error() || errors_behind(root, self.source) {
            return self.walk_piece(root);
        }
        drop(tree);
        let half = inside.len() / 2;
        let mid = inside[half];
        self.walk_split(piece.start..mid, &inside[..half])?;
        self.walk_split(mid..piece.end, &inside[half + 1..])
    }

    /// JSON: the document with its big containers cut.
    fn json_document(&mut self, piece_bytes: usize) -> Result<()> {
        let len = self.source.len();
        if !brackets_pair_up(self.source) {
            return Err(GiveUp.into());
        }
        let cuts = big_containers(self.source, 0..len, piece_bytes);
        if cuts.is_empty() {
            return Err(GiveUp.into());
        }
        let tree = self.run(&without_interiors(None, 0..len, &cuts))?;
        let root = tree.root_node();
        if root.has_error() {
            return Err(GiveUp.into());
        }
        self.open_root(root);
        let cuts = Cuts {
            brackets: &cuts,
            piece_bytes,
            level: 0,
        };
        self.children(root, 0..root.child_count(), &cuts)?;
        self.close_root(root.end_byte());
        Ok(())
    }

    /// Walks the elements between the brackets at `open` and `close` of a
    /// cut container (enclosed by `level` cut containers, itself included),
    /// in runs of about `piece_bytes` bytes.
    pub(super) fn interior(
        &mut self,
        (open, close): (usize, usize),
        piece_bytes: usize,
        level: usize,
    ) -> Result<()> {
        if self.lang.pieces() == Pieces::TopLevelItems {
            // A block's items, as top-level ones.
            return self.items_in(open + 1..close, piece_bytes).map(drop);
        }
        let comma = self.kind_id(",", false);
        let may_cut = level < MAX_CUT_LEVELS;
        let runs = Runs::new(self.source, open, close, piece_bytes, may_cut);
        let mut after_separator = false;
        for run in runs {
            // A run of nothing after a separator is a trailing comma
            // (`[1, 2, ]`), which its own brackets would hide.
            let blank = self.source[run.text.clone()]
                .iter()
                .all(u8::is_ascii_whitespace);
            if after_separator && blank {
                return Err(GiveUp.into());
            }
            after_separator = run.separator.is_some();
            let ranges = without_interiors(Some((open, close)), run.text, &run.cuts);
            let tree = self.run(&ranges)?;
            let root = tree.root_node();
            let list = root.child(0).filter(|_| root.child_count() == 1);
            let Some(list) = list.filter(|l| {
                !root.has_error()
                    && l.start_byte() == open
                    && l.end_byte() == close + 1
                    && l.child_count() >= 2
            }) else {
                return Err(GiveUp.into());
            };
            let cuts = Cuts {
                brackets: &run.cuts,
                piece_bytes,
                level,
            };
            self.children(list, 1..list.child_count() - 1, &cuts)?;
            self.make_room();
            if let Some(at) = run.separator {
                self.token(comma, at..at + 1);
            }
        }
        Ok(())
    }
}

/// `text` without the interiors of the containers `cuts` (brackets kept),
/// between the brackets of `around` if given, as ordered, disjoint ranges.
fn without_interiors(
    around: Option<(usize, usize)>,
    text: Range<usize>,
    cuts: &[(usize, usize)],
) -> Vec<Range<usize>> {
    let mut ranges: Vec<Range<usize>> = Vec::with_capacity(cuts.len() + 3);
    let mut push = |r: Range<usize>| match ranges.last_mut() {
        _ if r.is_empty() => {}
        Some(last) if last.end == r.start => last.end = r.end,
        _ => ranges.push(r),
    };
    if let Some((open, _)) = around {
        push(open..open + 1);
    }
    let mut from = text.start;
    for &(open, close) in cuts {
        push(from..open + 1);
        from = close;
    }
    push(from..text.end);
    if let Some((_, close)) = around {
        push(close..close + 1);
    }
    ranges
}

/// A block (`open_blocks` in grammars/*.json: a namespace, a linkage
/// specification) the parse in pieces cuts: where its header starts, its
/// `{` and its `}`.
#[derive(Clone, Copy, Debug)]
struct Block {
    start: usize,
    open: usize,
    close: usize,
}

/// The blocks of `range` (outside preprocessor conditionals, not inside
/// another block of it) longer than `piece_bytes`, in order, found by a
/// scan marking blocks.
fn big_blocks(
    source: &[u8],
    range: Range<usize>,
    piece_bytes: usize,
    grammar: &crate::grammar::Grammar,
) -> Vec<Block> {
    let base = range.start;
    let text = &source[range];
    let mut scan =
        CItemEnds::new(text, &grammar.item_starts, &grammar.open_blocks).marking_blocks();
    let mut open: Vec<(usize, usize, usize)> = Vec::new();
    let mut blocks = Vec::new();
    let mut last = 0;
    while let Some(end) = scan.next_end() {
        match end.kind {
            PieceKind::Header => open.push((last, end.at - 1, end.blocks)),
            // A closer matches the innermost block marked open at its level
            // (a block opened inside a conditional is not marked).
            PieceKind::Closer if open.last().is_some_and(|o| o.2 == end.blocks + 1) => {
                let (start, brace, _) = open.pop().expect("a block is open");
                if open.is_empty() && end.at - start > piece_bytes {
                    blocks.push(Block {
                        start: base + start,
                        open: base + brace,
                        close: base + end.at - 1,
                    });
                }
            }
            _ => {}
        }
        last = end.at;
    }
    blocks
}

/// Where pieces may end, found lazily in increasing order; those at or
/// before the start of the current piece are forgotten.
struct PieceEnds<I> {
    scan: I,
    found: VecDeque<usize>,
}

impl<I: Iterator<Item = usize>> PieceEnds<I> {
    fn new(scan: I) -> Self {
        PieceEnds {
            scan,
            found: VecDeque::new(),
        }
    }

    /// The candidate ends found so far strictly between `start` and `end`.
    fn between(&self, start: usize, end: usize) -> Vec<usize> {
        self.found
            .iter()
            .copied()
            .filter(|&e| e > start && e < end)
            .collect()
    }

    /// The first candidate end at or after `at` of a piece that starts at
    /// `start`.
    fn first_at_or_after(&mut self, start: usize, at: usize) -> Option<usize> {
        while self.found.front().is_some_and(|&end| end <= start) {
            self.found.pop_front();
        }
        let i = self.found.partition_point(|&end| end < at);
        if let Some(&end) = self.found.get(i) {
            return Some(end);
        }
        for end in self.scan.by_ref() {
            self.found.push_back(end);
            if end >= at {
                return Some(end);
            }
        }
        None
    }
}

/// Whether the parse errors of a piece whose tree is `root` lie well before
/// its end: its last [`CLEAN_ITEMS_AT_END`] items parsed cleanly, so the
/// parser had recovered from them and was reading items as it reads them
/// at the start of a piece. A longer piece, or the whole input, parses
/// what follows the same way (the equivalence tests check it on inputs
/// with errors too); growing the piece until its errors are gone would
/// grow it to the end of an input with errors all through it.
///
/// A `}` alone in an error at the very end does not count: it closes a
/// block whose header the parser could not read (every namespace of a
/// libstdc++ unit, `namespace std __attribute__ ((...)) {`), whose items
/// it read as top-level ones. A piece ends after such a block's `}` (no
/// piece ends inside a block), and counted as an error near the end, the
/// `}` made the piece stop before the block and the next piece parse the
/// whole block again: tree-sitter was handed 2.4 times the bytes of the
/// public bench's 1.2 MB units.
fn errors_behind(root: tree_sitter::Node<'_>, source: &[u8]) -> bool {
    let (mut children, mut items) = (root.child_count(), root.named_child_count());
    let stray_closer = children
        .checked_sub(1)
        .and_then(|i| root.child(i))
        .is_some_and(|c| c.is_error() && &source[c.start_byte()..c.end_byte()] == b"}");
    if stray_closer {
        (children, items) = (children - 1, items - 1);
    }
    !root.is_error()
        && items > CLEAN_ITEMS_AT_END
        && (items - CLEAN_ITEMS_AT_END..items).all(|i| {
            root.named_child(i)
                .is_some_and(|item| !item.has_error() && !item.is_error())
        })
        && root.child(children - 1).is_some_and(|c| !c.has_error())
}

/// Whether a piece's parse is mostly one error region: the root itself, or
/// a child of it spanning more than half the piece. Where the piece closes
/// every brace it opens, growing it only feeds the region (tree-sitter-cpp
/// strings whatever follows an `extern template` declaration into it);
/// a piece ending inside a namespace's braces lacks its `}` and is mended
/// by growing.
fn mostly_one_error(root: tree_sitter::Node<'_>) -> bool {
    let half = (root.end_byte() - root.start_byte()) / 2;
    let mut cursor = root.walk();
    root.is_error()
        || root
            .children(&mut cursor)
            .any(|c| c.is_error() && c.end_byte() - c.start_byte() > half)
}

/// Where a piece whose parse has errors among its last
/// [`CLEAN_ITEMS_AT_END`] items may stop early, and how many of its root's
/// children come before: the last candidate end of `inside` (those
/// strictly within the piece) at or before the first of those items with
/// an error, that no child straddles. Starting the next piece there puts
/// the errors at its start, with items after them; on a text with errors
/// every few items, growing the piece would parse them again and again
/// (and a piece of a libstdc++ unit grew to the end of its namespace).
fn clean_cut(root: tree_sitter::Node<'_>, inside: &[usize]) -> Option<(usize, usize)> {
    let n = root.child_count();
    if root.is_error() || n == 0 {
        return None;
    }
    let children: Vec<_> = (0..n).filter_map(|i| root.child(i)).collect();
    let first_bad = (n.saturating_sub(CLEAN_ITEMS_AT_END)..n).find(|&i| children[i].has_error())?;
    let before = children[first_bad].start_byte();
    inside.iter().rev().find_map(|&cut| {
        let items = children.partition_point(|c| c.end_byte() <= cut);
        let straddled = children.get(items).is_some_and(|c| c.start_byte() < cut);
        (cut <= before && items > 0 && !straddled).then_some((cut, items))
    })
}

/// How many clean items must end a piece with parse errors for it to be
/// walked as it is ([`errors_behind`]).
const CLEAN_ITEMS_AT_END: usize = 8;

/// How many `{` of `text` no later `}` of it closes (a `}` that closes
/// none is passed over). Braces in literals and comments count too: a
/// wrong count only makes a piece grow where it could have been split.
fn unclosed_braces(text: &[u8]) -> usize {
    text.iter().fold(0usize, |open, &b| match b {
        b'{' => open + 1,
        b'}' => open.saturating_sub(1),
        _ => open,
    })
}

/// What the JSON scan reports.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Lexeme {
    Open,
    Close,
    Comma,
}

/// The brackets and commas of JSON text outside strings and comments, with
/// their offsets.
struct JsonLexer<'a> {
    src: &'a [u8],
    at: usize,
    /// Whether a string or comment ran to the end of its line or the input.
    broken: bool,
}

impl<'a> JsonLexer<'a> {
    fn new(src: &'a [u8], at: usize) -> Self {
        JsonLexer {
            src,
            at,
            broken: false,
        }
    }

    fn skip_string(&mut self) {
        while let Some(&b) = self.src.get(self.at) {
            self.at += 1;
            match b {
                b'"' => return,
                b'\\' => self.at += 1,
                b'\n' => break,
                _ => {}
            }
        }
        self.broken = true;
    }

    fn skip_comment(&mut self) {
        match self.src.get(self.at) {
            Some(b'/') => {
                self.at = find(self.src, self.at, b"\n").unwrap_or(self.src.len());
            }
            Some(b'*') => match find(self.src, self.at + 1, b"*/") {
                Some(end) => self.at = end + 2,
                None => {
                    self.at = self.src.len();
                    self.broken = true;
                }
            },
            _ => {}
        }
    }
}

impl Iterator for JsonLexer<'_> {
    type Item = (usize, Lexeme);

    fn next(&mut self) -> Option<(usize, Lexeme)> {
        while let Some(&b) = self.src.get(self.at) {
            let at = self.at;
            self.at += 1;
            match b {
                b'[' | b'{' => return Some((at, Lexeme::Open)),
                b']' | b'}' => return Some((at, Lexeme::Close)),
                b',' => return Some((at, Lexeme::Comma)),
                b'"' => self.skip_string(),
                b'/' => self.skip_comment(),
                _ => {}
            }
        }
        None
    }
}

/// Whether every bracket of `src` (outside strings and comments) pairs up
/// with one of its kind, and every string and comment ends.
fn brackets_pair_up(src: &[u8]) -> bool {
    let mut lexer = JsonLexer::new(src, 0);
    let mut open = Vec::new();
    for (at, lexeme) in lexer.by_ref() {
        match lexeme {
            Lexeme::Open => open.push(src[at]),
            Lexeme::Close => {
                let opener = if src[at] == b']' { b'[' } else { b'{' };
                if open.pop() != Some(opener) {
                    return false;
                }
            }
            Lexeme::Comma => {}
        }
    }
    open.is_empty() && !lexer.broken
}

/// The outermost containers in `range` (whose brackets pair up) longer than
/// `piece_bytes`, as the offsets of their brackets.
fn big_containers(src: &[u8], range: Range<usize>, piece_bytes: usize) -> Vec<(usize, usize)> {
    let mut big = Vec::new();
    let mut depth = 0usize;
    let mut opened = 0;
    for (at, lexeme) in JsonLexer::new(&src[..range.end], range.start) {
        match lexeme {
            Lexeme::Open => {
                if depth == 0 {
                    opened = at;
                }
                depth += 1;
            }
            Lexeme::Close => {
                depth -= 1;
                if depth == 0 && at - opened >= piece_bytes {
                    big.push((opened, at));
                }
            }
            Lexeme::Comma => {}
        }
    }
    big
}

/// A run of consecutive elements of a container.
struct Run {
    /// From just after the opening bracket or a separating comma to just
    /// before the next separating comma or the closing bracket.
    text: Range<usize>,
    /// The comma after the run, if another run follows.
    separator: Option<usize>,
    /// The run's outermost containers longer than a piece, to cut.
    cuts: Vec<(usize, usize)>,
}

/// The runs of elements of a container, each at least a piece long (but the
/// last) counting the interiors of the containers it cuts out as nothing.
struct Runs<'a> {
    lexer: JsonLexer<'a>,
    close: usize,
    piece_bytes: usize,
    may_cut: bool,
    done: bool,
}

impl<'a> Runs<'a> {
    fn new(src: &'a [u8], open: usize, close: usize, piece_bytes: usize, may_cut: bool) -> Self {
        Runs {
            lexer: JsonLexer::new(&src[..=close], open + 1),
            close,
            piece_bytes,
            may_cut,
            done: false,
        }
    }
}

impl Iterator for Runs<'_> {
    type Item = Run;

    fn next(&mut self) -> Option<Run> {
        if self.done {
            return None;
        }
        let start = self.lexer.at;
        let mut cuts = Vec::new();
        let mut cut_bytes = 0;
        let mut depth = 0usize;
        let mut opened = 0;
        for (at, lexeme) in self.lexer.by_ref() {
            match lexeme {
                Lexeme::Open => {
                    if depth == 0 {
                        opened = at;
                    }
                    depth += 1;
                }
                Lexeme::Close if depth == 0 => break,
                Lexeme::Close => {
                    depth -= 1;
                    if depth == 0 && self.may_cut && at - opened >= self.piece_bytes {
                        cuts.push((opened, at));
                        cut_bytes += at - opened - 1;
                    }
                }
                Lexeme::Comma if depth == 0 && at - start - cut_bytes >= self.piece_bytes => {
                    return Some(Run {
                        text: start..at,
                        separator: Some(at),
                        cuts,
                    });
                }
                Lexeme::Comma => {}
            }
        }
        self.done = true;
        Some(Run {
            text: start..self.close,
            separator: None,
            cuts,
        })
    }
}
