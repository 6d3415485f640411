//! Running tree-sitter: one parser per language and thread, a time limit
//! on every parse, parses of some byte ranges only, and the parse errors
//! of a tree. The arena's builder (`tree/parse.rs`) and the syntax check
//! (`syntax.rs`) both parse through here.

use std::cell::RefCell;
use std::ops::Range;
use std::time::{Duration, Instant};

use tree_sitter::{Node, ParseOptions, ParseState, Parser, Point};

use crate::languages::Language;

/// How long parsing one input may take before it is abandoned.
pub(crate) const PARSE_TIMEOUT: Duration = Duration::from_secs(60);

thread_local! {
    /// One parser per language and thread: `SyntaxCheck` re-parses
    /// candidates from several threads at once.
    static PARSERS: RefCell<Vec<(Language, Parser)>> = const { RefCell::new(Vec::new()) };
}

/// Runs tree-sitter on `source`; `None` if it takes longer than `timeout`.
pub(crate) fn run_tree_sitter(
    lang: Language,
    source: &[u8],
    timeout: Duration,
) -> Option<tree_sitter::Tree> {
    reparse(lang, source, None, timeout)
}

/// Parses `source`, reusing `old` (a tree of an earlier text, already
/// edited to match `source`) where tree-sitter can; `None` if the parse
/// outlasts `timeout`.
pub(crate) fn reparse(
    lang: Language,
    source: &[u8],
    old: Option<&tree_sitter::Tree>,
    timeout: Duration,
) -> Option<tree_sitter::Tree> {
    with_parser(lang, |parser| run_parser(parser, source, old, timeout))
}

/// Parses only the `ranges` of `source` (all of it if there are none);
/// the nodes keep their offsets in `source`. `None` if the parse outlasts
/// `timeout`.
pub(crate) fn parse_ranges(
    lang: Language,
    source: &[u8],
    ranges: &[Range<usize>],
    timeout: Duration,
) -> Option<tree_sitter::Tree> {
    if ranges.is_empty() {
        return run_tree_sitter(lang, source, timeout);
    }
    // Rows and columns matter to no decision of these grammars' parsers
    // (they have no external scanners): offsets stand in for columns.
    let point = |at: usize| Point::new(0, at);
    let ranges: Vec<tree_sitter::Range> = ranges
        .iter()
        .map(|r| tree_sitter::Range {
            start_byte: r.start,
            end_byte: r.end,
            start_point: point(r.start),
            end_point: point(r.end),
        })
        .collect();
    with_parser(lang, |parser| {
        parser
            .set_included_ranges(&ranges)
            .expect("included ranges are ordered and disjoint");
        let tree = run_parser(parser, source, None, timeout);
        // The parser is shared: the next parse reads the whole text again.
        parser
            .set_included_ranges(&[])
            .expect("no ranges means the whole text");
        tree
    })
}

/// Runs `f` on this thread's parser for `lang`.
fn with_parser<T>(lang: Language, f: impl FnOnce(&mut Parser) -> T) -> T {
    PARSERS.with_borrow_mut(|parsers| {
        let at = match parsers.iter().position(|(l, _)| *l == lang) {
            Some(at) => at,
            None => {
                let mut parser = Parser::new();
                parser
                    .set_language(&lang.ts_language())
                    .expect("the grammar crate matches the tree-sitter version");
                parsers.push((lang, parser));
                parsers.len() - 1
            }
        };
        f(&mut parsers[at].1)
    })
}

fn run_parser(
    parser: &mut Parser,
    source: &[u8],
    old: Option<&tree_sitter::Tree>,
    timeout: Duration,
) -> Option<tree_sitter::Tree> {
    let deadline = Instant::now() + timeout;
    let mut past_deadline = |_: &ParseState| Instant::now() > deadline;
    let options = ParseOptions::new().progress_callback(&mut past_deadline);
    let len = source.len();
    let mut read = |i: usize, _| if i < len { &source[i..] } else { &[][..] };
    let tree = parser.parse_with_options(&mut read, old, Some(options));
    if tree.is_none() {
        // A halted parse leaves state behind for resumption; drop it.
        parser.reset();
    }
    tree
}

/// Counts ERROR and MISSING nodes at or below `root`, visiting only the
/// nodes whose subtree has an error.
pub(crate) fn count_errors(root: Node<'_>) -> usize {
    count_error_nodes(root, true)
}

/// Counts ERROR nodes at or below `root` (text the grammar cannot place),
/// not MISSING ones (tokens the parser would insert).
pub(crate) fn count_error_regions(root: Node<'_>) -> usize {
    count_error_nodes(root, false)
}

/// Bytes of text under the outermost ERROR nodes at or below `root`: how
/// much of it the grammar could not place. An ERROR node counts its
/// children's text (not the whitespace between them, nor, for the root of
/// a parse of some ranges, the text outside them).
pub(crate) fn error_bytes(root: Node<'_>) -> usize {
    let extent = |n: Node<'_>| n.end_byte() - n.start_byte();
    let mut bytes = 0;
    walk_errors(root, |node| {
        if !node.is_error() {
            return true;
        }
        let children: usize = node.children(&mut node.walk()).map(extent).sum();
        bytes += if node.child_count() == 0 {
            extent(node)
        } else {
            children
        };
        false
    });
    bytes
}

fn count_error_nodes(root: Node<'_>, count_missing: bool) -> usize {
    let mut count = 0;
    walk_errors(root, |node| {
        count += usize::from(node.is_error() || (count_missing && node.is_missing()));
        true
    });
    count
}

/// Visits `root` and, in preorder, the children of every visited node
/// that has an error below it, unless `visit` said not to go below it.
fn walk_errors(root: Node<'_>, mut visit: impl FnMut(Node<'_>) -> bool) {
    if !root.has_error() {
        return;
    }
    let mut cursor = root.walk();
    let mut depth = 0usize;
    loop {
        let node = cursor.node();
        if visit(node) && node.has_error() && cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            if depth == 0 {
                return;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            cursor.goto_parent();
            depth -= 1;
        }
    }
}
