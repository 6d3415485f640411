//! From input bytes to a [`Tree`]: run tree-sitter over the input (a large
//! one in pieces, see [`pieces`]) and copy its trees into the arena.
//!
//! This is the only module that copies tree-sitter trees into the arena
//! (the syntax check in `syntax.rs` reads the trees of candidates to judge
//! them, and builds nothing). The walk is an iterative preorder over a `TreeCursor` (C inputs nest deeply; recursion
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
//! by `tree/sitter.rs` for both. The language is only asked for facts (its
//! grammar, its tree-sitter parser, how to cut it into pieces), never which
//! one it is.

use std::ops::Range;
use std::time::Instant;

use anyhow::{Result, bail};
use tree_sitter::Node;

use crate::grammar::{Grammar, KindId, Role};
use crate::languages::Language;
use crate::tree::sitter::{PARSE_TIMEOUT, count_errors, error_bytes, parse_ranges};
use crate::tree::{NodeSpec, Tree, TreeBuilder};
use crate::units::Units;

mod pieces;

/// How many bytes of text [`parse`] hands tree-sitter at once, roughly:
/// tree-sitter's tree costs about 40 times the text it covers, so parsing a
/// large input in pieces keeps that cost bounded (see [`pieces`]).
const PIECE_BYTES: usize = 32 * 1024;

/// Parses `source` as `lang` into a tree whose leaves are the units.
pub fn parse(lang: Language, source: Vec<u8>) -> Result<(Tree, Units)> {
    parse_in_pieces(lang, source, PIECE_BYTES)
}

/// [`parse`], handing tree-sitter pieces of about `piece_bytes` bytes of
/// text at a time; the tree is the one a single parse of the whole input
/// gives. Inputs no longer than one piece, and inputs the pieces do not fit
/// (see [`pieces`]), are parsed whole.
fn parse_in_pieces(lang: Language, source: Vec<u8>, piece_bytes: usize) -> Result<(Tree, Units)> {
    build(lang, source, piece_bytes).map(|(tree, units, _)| (tree, units))
}

/// How an input was parsed.
#[derive(Clone, Copy, Debug, Default)]
struct ParseCount {
    /// tree-sitter parses run, whole or of pieces.
    parses: usize,
    /// Whether the tree came from one parse of the whole input.
    whole: bool,
    /// Blocks walked with their interior parsed in pieces of its own.
    blocks: usize,
    /// The most bytes one parse was handed.
    longest: usize,
    /// The bytes all parses were handed.
    bytes: usize,
}

/// [`parse_in_pieces`], also telling how the input was parsed.
fn build(lang: Language, source: Vec<u8>, piece_bytes: usize) -> Result<(Tree, Units, ParseCount)> {
    let mut emitter = Emitter::new(lang, &source, Instant::now() + PARSE_TIMEOUT);
    let in_pieces = if source.len() > piece_bytes {
        emitter.pieces(piece_bytes)
    } else {
        Err(GiveUp.into())
    };
    match in_pieces {
        Ok(()) => {}
        Err(e) if e.is::<GiveUp>() => {
            emitter.restart();
            emitter.whole()?;
            emitter.count.whole = true;
        }
        Err(e) => return Err(e),
    }
    let Emitter {
        builder,
        root,
        errors,
        count,
        ..
    } = emitter;
    let (tree, units) = builder.finish(source);
    if tree.unit_count() > 0 || units.source().is_empty() {
        return Ok((tree, units, count));
    }
    // Nothing but whitespace: the root is the one token, so that the units
    // still cover the input.
    let source = units.source().to_vec();
    let mut builder = TreeBuilder::new(lang.grammar().clone());
    for _ in 0..errors {
        builder.note_parse_error();
    }
    let (root_kind, root_role) = root.expect("a parse opens the root");
    builder.token(spec(root_kind, None, root_role), 0..source.len());
    let (tree, units) = builder.finish(source);
    Ok((tree, units, count))
}

/// Raised while parsing in pieces when the pieces do not fit the input
/// (a piece has a parse error, or its tree is not shaped as expected): the
/// input is then parsed whole.
#[derive(Debug)]
struct GiveUp;

impl std::fmt::Display for GiveUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the input does not parse in pieces")
    }
}

impl std::error::Error for GiveUp {}

fn spec(kind: KindId, field: Option<&str>, role: Option<Role>) -> NodeSpec<'_> {
    NodeSpec {
        kind,
        field,
        role,
        rank: None,
    }
}

/// The kind of tokens made for text that no visible node covers.
const HIDDEN_KIND: &str = "_hidden";

/// Containers whose interior the tree being walked leaves out (JSON pieces):
/// the byte offsets of their opening and closing brackets, in order, and
/// what the walk needs to fill them in (see [`pieces`]).
struct Cuts<'c> {
    brackets: &'c [(usize, usize)],
    piece_bytes: usize,
    /// How many cut containers enclose these.
    level: usize,
}

impl Cuts<'_> {
    const NONE: Cuts<'static> = Cuts {
        brackets: &[],
        piece_bytes: 0,
        level: 0,
    };

    /// The cut container `node` is, if it is one.
    fn at(&self, node: Node<'_>) -> Option<(usize, usize)> {
        let open = node.start_byte();
        let at = self.brackets.binary_search_by_key(&open, |b| b.0).ok()?;
        let (open, close) = self.brackets[at];
        (node.end_byte() == close + 1 && node.child_count() >= 2).then_some((open, close))
    }
}

/// Copies tree-sitter trees into a [`TreeBuilder`] in preorder: one tree of
/// the whole input, or several trees of pieces of it, whose nodes tree-sitter
/// reports at their offsets in the whole input, walked in the order of their
/// text (the walk the module documentation describes).
struct Emitter<'a> {
    lang: Language,
    source: &'a [u8],
    builder: TreeBuilder,
    kinds: KindCache,
    hidden: KindId,
    /// Where the last token ended.
    last_end: usize,
    /// Parse errors (ERROR and MISSING nodes) in the trees walked so far.
    errors: usize,
    /// When parsing must be over.
    deadline: Instant,
    /// The root's kind and role, once it is open.
    root: Option<(KindId, Option<Role>)>,
    count: ParseCount,
    /// The nodes and tokens given to the builder.
    emitted: Counts,
    /// The nodes and tokens the builder has room for.
    room: Counts,
}

impl<'a> Emitter<'a> {
    fn new(lang: Language, source: &'a [u8], deadline: Instant) -> Self {
        let mut builder = TreeBuilder::new(lang.grammar().clone());
        let hidden = builder.grammar().kind_id(HIDDEN_KIND, false);
        Emitter {
            lang,
            source,
            builder,
            kinds: KindCache::new(&lang.ts_language()),
            hidden,
            last_end: 0,
            errors: 0,
            deadline,
            root: None,
            count: ParseCount::default(),
            emitted: Counts::default(),
            room: Counts::default(),
        }
    }

    /// Forgets everything emitted so far.
    fn restart(&mut self) {
        let count = self.count;
        *self = Emitter::new(self.lang, self.source, self.deadline);
        self.count = count;
    }

    /// Parses the whole input at once and walks its tree.
    fn whole(&mut self) -> Result<()> {
        let ts_tree = self.run(&[])?;
        let root = ts_tree.root_node();
        self.builder
            .reserve(root.descendant_count(), root.descendant_count());
        self.note_errors(root);
        self.open_root(root);
        self.children(root, 0..root.child_count(), &Cuts::NONE)?;
        self.close_root(root.end_byte());
        Ok(())
    }

    /// Runs tree-sitter on the `ranges` of the input (all of it if there
    /// are none); fails once the deadline has passed.
    fn run(&mut self, ranges: &[Range<usize>]) -> Result<tree_sitter::Tree> {
        self.count.parses += 1;
        let bytes = ranges.iter().map(|r| r.len()).sum();
        self.count.longest = self.count.longest.max(bytes);
        self.count.bytes += bytes;
        let left = self.deadline.saturating_duration_since(Instant::now());
        match parse_ranges(self.lang, self.source, ranges, left) {
            Some(tree) => Ok(tree),
            None => bail!(
                "tree-sitter could not parse the input as {} within {} s",
                self.lang.name(),
                PARSE_TIMEOUT.as_secs()
            ),
        }
    }

    /// Adds the parse errors at or below `node` to the count.
    fn note_errors(&mut self, node: Node<'_>) {
        for _ in 0..count_errors(node) {
            self.builder.note_parse_error();
            self.errors += 1;
        }
        self.builder.note_error_bytes(error_bytes(node));
    }

    /// Opens the root of the tree, as `root` (of the whole input or of its
    /// first piece) says.
    fn open_root(&mut self, root: Node<'_>) {
        let kind = self.kinds.get(self.builder.grammar(), root);
        let role = role_of(root);
        self.root = Some((kind, role));
        self.open(spec(kind, None, role));
    }

    /// Ends the root, which ends at `end`: trailing whitespace is just the
    /// end of the input.
    fn close_root(&mut self, end: usize) {
        self.hidden_at_end(end, false);
    }

    /// Walks the children of `parent` whose indices are in `which`.
    fn children(&mut self, parent: Node<'_>, which: Range<usize>, cuts: &Cuts<'_>) -> Result<()> {
        let mut cursor = parent.walk();
        if !cursor.goto_first_child() {
            return Ok(());
        }
        for i in 0..which.end {
            if i >= which.start {
                self.subtree(cursor.node(), cursor.field_name(), cuts)?;
            }
            if !cursor.goto_next_sibling() {
                break;
            }
        }
        Ok(())
    }

    /// Walks `top` (which fills `field` in its parent) and the nodes under
    /// it in preorder; a cut container is filled in by
    /// [`Emitter::interior`].
    fn subtree(&mut self, top: Node<'_>, field: Option<&str>, cuts: &Cuts<'_>) -> Result<()> {
        let mut cursor = top.walk();
        let mut depth = 0usize;
        loop {
            let node = cursor.node();
            self.hidden_before(node.start_byte());
            // Leaves never overlap the last token (defensive: tree-sitter's
            // leaves are ordered and disjoint).
            let start = node.start_byte().max(self.last_end);
            let end = node.end_byte();
            if start < end {
                let kind = self.kinds.get(self.builder.grammar(), node);
                let field = if depth == 0 {
                    field
                } else {
                    cursor.field_name()
                };
                let spec = spec(kind, field, role_of(node));
                if node.child_count() == 0 {
                    self.emit_token(spec, start..end);
                    self.last_end = end;
                } else if let Some(brackets) = cuts.at(node) {
                    self.open(spec);
                    self.children(node, 0..1, cuts)?;
                    self.interior(brackets, cuts.piece_bytes, cuts.level + 1)?;
                    self.children(node, 1..node.child_count(), cuts)?;
                    self.hidden_at_end(end, true);
                    self.builder.close();
                } else {
                    self.open(spec);
                    cursor.goto_first_child();
                    depth += 1;
                    continue;
                }
            }
            // Next sibling, or climb (closing nodes) until there is one.
            loop {
                if depth == 0 {
                    return Ok(());
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                cursor.goto_parent();
                depth -= 1;
                self.hidden_at_end(cursor.node().end_byte(), true);
                self.builder.close();
            }
        }
    }

    /// Adds a token of `kind` that no tree shows (a separator between two
    /// pieces), as the walk would have.
    fn token(&mut self, kind: KindId, bytes: Range<usize>) {
        self.hidden_before(bytes.start);
        self.emit_token(spec(kind, None, None), bytes.clone());
        self.last_end = bytes.end;
    }

    fn kind_id(&mut self, name: &str, named: bool) -> KindId {
        self.builder.grammar().kind_id(name, named)
    }

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
        self.emit_token(spec(self.hidden, None, None), bytes.clone());
        self.last_end = bytes.end;
    }

    fn open(&mut self, spec: NodeSpec<'_>) {
        self.builder.open(spec);
        self.emitted.nodes += 1;
    }

    fn emit_token(&mut self, spec: NodeSpec<'_>, bytes: Range<usize>) {
        self.builder.token(spec, bytes);
        self.emitted.nodes += 1;
        self.emitted.tokens += 1;
    }

    /// Makes room in the builder for the nodes and tokens still to come,
    /// projected from those of the text walked so far, a little more than
    /// needed: growing the arena's vectors by doubling would leave up to
    /// half of them unused.
    fn make_room(&mut self) {
        let done = self.last_end;
        if done == 0 {
            return;
        }
        let left = (self.source.len() - done) as f64 / done as f64;
        let project = |n: usize| n + (n as f64 * left * 1.03) as usize + 256;
        let want = Counts {
            nodes: project(self.emitted.nodes),
            tokens: project(self.emitted.tokens),
        };
        if want.nodes > self.room.nodes || want.tokens > self.room.tokens {
            // Some more again, so that the next pieces' projections seldom
            // ask for a little more each.
            let more = |n: usize| n + n / 32;
            self.room = Counts {
                nodes: more(want.nodes).max(self.room.nodes),
                tokens: more(want.tokens).max(self.room.tokens),
            };
            self.builder.reserve(
                self.room.nodes - self.emitted.nodes,
                self.room.tokens - self.emitted.tokens,
            );
        }
    }
}

/// Numbers of nodes and tokens.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    nodes: usize,
    tokens: usize,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configuration::Configuration;
    use crate::interfaces::SyntaxFilter;
    use crate::syntax::SyntaxCheck;
    use crate::tree::NodeId;
    use crate::tree::sitter::run_tree_sitter;

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

    /// C++ in namespaces and linkage blocks, without parse errors.
    const CPP_SAMPLE: &str = "extern \"C\" {\ntypedef unsigned long size_t;\nint puts(const char *);\n}\n\
        namespace std {\ninline namespace v1 {\n  template<typename _Tp, typename _Up = int>\n  \
        struct pair { _Tp first; _Up second; };\n  using word = unsigned;\n}\n\
        class base { public: virtual ~base() noexcept = default; int v = 0; };\n\
        extern \"C\" int f(int x) { int y = x; int z = y; return z; }\n\
        namespace detail { enum class e : int { a, b = 2 }; static_assert(sizeof(int) > 1, \"int\"); }\n}\n\
        extern \"C++\" { template<class T> T id(T t) { return t; } }\n\
        int main() { std::pair<int> p{1, 2}; return id(p.first); }\n";

    const JSON_SAMPLE: &str = "{\"a\": [1, 2.5e3, -3, true, false, null],\n \"b\": {\"c\": \"x\\ty\\u00e9\"}, \"d\": []}\n";

    /// Asserts that `live` says of every node what the definition says.
    fn assert_live_as_defined(
        tree: &Tree,
        config: &Configuration,
        live: &crate::tree::Liveness,
        context: &str,
    ) {
        let reference = crate::tree::Liveness::compute_by_definition(tree, config);
        for id in 0..tree.len() as NodeId {
            assert_eq!(
                live.is_live(id),
                reference.is_live(id),
                "{context}: node {id} ({})",
                tree.kind_name(id)
            );
        }
    }

    /// Inputs the liveness tests delete from at random.
    fn liveness_samples() -> [(Language, &'static str); 4] {
        [
            (Language::named("c"), C_SAMPLE),
            (
                Language::named("c"),
                include_str!("../../fixtures/c-crash/crash.c"),
            ),
            (Language::named("json"), JSON_SAMPLE),
            (
                Language::named("json"),
                include_str!("../../fixtures/json-deep/config.json"),
            ),
        ]
    }

    /// Liveness skips subtrees without kept tokens; on random deletions of
    /// subtrees and tokens (from a few to nearly all), with and without
    /// rewrites, it must say what the node-by-node definition says.
    #[test]
    fn liveness_agrees_with_its_definition_on_random_configurations() {
        let inputs = liveness_samples();
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
                assert_live_as_defined(&tree, &config, &fast, &format!("{lang:?} round {round}"));
            }
        }
    }

    /// Liveness updated from the last pass's after each commit (deletions
    /// of subtrees, of a node around a descendant, of single tokens, with
    /// rewrites coming and going, and now and then tokens kept again, as
    /// a guessed configuration is) must be what a fresh computation gives.
    #[test]
    fn liveness_updated_after_random_commits_agrees_with_a_fresh_computation() {
        let inputs = liveness_samples();
        let mut rng = XorShift(0x2f6b_9a3c_51d4_e807);
        let mut updates = 0;
        for (lang, src) in inputs {
            let (tree, units) = parsed(lang, src);
            let n = tree.len() as u64;
            for _ in 0..8 {
                let mut config = Configuration::full(units.len());
                let mut live = tree.sizes_and_liveness(&config, None).1;
                for step in 0..40 {
                    let before = config.clone();
                    let node = (rng.next() % n) as NodeId;
                    let end = tree.descendants(node).end;
                    match rng.next() % 5 {
                        0 if end > node + 1 => {
                            let d = node + 1 + (rng.next() % u64::from(end - node - 1)) as NodeId;
                            let (outer, inner) = (tree.tokens(node), tree.tokens(d));
                            config.kept.remove_range(outer.start..inner.start);
                            config.kept.remove_range(inner.end..outer.end);
                        }
                        1 => {
                            let t = tree.tokens(node);
                            if t.start < t.end {
                                config.kept.remove(t.start);
                            }
                        }
                        2 => {
                            let mut rewrites = (*config.rewrites).clone();
                            let t = tree.tokens(node);
                            if rewrites.remove(&t.start).is_none() && t.start < t.end {
                                rewrites.insert(t.start, std::sync::Arc::<[u8]>::from(&b"0"[..]));
                            }
                            config.rewrites = std::sync::Arc::new(rewrites);
                        }
                        3 if step % 4 == 3 => config.kept.insert_range(tree.tokens(node)),
                        _ => {
                            config.kept.remove_range(tree.tokens(node));
                        }
                    }
                    let sizes = tree.sizes(&config);
                    let updated = crate::tree::Liveness::update(&tree, &config, &sizes, &live);
                    updates += usize::from(updated.is_some());
                    live = updated.unwrap_or_else(|| tree.sizes_and_liveness(&config, None).1);
                    let context = format!(
                        "{lang:?} step {step}, {:?} -> {:?}",
                        before.kept.runs(),
                        config.kept.runs()
                    );
                    assert_live_as_defined(&tree, &config, &live, &context);
                }
            }
        }
        // Most commits are updates, not fresh computations.
        assert!(updates > 4 * 8 * 40 / 2, "{updates} updates");
    }

    #[test]
    fn a_descendant_that_took_a_mandatory_parts_place_keeps_the_ancestors_alive() {
        let (tree, units) = parsed(Language::named("c"), "int a[9] = {1}; int x = f(1);\n");
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
            (Language::named("c"), C_SAMPLE),
            (Language::named("c"), ""),
            (Language::named("c"), "   \n\t "),
            (Language::named("c"), "\n\nint x;\n\n"),
            (Language::named("c"), "int x = ;"),
            (
                Language::named("c"),
                "int main( { return 0 }}}} @@@ \"unterminated",
            ),
            (
                Language::named("c"),
                "#define X\\\n  1\n#if X\nint a;\n#endif\n",
            ),
            (Language::named("c"), "int a; /* unterminated comment"),
            (Language::named("json"), JSON_SAMPLE),
            (Language::named("json"), ""),
            (Language::named("json"), " \n"),
            (Language::named("json"), "[1, , 2"),
            (Language::named("json"), "{\"a\" 1} // c"),
            (Language::named("json"), "}{]["),
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
            for lang in Language::all() {
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

    /// Where `a` and `b` first differ (kind, parent, role, slot and tokens
    /// of every node, every unit's bytes, parse errors), if anywhere.
    fn tree_difference(a: &(Tree, Units), b: &(Tree, Units)) -> Option<String> {
        let ((ta, ua), (tb, ub)) = (a, b);
        if (ta.len(), ua.len(), ta.parse_errors) != (tb.len(), ub.len(), tb.parse_errors) {
            return Some(format!(
                "nodes, units, errors: {:?} vs {:?}",
                (ta.len(), ua.len(), ta.parse_errors),
                (tb.len(), ub.len(), tb.parse_errors)
            ));
        }
        for n in 0..ta.len() as NodeId {
            let node = |t: &Tree| {
                (
                    t.kind_name(n).to_string(),
                    t.parent(n),
                    t.role(n),
                    t.slot(n),
                    t.tokens(n),
                    t.depth(n),
                )
            };
            if node(ta) != node(tb) {
                return Some(format!("node {n}: {:?} vs {:?}", node(ta), node(tb)));
            }
        }
        (0..ua.len())
            .find(|&u| ua.span(u) != ub.span(u))
            .map(|u| format!("unit {u}: {:?} vs {:?}", ua.span(u), ub.span(u)))
    }

    /// The piece sizes the equivalence tests split inputs with.
    const TINY_PIECES: [usize; 5] = [8, 13, 29, 64, 200];

    /// Parses `src` whole and in tiny pieces: the trees must be the same.
    fn assert_pieces_build_the_whole_tree(lang: Language, src: &[u8], name: &str) {
        let whole = parse_in_pieces(lang, src.to_vec(), usize::MAX).unwrap();
        for piece in TINY_PIECES {
            let (tree, units, count) = build(lang, src.to_vec(), piece).unwrap();
            // Valid inputs longer than a few pieces are parsed in pieces
            // (JSON ones if a container is that long).
            let text = String::from_utf8_lossy(src);
            let one_container =
                text.trim().starts_with(['[', '{']) && text.trim().ends_with([']', '}']);
            if whole.0.parse_errors == 0
                && src.len() > 4 * piece
                && (lang.pieces() == crate::languages::Pieces::TopLevelItems || one_container)
            {
                assert!(!count.whole && count.parses >= 2, "{name}: {count:?}");
            }
            let pieces = (tree, units);
            if let Some(diff) = tree_difference(&whole, &pieces) {
                panic!(
                    "{name} in pieces of {piece} bytes: {diff}\nwhole:\n{}\npieces:\n{}",
                    dump(&whole.0, &whole.1),
                    dump(&pieces.0, &pieces.1)
                );
            }
        }
    }

    /// The files under `fixtures/` and `tests/` in a language of the
    /// registry (C, C++, JSON, ...).
    fn files_in_known_languages() -> Vec<(Language, std::path::PathBuf)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![root.join("fixtures"), root.join("tests")];
        let mut files = Vec::new();
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if let Some(lang) = Language::from_path(&path) {
                    files.push((lang, path));
                }
            }
        }
        files.sort_by(|a, b| a.1.cmp(&b.1));
        files
    }

    #[test]
    fn parsing_in_pieces_builds_the_tree_a_whole_parse_builds() {
        let files = files_in_known_languages();
        assert!(files.len() >= 6, "{files:?}");
        for (lang, path) in files {
            let src = std::fs::read(&path).unwrap();
            assert_pieces_build_the_whole_tree(lang, &src, &path.display().to_string());
        }
        for (lang, src) in [
            (Language::named("c"), C_SAMPLE),
            (Language::named("cpp"), CPP_SAMPLE),
            (Language::named("json"), JSON_SAMPLE),
        ] {
            assert_pieces_build_the_whole_tree(lang, src.as_bytes(), "sample");
        }
    }

    /// Where the scan for the ends of top-level items may cut `src` (C++).
    fn item_ends(src: &str) -> Vec<&str> {
        let grammar = Language::named("cpp").grammar();
        let ends = crate::tree::item_ends::CItemEnds::new(
            src.as_bytes(),
            &grammar.item_starts,
            &grammar.open_blocks,
        );
        ends.map(|at| &src[..at]).collect()
    }

    /// A namespace of many items, with a linkage block and another
    /// namespace in it; `header` between `namespace std` and its brace.
    fn long_namespace(header: &str) -> String {
        let mut src = format!("int before;\nnamespace std{header} {{\n");
        for i in 0..60 {
            src += &format!(
                "  template <typename T> struct s{i} {{ T v; int get() {{ return {i}; }} }};\n"
            );
            if i == 20 {
                src += "  extern \"C\" {\n";
                for j in 0..30 {
                    src += &format!("    int c{j}(int);\n");
                }
                src += "  }\n  namespace inner {\n";
                for j in 0..30 {
                    src += &format!("    typedef unsigned long t{j};\n");
                }
                src += "  }\n";
            }
        }
        src + "}\nint after;\n"
    }

    #[test]
    fn a_block_longer_than_a_piece_has_its_items_parsed_in_pieces_of_their_own() {
        let cpp = Language::named("cpp");
        let src = long_namespace("");
        assert_pieces_build_the_whole_tree(cpp, src.as_bytes(), "namespace");
        let (_, _, count) = build(cpp, src.clone().into_bytes(), 256).unwrap();
        // The namespace, and the linkage block and namespace in it.
        assert_eq!(count.blocks, 3, "{count:?}");
        assert!(count.longest < 4 * 256, "{count:?}");
        // A header tree-sitter-cpp cannot parse (GNU attributes) leaves an
        // error in the block's own parse, not a parse of all of it.
        let attributed = long_namespace(" __attribute__ ((__visibility__ (\"default\")))");
        let (tree, units, count) = build(cpp, attributed.clone().into_bytes(), 256).unwrap();
        assert_eq!(render_all(&units), attributed.as_bytes());
        assert_eq!(tree.unit_count(), units.len());
        assert!(tree.parse_errors > 0);
        assert_eq!(count.blocks, 3, "{count:?}");
        assert!(count.longest < 4 * 256, "{count:?}");
        assert!(attributed.len() > 20 * 256);
    }

    #[test]
    fn namespaces_with_headers_tree_sitter_cannot_read_are_parsed_about_once() {
        // libstdc++'s shape: namespace after namespace, each header an
        // error to tree-sitter-cpp, which reads the items as top-level
        // ones and the closing `}` as an error of its own.
        let cpp = Language::named("cpp");
        let mut src = String::new();
        for n in 0..40 {
            src += "namespace std __attribute__ ((__visibility__ (\"default\"))) {\n";
            for i in 0..12 {
                src += &format!("  template <typename T> struct s{n}_{i} {{ T v; }};\n");
            }
            src += "}\n";
        }
        let piece = 2048;
        assert!(src.len() > 8 * piece && src.len() / 40 < piece);
        let (tree, units, count) = build(cpp, src.clone().into_bytes(), piece).unwrap();
        assert_eq!(render_all(&units), src.as_bytes());
        assert_eq!(tree.unit_count(), units.len());
        assert!(tree.parse_errors >= 40);
        assert!(
            count.bytes < src.len() * 5 / 4,
            "{count:?} for {}",
            src.len()
        );
    }

    #[test]
    fn pieces_may_end_between_the_items_of_a_namespace_or_linkage_block_but_not_in_a_function() {
        let ends = item_ends(CPP_SAMPLE);
        let inside = |text: &str| ends.iter().any(|end| end.ends_with(text));
        // In `extern "C" {`, `namespace std {` and `inline namespace v1 {`.
        assert!(inside("size_t;"), "{ends:?}");
        assert!(
            inside("struct pair { _Tp first; _Up second; };"),
            "{ends:?}"
        );
        assert!(inside("int v = 0; };"), "{ends:?}");
        // Not in the body of `extern "C" int f(int x) {`.
        assert!(!inside("int y = x;"), "{ends:?}");
        assert!(!inside("int z = y;"), "{ends:?}");
        // Headers are compared word by word.
        let spaced = "namespace  a\n{ int x; int y; }\nnamespacex b { int z; int w; }\n";
        let ends = item_ends(spaced);
        assert!(ends.iter().any(|e| e.ends_with("int x;")), "{ends:?}");
        assert!(!ends.iter().any(|e| e.ends_with("int z;")), "{ends:?}");
    }

    impl XorShift {
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        fn pick<'s>(&mut self, texts: &[&'s str]) -> &'s str {
            texts[self.below(texts.len())]
        }
    }

    /// A random C file of about `items` top-level items, made to mislead a
    /// scan for the ends of items.
    fn random_c(rng: &mut XorShift, items: usize) -> String {
        let mut s = String::new();
        for i in 0..items {
            s += rng.pick(&["", "\n", " ", "\n\n", "\t", " \\\n"]);
            s += &match rng.below(24) {
                0 => format!("int g{i} = {i};\n"),
                1 => format!("static const char *s{i} = \"a;b}}c{{\\\";'\";\n"),
                2 => format!("char c{i} = ';', d{i} = '}}', e{i} = '\\'';\n"),
                3 => format!("struct s{i} {{ int a; char b[4]; }} v{i};\n"),
                4 => format!("struct s{i} {{ int a; }};\n"),
                5 => {
                    format!("typedef struct {{ int x; }} t{i};\ntypedef int (*fp{i})(int, char);\n")
                }
                6 => format!("// comment ; }} {i}\n"),
                7 => format!("/* block ; }} {{ {i}\n */"),
                8 => format!("#define M{i}(x) ((x) + {i})\n#define L{i} 1 + \\\n  2; }}\n"),
                9 => "#include <stdio.h>\n".to_string(),
                10 => format!(
                    "#if N{i}\nint a{i};\n#elif M\nint a{i} = 1;\n#else\nlong a{i};\n#endif\n"
                ),
                11 => format!("struct u{i} {{ int a; }} /* c */ ;\n"),
                12 => format!("enum e{i} {{ A{i}, B{i} = 2, }};\n"),
                13 => format!("if (g) {{ g = {i}; }} else {{ g = 2; }}\n"),
                14 => format!("int f{i}(int x) {{ return x; }}\n"),
                15 => format!(
                    "#ifndef G{i}\n#define G{i}\nstruct q{i} {{ int a; }};\nint q{i}(void);\n#endif\n"
                ),
                16 => format!("int k{i}(a) int a; {{ return a; }}\n"),
                17 => format!("int x{i}; /* trailing */ // and more\n"),
                18 => format!("struct r{i} {{ int a; }}\n  w{i};\n"),
                19 => format!("#pragma once\n#error don't {i}\n"),
                // Keywords that start items can also continue one.
                20 => format!("struct p{i} {{ int a; }} __attribute__((packed)) const v{i};\n"),
                21 => format!("typedef struct {{ int a; }} static_t{i}; static int z{i};\n"),
                _ => format!(
                    "int f{i}(int x, int y) {{\n  int t = x * {i} + y; const char *p = \"}};\";\n  if (t > {i}) {{ g0 += t; }} else {{ g1 -= y; }}\n  for (int k = 0; k < 4; k++) t ^= k;\n  switch (t) {{ case 1: break; default: ; }}\n  return t;\n}}\n"
                ),
            };
        }
        s
    }

    /// A random JSON value nested at most `depth` deep, with strings that
    /// hold brackets, commas and escaped quotes.
    fn random_json(rng: &mut XorShift, depth: usize, out: &mut String) {
        let space =
            |rng: &mut XorShift| rng.pick(&["", " ", "\n  ", "\t", " /* c, ] */ ", " // ]\n"]);
        match if depth == 0 {
            rng.below(4)
        } else {
            rng.below(7)
        } {
            0 => *out += &rng.next().to_string(),
            1 => {
                *out += rng.pick(&[
                    "\"a[b]{c},d\\\"e\\\\\"",
                    "\"\"",
                    "\"x\\u00e9, ]\"",
                    "true",
                    "null",
                ])
            }
            2 => *out += "-1.5e3",
            3 => *out += rng.pick(&["[]", "{}", "[ ]", "{ }"]),
            4 | 5 => {
                *out += "[";
                for i in 0..rng.below(12) {
                    if i > 0 {
                        *out += ",";
                    }
                    *out += space(rng);
                    random_json(rng, depth - 1, out);
                    *out += space(rng);
                }
                *out += "]";
            }
            _ => {
                *out += "{";
                for i in 0..rng.below(12) {
                    if i > 0 {
                        *out += ",";
                    }
                    *out += space(rng);
                    *out += &format!("\"k{i},}}\": ");
                    random_json(rng, depth - 1, out);
                    *out += space(rng);
                }
                *out += "}";
            }
        }
    }

    #[test]
    fn parsing_random_c_in_pieces_builds_the_tree_a_whole_parse_builds() {
        let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
        for round in 0..40 {
            let src = random_c(&mut rng, 5 + round);
            let whole = parse_in_pieces(Language::named("c"), src.clone().into_bytes(), usize::MAX)
                .unwrap();
            assert_eq!(
                whole.0.parse_errors,
                0,
                "{src}\n{}",
                dump(&whole.0, &whole.1)
            );
            assert_pieces_build_the_whole_tree(Language::named("c"), src.as_bytes(), &src);
        }
    }

    /// A random C++ file of about `items` items, nested in namespaces and
    /// linkage blocks as a preprocessed libstdc++ translation unit is: some
    /// headers tree-sitter-cpp cannot place (`namespace std __attribute__
    /// ((...)) {`), so that the input has parse errors all through it.
    fn random_cpp(rng: &mut XorShift, items: usize) -> String {
        let mut s = String::new();
        let mut open = 0;
        for i in 0..items {
            s += rng.pick(&["", "\n", " ", "\n\n  "]);
            s += &match rng.below(16) {
                0 => format!("namespace n{i}\n{{\n"),
                1 => "namespace std __attribute__ ((__visibility__ (\"default\")))\n{\n".into(),
                2 => {
                    format!("inline namespace v{i} __attribute__ ((__abi_tag__ (\"cxx11\"))) {{\n")
                }
                3 => "extern \"C\" {\n".into(),
                4 => "extern \"C++\" {\n".into(),
                5 | 6 if open > 0 => {
                    open -= 1;
                    "}\n".into()
                }
                7 => format!("template<typename _Tp> struct s{i} {{ typedef _Tp type; }};\n"),
                8 => format!("extern \"C\" int f{i}(int x) {{ int y; int z; return x; }}\n"),
                9 => format!("extern template class basic_string<char{i}>;\n"),
                10 => format!(
                    "template<typename _Res, typename... _Args> struct m{i}<_Res(_Args......) noexcept> {{ }};\n"
                ),
                11 => format!(
                    "class c{i} : public b {{ public: c{i}() noexcept = default; int v; }};\n"
                ),
                12 => format!("using t{i} = int;\n#pragma GCC visibility push(default)\n"),
                _ => format!("int g{i} = {i};\nvoid h{i}() {{ if (g{i}) {{ g{i} = 1; }} }}\n"),
            };
            if s.ends_with("{\n") && !s.ends_with("; }\n") {
                open += 1;
            }
        }
        s + &"}\n".repeat(open)
    }

    #[test]
    fn parsing_random_cpp_with_errors_in_pieces_builds_the_tree_a_whole_parse_builds() {
        let cpp = Language::named("cpp");
        let mut rng = XorShift(0x5dee_ce66_d1ce_4e5b);
        let mut with_errors = 0;
        for round in 0..40 {
            let src = random_cpp(&mut rng, 10 + 2 * round);
            let whole = parse_in_pieces(cpp, src.clone().into_bytes(), usize::MAX).unwrap();
            if whole.0.parse_errors == 0 {
                assert_pieces_build_the_whole_tree(cpp, src.as_bytes(), &src);
                continue;
            }
            // tree-sitter may recover from an error in a piece differently
            // than in the whole input: the tree still covers the input, with
            // its errors, and is built in pieces (a piece that ends in clean
            // items is walked, errors and all).
            with_errors += 1;
            let (tree, units, count) = build(cpp, src.clone().into_bytes(), 64).unwrap();
            assert_eq!(render_all(&units), src.as_bytes());
            assert_eq!(tree.unit_count(), units.len());
            assert!(tree.parse_errors > 0);
            if src.len() > 16 * 64 {
                assert!(!count.whole && count.parses >= 2, "{count:?}\n{src}");
            }
        }
        assert!(with_errors >= 20, "{with_errors}");
    }

    #[test]
    fn parsing_random_json_in_pieces_builds_the_tree_a_whole_parse_builds() {
        let mut rng = XorShift(0x1405_7b7e_f767_814f);
        for round in 0..60 {
            let mut src = String::new();
            match round % 3 {
                // A big single-key object wrapping a big array.
                0 => {
                    src += "{\"data\": [";
                    for i in 0..10 + round {
                        if i > 0 {
                            src += ", ";
                        }
                        random_json(&mut rng, 3, &mut src);
                    }
                    src += "]}\n";
                }
                1 => random_json(&mut rng, 5, &mut src),
                _ => {
                    src += " // leading\n";
                    random_json(&mut rng, 4, &mut src);
                    src += " ";
                    random_json(&mut rng, 2, &mut src);
                }
            }
            let whole = parse_in_pieces(
                Language::named("json"),
                src.clone().into_bytes(),
                usize::MAX,
            )
            .unwrap();
            if round % 3 != 2 {
                assert_eq!(whole.0.parse_errors, 0, "{src}");
            }
            assert_pieces_build_the_whole_tree(Language::named("json"), src.as_bytes(), &src);
        }
    }

    /// A trailing comma where a run of elements ends leaves a last run of
    /// nothing, which parses cleanly between its own brackets: the error
    /// must still be found.
    #[test]
    fn a_json_trailing_comma_at_the_end_of_a_run_is_an_error_in_pieces_too() {
        let json = Language::named("json");
        for elements in 1..12 {
            let items: Vec<String> = (0..elements).map(|i| format!("\"e{i}\"")).collect();
            let src = format!("{{\"k\": [{}, ]}}\n", items.join(", "));
            for piece in 1..src.len() {
                let (tree, _) = parse_in_pieces(json, src.clone().into_bytes(), piece).unwrap();
                assert!(tree.parse_errors > 0, "pieces of {piece}: {src}");
            }
        }
    }

    #[test]
    fn parsing_inputs_with_errors_in_pieces_gives_them_back_and_finds_errors() {
        let mut rng = XorShift(0x6a09_e667_f3bc_c908);
        let mut inputs: Vec<(Language, Vec<u8>)> = files_in_known_languages()
            .into_iter()
            .map(|(lang, path)| (lang, std::fs::read(path).unwrap()))
            .collect();
        inputs.push((Language::named("c"), random_c(&mut rng, 60).into_bytes()));
        let (mut cases, mut identical) = (0, 0);
        for (lang, src) in inputs {
            for _ in 0..12 {
                // Cut a few random stretches of bytes out.
                let mut cut = src.clone();
                for _ in 0..1 + rng.below(3) {
                    let at = rng.below(cut.len());
                    let len = (1 + rng.below(12)).min(cut.len() - at);
                    cut.drain(at..at + len);
                }
                let whole = parse_in_pieces(lang, cut.clone(), usize::MAX).unwrap();
                for piece in TINY_PIECES {
                    let pieces = parse_in_pieces(lang, cut.clone(), piece).unwrap();
                    assert_eq!(render_all(&pieces.1), cut, "{lang:?} {piece}");
                    assert_eq!(pieces.0.unit_count(), pieces.1.len());
                    assert_eq!(
                        pieces.0.parse_errors > 0,
                        whole.0.parse_errors > 0,
                        "{lang:?} in pieces of {piece}: {}",
                        String::from_utf8_lossy(&cut)
                    );
                    cases += 1;
                    identical += usize::from(tree_difference(&whole, &pieces).is_none());
                }
            }
        }
        eprintln!("{identical} of {cases} trees of inputs with cuts were identical");
    }

    #[test]
    fn parse_errors_are_counted() {
        assert_eq!(parsed(Language::named("c"), C_SAMPLE).0.parse_errors, 0);
        assert_eq!(parsed(Language::named("cpp"), CPP_SAMPLE).0.parse_errors, 0);
        assert_eq!(
            parsed(Language::named("json"), JSON_SAMPLE).0.parse_errors,
            0
        );
        assert!(parsed(Language::named("c"), "int x = ;").0.parse_errors >= 1);
        assert!(parsed(Language::named("c"), "int main( {").0.parse_errors >= 1);
        assert!(parsed(Language::named("json"), "[1, , 2").0.parse_errors >= 1);
    }

    #[test]
    fn error_regions_are_deletable_as_a_whole() {
        let (tree, units) = parsed(Language::named("c"), "int a; @@ ; int b;");
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
        let (tree, units) = parsed(Language::named("json"), "[1, 2, 3]");
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
        let (tree, units) = parsed(Language::named("json"), "[1, 2, 3, 4]");
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
        let (tree, units) = parsed(Language::named("json"), r#"{"a": 1, "b": 2}"#);
        let pairs: Vec<NodeId> = (0..tree.len() as NodeId)
            .filter(|&n| tree.kind_name(n) == "pair")
            .collect();
        assert_eq!(without(&tree, &units, &pairs[..1]), r#"{"b": 2}"#);
        assert_eq!(without(&tree, &units, &pairs[1..]), r#"{"a": 1}"#);
        assert_eq!(without(&tree, &units, &pairs), "{}");
    }

    #[test]
    fn deleting_a_c_argument_takes_one_comma_along() {
        let (tree, units) = parsed(Language::named("c"), "void g(void) { f(a, b, c); }");
        let b = find(&tree, &units, "identifier", "b")[0];
        assert_eq!(tree.role(b), Role::ListElem);
        assert_eq!(without(&tree, &units, &[b]), "void g(void) { f(a, c); }");
    }

    /// C++'s lists: template arguments and parameters, base classes,
    /// member initializers, lambda captures and enumerators each lose one
    /// comma with an element.
    #[test]
    fn deleting_a_cpp_list_element_takes_one_comma_along() {
        let cpp = Language::named("cpp");
        for (src, element, expected) in [
            ("m<int, long, char> x;", "long", "m<int, char> x;"),
            (
                "template <class A, class B> void f();",
                "class A",
                "template <class B> void f();",
            ),
            ("struct d : a, b, c {};", "b", "struct d : a, c {};"),
            ("s::s() : x(1), y(2) {}", "y(2)", "s::s() : x(1){}"),
            (
                "auto f = [a, b] { return 0; };",
                "a",
                "auto f = [b] { return 0; };",
            ),
            ("enum class e { p, q };", "q", "enum class e { p};"),
        ] {
            let (tree, units) = parsed(cpp, src);
            assert_eq!(tree.parse_errors, 0, "{src}");
            // The outermost node of that text that is a list element.
            let node = (0..tree.len() as NodeId)
                .filter(|&n| matches!(tree.role(n), Role::ListElem | Role::PlusElem))
                .find(|&n| {
                    let t = tree.tokens(n);
                    let bytes =
                        &units.source()[units.span(t.start).start..units.span(t.end - 1).end];
                    String::from_utf8_lossy(bytes).trim_end() == element
                })
                .unwrap_or_else(|| panic!("{src}: no list element {element}"));
            assert_eq!(without(&tree, &units, &[node]), expected, "{src}");
        }
    }

    #[test]
    fn a_list_that_lost_an_element_and_its_separator_still_exists() {
        let (tree, units) = parsed(Language::named("c"), "void g(void) { f(a, b); }");
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
        let (tree, units) = parsed(Language::named("c"), "int a, b;");
        let a = find(&tree, &units, "identifier", "a")[0];
        let b = find(&tree, &units, "identifier", "b")[0];
        assert_eq!(tree.role(a), Role::PlusElem);
        assert_eq!(without(&tree, &units, &[a]), "int b;");
        assert_eq!(without(&tree, &units, &[b]), "int a;");
        // A bitfield width goes with its declarator, and alone takes no comma.
        let (tree, units) = parsed(Language::named("c"), "struct s { int a : 3, b : 4; };");
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
        let (tree, units) = parsed(Language::named("json"), "[1, /* c */ 2]");
        let c = find(&tree, &units, "comment", "/* c */")[0];
        assert_eq!(without(&tree, &units, &[c]), "[1, 2]");
        let two = find(&tree, &units, "number", "2")[0];
        assert_eq!(without(&tree, &units, &[two]), "[1/* c */ ]");
    }

    #[test]
    fn comments_are_deletable_extras() {
        let (tree, units) = parsed(Language::named("c"), "int a; // one\n/* two */ int b;");
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
        let (tree, units) = parsed(
            Language::named("c"),
            "void f(void) { if (x) { y(); } else z(); }",
        );
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
            let (tree, units) = parsed(Language::named("c"), src);
            let strukt = (0..tree.len() as NodeId)
                .find(|&n| tree.kind_name(n) == "struct_specifier")
                .unwrap();
            let semi = tree.leaf_of(tree.tokens(strukt).end);
            assert_eq!(tree.kind_name(semi), ";");
            assert_eq!(tree.parent(semi), tree.parent(strukt));
            assert_eq!(tree.role(semi), Role::Optional);
            let out = without(&tree, &units, &[strukt, semi]);
            assert!(
                SyntaxCheck::new(Language::named("c"), 0).accepts(out.as_bytes()),
                "{out}"
            );
        }
        // A statement's own `;` stays mandatory.
        let (tree, units) = parsed(Language::named("c"), "void f(void) { g(); }");
        let semi = find(&tree, &units, ";", ";")[0];
        assert_eq!(
            tree.kind_name(tree.parent(semi).unwrap()),
            "expression_statement"
        );
        assert_eq!(tree.role(semi), Role::Mandatory);
    }

    #[test]
    fn a_preprocessor_newline_stays_when_the_value_goes() {
        let (tree, units) = parsed(Language::named("c"), "#define X 1\nint x;\n");
        let value = find(&tree, &units, "preproc_arg", "1")[0];
        assert_eq!(tree.role(value), Role::Optional);
        assert_eq!(without(&tree, &units, &[value]), "#define X \nint x;\n");
    }

    #[test]
    fn rendering_never_glues_two_tokens_into_one() {
        // Renders `src` without the tokens whose text is in `drop`.
        let without_tokens = |src: &str, drop: &[&str]| {
            let (_, units) = parsed(Language::named("c"), src);
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
        // `int x;` without `x`: its neighbours keep their own spacing,
        // and the line break that stood before the next kept token.
        assert_eq!(without_tokens("int x;", &["x"]), "int ;");
        assert_eq!(without_tokens("int\tx\n;", &["x"]), "int\n;");
    }

    #[test]
    fn deleting_elements_of_separated_lists_keeps_the_syntax_valid() {
        for (lang, src) in [
            (Language::named("c"), C_SAMPLE),
            (Language::named("json"), JSON_SAMPLE),
        ] {
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
        let (tree, units) = parsed(Language::named("c"), " \n ");
        assert_eq!(units.len(), 1);
        assert_eq!(tree.len(), 1);
        assert_eq!(render_all(&units), b" \n ");
        let (tree, units) = parsed(Language::named("json"), "");
        assert_eq!((tree.len(), units.len()), (1, 0));
    }

    #[test]
    fn deep_nesting_does_not_overflow_the_stack() {
        let depth = 20_000;
        let src = format!("int x = {}1{};", "(".repeat(depth), ")".repeat(depth));
        let (tree, units) = parsed(Language::named("c"), &src);
        assert_eq!(render_all(&units), src.as_bytes());
        assert!(tree.max_depth() as usize > depth);
        let json = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let (_, units) = parsed(Language::named("json"), &json);
        assert_eq!(render_all(&units), json.as_bytes());
    }
}
