//! From input bytes to a [`Tree`]: run tree-sitter once and copy its tree into the arena.
//!
//! This is the only module that walks tree-sitter trees. The walk is an
//! iterative preorder over a `TreeCursor` (C inputs nest deeply; recursion
//! could overflow the stack on large files). Every leaf with bytes becomes a
//! token, anonymous ones included, as do nodes tree-sitter reports without
//! children (`string_content`, a whole `preproc_arg`); zero-width nodes
//! (MISSING tokens, empty nodes) are left out. Text of hidden tokens, which
//! tree-sitter shows no node for (the newline ending a C preprocessor
//! directive), becomes a mandatory token of the node around it. Whitespace
//! belongs to the token before it (leading whitespace to the first), so
//! rendering every token gives the input back byte for byte. ERROR nodes become
//! deletable [`Role::Error`] regions, extras such as comments
//! [`Role::Extra`] units. Parse errors (ERROR and MISSING nodes) are counted
//! the same way here and in [`crate::lang::SyntaxCheck`], which re-parses
//! candidates.

use std::cell::RefCell;
use std::ops::Range;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use tree_sitter::{InputEdit, Node, ParseOptions, ParseState, Parser, Point};

use crate::grammar::{Grammar, KindId, Role};
use crate::lang::Language;
use crate::tree::{NodeSpec, Tree, TreeBuilder};
use crate::units::Units;

/// How long one tree-sitter parse may take before it is abandoned.
pub const PARSE_TIMEOUT: Duration = Duration::from_secs(60);

/// Parses `source` as `lang` into a tree whose leaves are the units.
pub fn parse(lang: Language, source: Vec<u8>) -> Result<(Tree, Units)> {
    let Some(ts_tree) = run_tree_sitter(lang, &source, PARSE_TIMEOUT) else {
        bail!(
            "tree-sitter could not parse the input as {} within {} s",
            lang.name(),
            PARSE_TIMEOUT.as_secs()
        );
    };
    let root = ts_tree.root_node();
    let errors = count_errors(root);
    let mut kinds = KindCache::new(&lang.ts_language());
    let mut builder = TreeBuilder::new(lang.grammar().clone());
    builder.reserve(root.descendant_count(), root.descendant_count());
    for _ in 0..errors {
        builder.note_parse_error();
    }
    walk(root, &source, &mut builder, &mut kinds);
    let root_kind = kinds.get(builder.grammar(), root);
    let root_role = role_of(root);
    // tree-sitter's tree is not needed any more: free it before our own
    // arena's final vectors are built.
    drop(ts_tree);
    let (tree, units) = builder.finish(source);
    if tree.unit_count() > 0 || units.source().is_empty() {
        return Ok((tree, units));
    }
    // Nothing but whitespace: the root is the one token, so that the units
    // still cover the input.
    let source = units.source().to_vec();
    let mut builder = TreeBuilder::new(lang.grammar().clone());
    for _ in 0..errors {
        builder.note_parse_error();
    }
    builder.token(spec(root_kind, None, root_role), 0..source.len());
    Ok(builder.finish(source))
}

fn spec(kind: KindId, field: Option<&str>, role: Option<Role>) -> NodeSpec<'_> {
    NodeSpec {
        kind,
        field,
        role,
        rank: None,
    }
}

/// Feeds `root` and the nodes under it to `builder` in preorder.
fn walk(root: Node<'_>, source: &[u8], builder: &mut TreeBuilder, kinds: &mut KindCache) {
    let root_kind = kinds.get(builder.grammar(), root);
    builder.open(spec(root_kind, None, role_of(root)));
    let hidden = builder.grammar().kind_id(HIDDEN_KIND, false);
    let mut w = Walk {
        source,
        builder,
        hidden,
        last_end: 0,
    };
    let mut cursor = root.walk();
    let mut depth = 0usize;
    if cursor.goto_first_child() {
        depth += 1;
        'nodes: loop {
            let node = cursor.node();
            w.hidden_before(node.start_byte());
            // Leaves never overlap the last token (defensive: tree-sitter's
            // leaves are ordered and disjoint).
            let start = node.start_byte().max(w.last_end);
            let end = node.end_byte();
            if start < end {
                let kind = kinds.get(w.builder.grammar(), node);
                let spec = spec(kind, cursor.field_name(), role_of(node));
                if node.child_count() == 0 {
                    w.builder.token(spec, start..end);
                    w.last_end = end;
                } else {
                    w.builder.open(spec);
                    if cursor.goto_first_child() {
                        depth += 1;
                        continue;
                    }
                    w.builder.close();
                }
            }
            // Next sibling, or climb (closing nodes) until there is one.
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'nodes;
                }
                depth -= 1;
                if depth == 0 {
                    break 'nodes;
                }
                w.hidden_at_end(cursor.node().end_byte(), true);
                w.builder.close();
            }
        }
    }
    w.hidden_at_end(root.end_byte(), false);
}

/// The kind of tokens made for text that no visible node covers.
pub const HIDDEN_KIND: &str = "_hidden";

/// The state of [`walk`]: where the last token ended.
struct Walk<'a> {
    source: &'a [u8],
    builder: &'a mut TreeBuilder,
    hidden: KindId,
    last_end: usize,
}

impl Walk<'_> {
    /// Text between the last token and `start` that is not whitespace is a
    /// hidden token's (tree-sitter shows no node for tokens of hidden rules);
    /// it becomes a token of the open node, so it goes with that node rather
    /// than with whatever token happens to precede it.
    fn hidden_before(&mut self, start: usize) {
        if start <= self.last_end {
            return;
        }
        if let Some(at) = first_non_space(&self.source[self.last_end..start]) {
            self.hidden_token(self.last_end + at..start);
        }
    }

    /// Text between the last token and the end of the node being closed is a
    /// hidden token at the end of that node (such as the newline ending a C
    /// preprocessor directive), even if it is only whitespace. For the root,
    /// trailing whitespace is just the end of the input.
    fn hidden_at_end(&mut self, end: usize, inside: bool) {
        if end <= self.last_end {
            return;
        }
        match first_non_space(&self.source[self.last_end..end]) {
            Some(at) => self.hidden_token(self.last_end + at..end),
            None if inside => self.hidden_token(self.last_end..end),
            None => {}
        }
    }

    fn hidden_token(&mut self, bytes: Range<usize>) {
        self.builder
            .token(spec(self.hidden, None, None), bytes.clone());
        self.last_end = bytes.end;
    }
}

fn first_non_space(bytes: &[u8]) -> Option<usize> {
    bytes
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c))
}

/// The role a node has whatever its slot: errors and extras.
fn role_of(node: Node<'_>) -> Option<Role> {
    if node.is_error() {
        Some(Role::Error)
    } else if node.is_extra() {
        Some(Role::Extra)
    } else {
        None
    }
}

/// Maps tree-sitter's (alias-aware) kind ids to the grammar's kind ids.
struct KindCache {
    ids: Vec<Option<KindId>>,
}

impl KindCache {
    fn new(lang: &tree_sitter::Language) -> Self {
        KindCache {
            ids: vec![None; lang.node_kind_count() + 1],
        }
    }

    fn get(&mut self, grammar: &mut Grammar, node: Node<'_>) -> KindId {
        let ts = node.kind_id() as usize;
        match self.ids.get(ts) {
            Some(Some(id)) => *id,
            Some(None) => {
                let id = grammar.kind_id(node.kind(), node.is_named());
                self.ids[ts] = Some(id);
                id
            }
            // ERROR has a symbol outside the table.
            None => grammar.kind_id(node.kind(), node.is_named()),
        }
    }
}

thread_local! {
    /// One parser per language and thread: `SyntaxCheck` re-parses
    /// candidates from several threads at once.
    static PARSERS: RefCell<Vec<(Language, Parser)>> = const { RefCell::new(Vec::new()) };
}

/// Runs tree-sitter on `source`; `None` if it takes longer than `timeout`.
pub fn run_tree_sitter(
    lang: Language,
    source: &[u8],
    timeout: Duration,
) -> Option<tree_sitter::Tree> {
    reparse(lang, source, None, timeout)
}

/// Parses `source`, reusing `old` (a tree of an earlier text, already
/// edited to match `source`) where tree-sitter can; `None` if the parse
/// outlasts `timeout`.
pub fn reparse(
    lang: Language,
    source: &[u8],
    old: Option<&tree_sitter::Tree>,
    timeout: Duration,
) -> Option<tree_sitter::Tree> {
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
        let parser = &mut parsers[at].1;
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
    })
}

/// The bytes that differ between an old and a new text: everything between
/// their common prefix and their common suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByteEdit {
    pub start: usize,
    pub old_end: usize,
    pub new_end: usize,
}

impl ByteEdit {
    /// How many bytes of the old text the edit replaces.
    pub fn old_len(self) -> usize {
        self.old_end - self.start
    }

    /// The last byte of the old text the edit touches (its start, for an
    /// insertion).
    pub fn last_old_byte(self) -> usize {
        self.old_end.max(self.start + 1) - 1
    }

    /// Where old offset `at`, at or after the edit's old end, lies in the
    /// new text.
    pub fn to_new(self, at: usize) -> usize {
        debug_assert!(at >= self.old_end);
        at - self.old_end + self.new_end
    }
}

/// The single edit that turns `old` into `new`; `None` if they are equal.
pub fn byte_edit(old: &[u8], new: &[u8]) -> Option<ByteEdit> {
    let prefix = common_prefix(old, new);
    if prefix == old.len() && prefix == new.len() {
        return None;
    }
    let room = old.len().min(new.len()) - prefix;
    let suffix = common_suffix(&old[old.len() - room..], &new[new.len() - room..]);
    Some(ByteEdit {
        start: prefix,
        old_end: old.len() - suffix,
        new_end: new.len() - suffix,
    })
}

/// Byte offsets of a text's newlines: rows and columns of any offset in
/// O(log lines), so that describing an edit to tree-sitter does not scan
/// the whole text.
pub struct LineIndex {
    newlines: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &[u8]) -> Self {
        LineIndex {
            newlines: text
                .iter()
                .enumerate()
                .filter_map(|(i, &b)| (b == b'\n').then_some(i))
                .collect(),
        }
    }

    /// Row and byte column of offset `at`.
    pub fn point(&self, at: usize) -> Point {
        let row = self.newlines.partition_point(|&nl| nl < at);
        let line_start = if row == 0 {
            0
        } else {
            self.newlines[row - 1] + 1
        };
        Point::new(row, at - line_start)
    }
}

/// `edit` (from `old`, whose newlines `lines` indexes, to `new`) as
/// tree-sitter wants it, with rows and columns; only the inserted bytes
/// of `new` are scanned.
pub fn input_edit(lines: &LineIndex, new: &[u8], edit: ByteEdit) -> InputEdit {
    let start_position = lines.point(edit.start);
    let inserted = &new[edit.start..edit.new_end];
    let new_end_position = match inserted.iter().rposition(|&b| b == b'\n') {
        None => Point::new(start_position.row, start_position.column + inserted.len()),
        Some(last) => Point::new(
            start_position.row + inserted.iter().filter(|&&b| b == b'\n').count(),
            inserted.len() - last - 1,
        ),
    };
    InputEdit {
        start_byte: edit.start,
        old_end_byte: edit.old_end,
        new_end_byte: edit.new_end,
        start_position,
        old_end_position: lines.point(edit.old_end),
        new_end_position,
    }
}

/// Block sizes compared with one `memcmp` each, largest first, before the
/// last bytes are compared one by one.
const BLOCKS: [usize; 2] = [4096, 64];

/// The length of the longest common prefix of `a` and `b`.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let mut at = 0;
    for block in BLOCKS {
        at += block
            * a[at..]
                .chunks_exact(block)
                .zip(b[at..].chunks_exact(block))
                .take_while(|(x, y)| x == y)
                .count();
    }
    at + a[at..]
        .iter()
        .zip(&b[at..])
        .take_while(|(x, y)| x == y)
        .count()
}

/// The length of the longest common suffix of `a` and `b`.
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let mut at = 0;
    for block in BLOCKS {
        let (x, y) = (&a[..a.len() - at], &b[..b.len() - at]);
        at += block
            * x.rchunks_exact(block)
                .zip(y.rchunks_exact(block))
                .take_while(|(x, y)| x == y)
                .count();
    }
    let (a, b) = (&a[..a.len() - at], &b[..b.len() - at]);
    at + a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

/// Counts ERROR and MISSING nodes at or below `root`, visiting only the
/// nodes whose subtree has an error.
pub fn count_errors(root: Node<'_>) -> usize {
    count_error_nodes(root, true)
}

/// Counts ERROR nodes at or below `root` (text the grammar cannot place),
/// not MISSING ones (tokens the parser would insert).
pub fn count_error_regions(root: Node<'_>) -> usize {
    count_error_nodes(root, false)
}

fn count_error_nodes(root: Node<'_>, count_missing: bool) -> usize {
    if !root.has_error() {
        return 0;
    }
    let mut cursor = root.walk();
    let mut count = 0;
    let mut depth = 0usize;
    loop {
        let node = cursor.node();
        if node.is_error() || (count_missing && node.is_missing()) {
            count += 1;
        }
        if node.has_error() && cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            if depth == 0 {
                return count;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            cursor.goto_parent();
            depth -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configuration::Configuration;
    use crate::lang::SyntaxCheck;
    use crate::reducer::SyntaxFilter;
    use crate::tree::NodeId;

    fn parsed(lang: Language, src: &str) -> (Tree, Units) {
        parse(lang, src.as_bytes().to_vec()).unwrap()
    }

    fn render_all(units: &Units) -> Vec<u8> {
        units.render(&Configuration::full(units.len()))
    }

    /// The nodes of `kind` whose text (without trailing space) is `text`.
    fn find(tree: &Tree, units: &Units, kind: &str, text: &str) -> Vec<NodeId> {
        (0..tree.len() as NodeId)
            .filter(|&n| tree.kind_name(n) == kind)
            .filter(|&n| {
                let t = tree.tokens(n);
                let bytes = &units.source()[units.span(t.start).start..units.span(t.end - 1).end];
                String::from_utf8_lossy(bytes).trim_end() == text
            })
            .collect()
    }

    fn without(tree: &Tree, units: &Units, nodes: &[NodeId]) -> String {
        let full = Configuration::full(units.len());
        let delta = tree.deletion_delta(nodes, &full);
        let mut config = full.clone();
        for r in delta.ranges() {
            config.kept.remove_range(r.clone());
        }
        String::from_utf8(units.render(&config)).unwrap()
    }

    fn dump(tree: &Tree, units: &Units) -> String {
        let mut out = String::new();
        for n in 0..tree.len() as NodeId {
            let pad = "  ".repeat(tree.depth(n) as usize);
            let text = if tree.is_leaf(n) && !tree.tokens(n).is_empty() {
                format!(
                    "{:?}",
                    String::from_utf8_lossy(units.text(tree.tokens(n).start))
                )
            } else {
                String::new()
            };
            out += &format!("{pad}{} {:?} {text}\n", tree.kind_name(n), tree.role(n));
        }
        out
    }

    /// A tiny seeded PRNG (xorshift64*), so the random inputs are the same on every run.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
    }

    const C_SAMPLE: &str = "#include <stdio.h>\n#define MAX(a, b) ((a) > (b) ? (a) : (b))\n\
        /* block */ struct s { int a : 3, b; char *p; };\n\
        enum e { A = 1, B, C, };\n\
        typedef int t1, *t2;\n\
        static int g[] = { 1, 2, [4] = 3, };\n\
        int main(int argc, char **argv) {\n  // line\n  \
        for (int i = 0, j = 1; i < argc; i++, j--) printf(\"%d\\n\", MAX(i, j));\n  \
        if (argc) { return 0; } else return -(-1);\n  \
        __asm__(\"nop\" : \"=r\"(x) : \"r\"(y), \"r\"(z) : \"memory\");\n}\n";

    const JSON_SAMPLE: &str = "{\"a\": [1, 2.5e3, -3, true, false, null],\n \"b\": {\"c\": \"x\\ty\\u00e9\"}, \"d\": []}\n";

    /// Liveness skips subtrees without kept tokens; on random deletions of
    /// subtrees and tokens (from a few to nearly all), with and without
    /// rewrites, it must say what the node-by-node definition says.
    #[test]
    fn liveness_agrees_with_its_definition_on_random_configurations() {
        let inputs = [
            (Language::C, C_SAMPLE),
            (Language::C, include_str!("../../fixtures/c-crash/crash.c")),
            (Language::Json, JSON_SAMPLE),
            (
                Language::Json,
                include_str!("../../fixtures/json-deep/config.json"),
            ),
        ];
        let mut rng = XorShift(0x5851_f42d_4c95_7f2d);
        for (lang, src) in inputs {
            let (tree, units) = parsed(lang, src);
            let n = tree.len() as u64;
            for round in 0..60 {
                let mut config = Configuration::full(units.len());
                let deletions = 1 + rng.next() % (n / (1 + round % 7) + 1);
                for _ in 0..deletions {
                    let node = (rng.next() % n) as NodeId;
                    let end = tree.descendants(node).end;
                    if rng.next().is_multiple_of(3) && end > node + 1 {
                        // A replacement: the node by one of its descendants.
                        let d = node + 1 + (rng.next() % u64::from(end - node - 1)) as NodeId;
                        let (outer, inner) = (tree.tokens(node), tree.tokens(d));
                        config.kept.remove_range(outer.start..inner.start);
                        config.kept.remove_range(inner.end..outer.end);
                    } else if rng.next().is_multiple_of(4) {
                        // One token of it only.
                        let t = tree.tokens(node);
                        if t.start < t.end {
                            config.kept.remove(t.start);
                        }
                    } else {
                        config.kept.remove_range(tree.tokens(node));
                    }
                }
                if round.is_multiple_of(3) {
                    let kept: Vec<u32> = config.kept.iter().collect();
                    let mut rewrites = std::collections::BTreeMap::new();
                    for _ in 0..3 {
                        if !kept.is_empty() {
                            let u = kept[(rng.next() % kept.len() as u64) as usize];
                            rewrites.insert(u, std::sync::Arc::<[u8]>::from(&b"0"[..]));
                        }
                    }
                    config.rewrites = std::sync::Arc::new(rewrites);
                }
                let fast = tree.liveness(&config);
                let reference = crate::tree::Liveness::compute_by_definition(&tree, &config);
                for id in 0..tree.len() as NodeId {
                    assert_eq!(
                        fast.is_live(id),
                        reference.is_live(id),
                        "{lang:?} round {round}: node {id} ({})",
                        tree.kind_name(id)
                    );
                }
            }
        }
    }

    #[test]
    fn a_descendant_that_took_a_mandatory_parts_place_keeps_the_ancestors_alive() {
        let (tree, units) = parsed(Language::C, "int a[9] = {1}; int x = f(1);\n");
        let find = |kind: &str, nth: usize| {
            (0..tree.len() as NodeId)
                .filter(|&n| tree.kind_name(n) == kind)
                .nth(nth)
                .unwrap()
        };
        let without = |texts: &[&str]| {
            let mut config = Configuration::full(units.len());
            for u in 0..units.len() {
                if texts.contains(&std::str::from_utf8(units.text(u)).unwrap().trim()) {
                    config.kept.remove(u);
                }
            }
            tree.liveness(&config)
        };
        // `int a = {1};`: the identifier stands in the array declarator's
        // place, so the init_declarator and the declaration still exist,
        // and the initializer list fills its own slot again.
        let live = without(&["[", "9", "]", "f", "(", ")"]);
        assert!(!live.is_live(find("array_declarator", 0)));
        assert!(live.is_live(find("init_declarator", 0)) && live.is_live(find("declaration", 0)));
        let list = find("initializer_list", 0);
        assert_eq!(tree.anchor_of(list, &live), list);
        // `int x = 1;` from `f(1)`: the `1` sits in an argument list, whose
        // slot only an argument list fits, so nothing stands in the call's
        // place and the declaration is broken.
        assert!(!live.is_live(find("call_expression", 0)));
        assert!(!live.is_live(find("declaration", 1)));
    }

    #[test]
    fn rendering_every_token_gives_the_input_back() {
        let samples: &[(Language, &str)] = &[
            (Language::C, C_SAMPLE),
            (Language::C, ""),
            (Language::C, "   \n\t "),
            (Language::C, "\n\nint x;\n\n"),
            (Language::C, "int x = ;"),
            (Language::C, "int main( { return 0 }}}} @@@ \"unterminated"),
            (Language::C, "#define X\\\n  1\n#if X\nint a;\n#endif\n"),
            (Language::C, "int a; /* unterminated comment"),
            (Language::Json, JSON_SAMPLE),
            (Language::Json, ""),
            (Language::Json, " \n"),
            (Language::Json, "[1, , 2"),
            (Language::Json, "{\"a\" 1} // c"),
            (Language::Json, "}{]["),
        ];
        for &(lang, src) in samples {
            let (tree, units) = parsed(lang, src);
            assert_eq!(render_all(&units), src.as_bytes(), "{lang:?} {src:?}");
            assert_eq!(tree.unit_count(), units.len(), "{src:?}");
            for u in 0..tree.unit_count() {
                assert!(tree.is_leaf(tree.leaf_of(u)));
            }
        }
    }

    #[test]
    fn random_bytes_round_trip_through_both_languages_without_panicking() {
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        let alphabet = b"{}[]()<>,;:=+-*/\"'\\ \n\tabcxyz019#.";
        for i in 0..200 {
            let len = (rng.next() % 300) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    let r = rng.next();
                    // Half the inputs are raw bytes, half are code-like.
                    if i % 2 == 0 {
                        r as u8
                    } else {
                        alphabet[(r % alphabet.len() as u64) as usize]
                    }
                })
                .collect();
            for lang in Language::ALL {
                let (tree, units) = parse(lang, bytes.clone()).unwrap();
                assert_eq!(render_all(&units), bytes, "{lang:?} {bytes:?}");
                assert_eq!(tree.unit_count(), units.len());
                let ts = run_tree_sitter(lang, &bytes, PARSE_TIMEOUT).unwrap();
                assert_eq!(tree.parse_errors, count_all_errors(ts.root_node()));
                // Rendering any subset never panics either.
                let some = Configuration::from_units(
                    units.len(),
                    (0..units.len()).filter(|_| rng.next().is_multiple_of(2)),
                );
                let _ = units.render(&some);
            }
        }
    }

    /// Counts errors by visiting every node (the reference for [`count_errors`]).
    fn count_all_errors(root: Node<'_>) -> usize {
        let mut stack = vec![root];
        let mut count = 0;
        while let Some(n) = stack.pop() {
            count += usize::from(n.is_error() || n.is_missing());
            let mut c = n.walk();
            stack.extend(n.children(&mut c));
        }
        count
    }

    #[test]
    fn parse_errors_are_counted() {
        assert_eq!(parsed(Language::C, C_SAMPLE).0.parse_errors, 0);
        assert_eq!(parsed(Language::Json, JSON_SAMPLE).0.parse_errors, 0);
        assert!(parsed(Language::C, "int x = ;").0.parse_errors >= 1);
        assert!(parsed(Language::C, "int main( {").0.parse_errors >= 1);
        assert!(parsed(Language::Json, "[1, , 2").0.parse_errors >= 1);
    }

    #[test]
    fn error_regions_are_deletable_as_a_whole() {
        let (tree, units) = parsed(Language::C, "int a; @@ ; int b;");
        let errors: Vec<NodeId> = (0..tree.len() as NodeId)
            .filter(|&n| tree.kind_name(n) == "ERROR")
            .collect();
        assert!(!errors.is_empty(), "{}", dump(&tree, &units));
        for &e in &errors {
            assert_eq!(tree.role(e), Role::Error);
            assert!(tree.deletable(e));
        }
        assert_eq!(without(&tree, &units, &errors[..1]), "int a; ; int b;");
    }

    #[test]
    fn deleting_from_a_json_array_takes_one_comma_along() {
        let (tree, units) = parsed(Language::Json, "[1, 2, 3]");
        let n = |t| find(&tree, &units, "number", t)[0];
        let (one, two, three) = (n("1"), n("2"), n("3"));
        assert!(tree.deletable(two));
        assert_eq!(without(&tree, &units, &[two]), "[1, 3]");
        assert_eq!(without(&tree, &units, &[three]), "[1, 2]");
        assert_eq!(without(&tree, &units, &[one]), "[2, 3]");
        assert_eq!(without(&tree, &units, &[one, two]), "[3]");
        assert_eq!(without(&tree, &units, &[two, three]), "[1]");
        assert_eq!(without(&tree, &units, &[one, three]), "[2]");
        assert_eq!(without(&tree, &units, &[one, two, three]), "[]");
    }

    #[test]
    fn deleting_from_a_list_that_already_lost_elements_keeps_it_well_formed() {
        let (tree, units) = parsed(Language::Json, "[1, 2, 3, 4]");
        let n = |t| find(&tree, &units, "number", t)[0];
        let full = Configuration::full(units.len());
        let mut config = full.clone();
        for r in tree.deletion_delta(&[n("1")], &full).ranges() {
            config.kept.remove_range(r.clone());
        }
        assert_eq!(units.render(&config), b"[2, 3, 4]");
        for r in tree.deletion_delta(&[n("2"), n("4")], &config).ranges() {
            config.kept.remove_range(r.clone());
        }
        assert_eq!(units.render(&config), b"[3]");
    }

    #[test]
    fn deleting_a_json_pair_takes_one_comma_along() {
        let (tree, units) = parsed(Language::Json, r#"{"a": 1, "b": 2}"#);
        let pairs: Vec<NodeId> = (0..tree.len() as NodeId)
            .filter(|&n| tree.kind_name(n) == "pair")
            .collect();
        assert_eq!(without(&tree, &units, &pairs[..1]), r#"{"b": 2}"#);
        assert_eq!(without(&tree, &units, &pairs[1..]), r#"{"a": 1}"#);
        assert_eq!(without(&tree, &units, &pairs), "{}");
    }

    #[test]
    fn deleting_a_c_argument_takes_one_comma_along() {
        let (tree, units) = parsed(Language::C, "void g(void) { f(a, b, c); }");
        let b = find(&tree, &units, "identifier", "b")[0];
        assert_eq!(tree.role(b), Role::ListElem);
        assert_eq!(without(&tree, &units, &[b]), "void g(void) { f(a, c); }");
    }

    #[test]
    fn a_list_that_lost_an_element_and_its_separator_still_exists() {
        let (tree, units) = parsed(Language::C, "void g(void) { f(a, b); }");
        let b = find(&tree, &units, "identifier", "b")[0];
        let args = tree.parent(b).unwrap();
        let full = Configuration::full(units.len());
        let mut config = full.clone();
        for r in tree.deletion_delta(&[b], &full).ranges() {
            config.kept.remove_range(r.clone());
        }
        let live = tree.liveness(&config);
        assert!(live.is_live(args) && live.is_live(tree.parent(args).unwrap()));
        assert!(!live.is_live(b));
    }

    #[test]
    fn deleting_a_declarator_keeps_the_type() {
        let (tree, units) = parsed(Language::C, "int a, b;");
        let a = find(&tree, &units, "identifier", "a")[0];
        let b = find(&tree, &units, "identifier", "b")[0];
        assert_eq!(tree.role(a), Role::PlusElem);
        assert_eq!(without(&tree, &units, &[a]), "int b;");
        assert_eq!(without(&tree, &units, &[b]), "int a;");
        // A bitfield width goes with its declarator, and alone takes no comma.
        let (tree, units) = parsed(Language::C, "struct s { int a : 3, b : 4; };");
        let a = find(&tree, &units, "field_identifier", "a")[0];
        let b = find(&tree, &units, "field_identifier", "b")[0];
        let width = find(&tree, &units, "bitfield_clause", ": 3")[0];
        assert_eq!(without(&tree, &units, &[a]), "struct s { int b : 4; };");
        assert_eq!(without(&tree, &units, &[b]), "struct s { int a : 3; };");
        assert_eq!(
            without(&tree, &units, &[width]),
            "struct s { int a , b : 4; };"
        );
    }

    #[test]
    fn deleting_a_comment_in_a_list_leaves_the_commas_alone() {
        let (tree, units) = parsed(Language::Json, "[1, /* c */ 2]");
        let c = find(&tree, &units, "comment", "/* c */")[0];
        assert_eq!(without(&tree, &units, &[c]), "[1, 2]");
        let two = find(&tree, &units, "number", "2")[0];
        assert_eq!(without(&tree, &units, &[two]), "[1/* c */ ]");
    }

    #[test]
    fn comments_are_deletable_extras() {
        let (tree, units) = parsed(Language::C, "int a; // one\n/* two */ int b;");
        let comments: Vec<NodeId> = (0..tree.len() as NodeId)
            .filter(|&n| tree.kind_name(n) == "comment")
            .collect();
        assert_eq!(comments.len(), 2);
        for &c in &comments {
            assert_eq!(tree.role(c), Role::Extra);
            assert!(tree.deletable(c));
        }
        assert_eq!(without(&tree, &units, &comments), "int a; int b;");
    }

    #[test]
    fn if_statement_slots_come_from_node_types() {
        let (tree, units) = parsed(Language::C, "void f(void) { if (x) { y(); } else z(); }");
        let g = &tree.grammar;
        let stmt = find(&tree, &units, "if_statement", "if (x) { y(); } else z();")[0];
        let child = |field_kind: &str| {
            tree.children(stmt)
                .find(|&c| tree.kind_name(c) == field_kind)
                .unwrap()
        };
        let condition = child("parenthesized_expression");
        let consequence = child("compound_statement");
        let alternative = child("else_clause");
        assert_eq!(tree.role(condition), Role::Mandatory);
        assert_eq!(tree.role(consequence), Role::Mandatory);
        assert_eq!(tree.role(alternative), Role::Optional);
        let slot = g.slot(tree.slot(consequence).unwrap());
        let kind = |name| g.find_kind(name, true).unwrap();
        // `consequence` is a `statement`: its subtypes fill it.
        assert!(slot.accepts(kind("compound_statement")));
        assert!(slot.accepts(kind("expression_statement")));
        assert!(!slot.accepts(kind("parenthesized_expression")));
        let cond_slot = g.slot(tree.slot(condition).unwrap());
        assert!(cond_slot.accepts(kind("parenthesized_expression")));
        assert!(!cond_slot.accepts(kind("compound_statement")));
        assert_eq!(
            without(&tree, &units, &[alternative]),
            "void f(void) { if (x) { y(); } }"
        );
    }

    #[test]
    fn the_semicolon_after_a_struct_can_go_with_it() {
        // tree-sitter-c inlines `_empty_declaration: seq(type_specifier, ';')`
        // into the item list: the `;` is a sibling of the struct, not a child.
        for src in [
            "struct s { int a; };\nint x;",
            "void f(void) { struct s { int a; }; }",
        ] {
            let (tree, units) = parsed(Language::C, src);
            let strukt = (0..tree.len() as NodeId)
                .find(|&n| tree.kind_name(n) == "struct_specifier")
                .unwrap();
            let semi = tree.leaf_of(tree.tokens(strukt).end);
            assert_eq!(tree.kind_name(semi), ";");
            assert_eq!(tree.parent(semi), tree.parent(strukt));
            assert_eq!(tree.role(semi), Role::Optional);
            let out = without(&tree, &units, &[strukt, semi]);
            assert!(
                SyntaxCheck::new(Language::C, 0).accepts(out.as_bytes()),
                "{out}"
            );
        }
        // A statement's own `;` stays mandatory.
        let (tree, units) = parsed(Language::C, "void f(void) { g(); }");
        let semi = find(&tree, &units, ";", ";")[0];
        assert_eq!(
            tree.kind_name(tree.parent(semi).unwrap()),
            "expression_statement"
        );
        assert_eq!(tree.role(semi), Role::Mandatory);
    }

    #[test]
    fn a_preprocessor_newline_stays_when_the_value_goes() {
        let (tree, units) = parsed(Language::C, "#define X 1\nint x;\n");
        let value = find(&tree, &units, "preproc_arg", "1")[0];
        assert_eq!(tree.role(value), Role::Optional);
        assert_eq!(without(&tree, &units, &[value]), "#define X \nint x;\n");
    }

    #[test]
    fn rendering_never_glues_two_tokens_into_one() {
        // Renders `src` without the tokens whose text is in `drop`.
        let without_tokens = |src: &str, drop: &[&str]| {
            let (_, units) = parsed(Language::C, src);
            let keep = (0..units.len()).filter(|&u| {
                let text = String::from_utf8_lossy(units.text(u));
                !drop.contains(&text.trim_end())
            });
            let config = Configuration::from_units(units.len(), keep);
            String::from_utf8(units.render(&config)).unwrap()
        };
        assert_eq!(without_tokens("int(x);", &["(", ")"]), "int x;");
        assert_eq!(without_tokens("int y=-(-x);", &["(", ")"]), "int y=- -x;");
        assert_eq!(without_tokens("a=b+(+c);", &["(", ")"]), "a=b+ +c;");
        assert_eq!(without_tokens("f(x)/(*p);", &["(", ")", "x"]), "f/ *p;");
        // `int x;` without `x`: its neighbours keep their own spacing.
        assert_eq!(without_tokens("int x;", &["x"]), "int ;");
        assert_eq!(without_tokens("int\tx\n;", &["x"]), "int\t;");
    }

    #[test]
    fn deleting_elements_of_separated_lists_keeps_the_syntax_valid() {
        for (lang, src) in [(Language::C, C_SAMPLE), (Language::Json, JSON_SAMPLE)] {
            let (tree, units) = parsed(lang, src);
            let check = SyntaxCheck::new(lang, 0);
            let full = Configuration::full(units.len());
            let mut tried = 0;
            let mut failures = Vec::new();
            for p in 0..tree.len() as NodeId {
                if tree.is_leaf(p) || !tree.grammar.has_separators(tree.kind(p)) {
                    continue;
                }
                let children: Vec<NodeId> =
                    tree.children(p).filter(|&c| tree.deletable(c)).collect();
                // Every child alone, and every pair of children.
                let mut sets: Vec<Vec<NodeId>> = children.iter().map(|&c| vec![c]).collect();
                for (i, &a) in children.iter().enumerate() {
                    sets.extend(children[i + 1..].iter().map(|&b| vec![a, b]));
                }
                for set in sets {
                    let mut config = full.clone();
                    for r in tree.deletion_delta(&set, &full).ranges() {
                        config.kept.remove_range(r.clone());
                    }
                    // Emptying a one-or-more list removes its parent too.
                    if !tree.liveness(&config).is_live(p) {
                        continue;
                    }
                    let out = String::from_utf8(units.render(&config)).unwrap();
                    if !check.accepts(out.as_bytes()) {
                        let kinds: Vec<&str> = set.iter().map(|&n| tree.kind_name(n)).collect();
                        failures.push(format!("{kinds:?} of `{}`:\n{out}", tree.kind_name(p)));
                    }
                    tried += 1;
                }
            }
            assert!(tried > 20, "{tried}");
            assert!(failures.is_empty(), "{}", failures.join("\n"));
        }
    }

    #[test]
    fn whitespace_only_input_is_one_unit() {
        let (tree, units) = parsed(Language::C, " \n ");
        assert_eq!(units.len(), 1);
        assert_eq!(tree.len(), 1);
        assert_eq!(render_all(&units), b" \n ");
        let (tree, units) = parsed(Language::Json, "");
        assert_eq!((tree.len(), units.len()), (1, 0));
    }

    #[test]
    fn deep_nesting_does_not_overflow_the_stack() {
        let depth = 20_000;
        let src = format!("int x = {}1{};", "(".repeat(depth), ")".repeat(depth));
        let (tree, units) = parsed(Language::C, &src);
        assert_eq!(render_all(&units), src.as_bytes());
        assert!(tree.max_depth() as usize > depth);
        let json = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let (_, units) = parsed(Language::Json, &json);
        assert_eq!(render_all(&units), json.as_bytes());
    }
}
