//! A result laid out for people, from its parse tree: one statement,
//! member or element per line, indented by nesting, one space where two
//! tokens would fuse or where usual style puts one, never two, none at the
//! end of a line.
//!
//! What breaks a line comes from the tree and the grammar's data (`layout`
//! in grammars/*.json), never from kind names here: the children of a
//! block go one per line, indented one step between the block's brackets
//! (a block is a node whose first and last children are `{` and `}`, or a
//! kind the data lists, such as a JSON array); the children of the root,
//! and of a kind the data lists as a list (Go's statement list inside a
//! block's braces), go one per line; the children of a kind the data lists
//! as indented (Python's block) go one per line one step deeper; a kind the
//! data lists as a line starts one wherever it is; a line comment (an
//! extra starting with `//` or `#`), an extra the input ended a line after
//! (Python's `\` line continuation) and a token that is only a line break
//! (the end of a C preprocessor line) end the line.
//! Spaces follow the tokens' shapes and places: none inside brackets or
//! before `,` `;` `:`, one after them; one on both sides of an operator
//! between two operands, none after a prefix operator or before a postfix
//! one; none between a name and the bracket after it, one after a keyword
//! (an anonymous word); elsewhere, tokens the input wrote together stay
//! together (the parts of a string) and others are one space apart. A node
//! whose first and last children are `<` and `>` holds them as brackets
//! (generics: `Vec<Vec<u8>>`); the data may ask for a space around a
//! token under some parent (Rust's `->`) or for none (Python's `=` in
//! `f(x=1)`).
//!
//! A lexical atom (a string, a regular expression, an attribute: `atoms`
//! in the data) keeps the spacing the input gave its tokens, byte for
//! byte. The grammar itself finds the atoms the data leaves out: a layout
//! is kept only if it parses to the same tree as the text it lays out
//! (kinds, tokens and their texts), and where it does not, the smallest
//! node around the first difference becomes an atom for its kind and the
//! text is laid out again (`/ab/g` laid out as `/ ab / g` parses as
//! something else, so a JavaScript `regex` keeps its spacing).
//!
//! A language whose line breaks carry meaning beyond indentation (Bash:
//! `reindent` in the data) keeps every line as it is and only indents each
//! by its depth: one step per enclosing `indented` node whose first and last
//! lines it is not on, unless it starts one of the node's `clauses` (`else`).
//! Lines that start inside a token or an atom (a heredoc's body, a string's
//! second line) are left alone.
//!
//! The layout is a set of rewrites, each kept token's text followed by the
//! whitespace after it, rendered by
//! [`Layout::Given`](crate::configuration::Layout::Given). The format pass
//! lays out a fresh parse of the result (`lay_out_text`), whose tree
//! matches the text even after passes that rewrote tokens, and proposes it
//! for the oracle to judge like any other candidate.

use std::sync::Arc;

use crate::configuration::Configuration;
use crate::grammar::{KindId, LayoutFacts, Role};
use crate::languages::Language;
use crate::tree::{NodeId, Sizes, Tree};
use crate::units::{Units, would_fuse};

/// How many times a layout is made again with one more atom kind, found
/// where the last one did not parse back to the same tree.
const ATOM_ROUNDS: usize = 8;

/// What goes between two tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Gap {
    None,
    Space,
    Line,
    /// The whitespace the input had (inside an atom).
    Verbatim,
}

/// A token's shape, as far as spacing goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// `(` or `[`, or the `<` of a node bracketed by `<` and `>`: nothing after it.
    Open,
    /// `)` or `]`, or such a `>`: nothing before it.
    Close,
    /// `,` `;` `:`: nothing before, a space after.
    Separator,
    /// `.` `->` `::`: nothing on either side.
    Member,
    /// An operator between two operands: a space on both sides.
    Infix,
    /// An operator before its operand: nothing after it.
    Prefix,
    /// An operator after its operand: nothing before it.
    Postfix,
    /// `{` or `}`: a space on both sides within a line.
    Brace,
    /// A keyword (an anonymous word).
    Keyword,
    /// Anything else: names, literals, the parts of strings.
    Other,
}

/// One kept token as laid out.
struct Placed {
    unit: u32,
    text: Vec<u8>,
    shape: Shape,
    named: bool,
    /// The data asks for no space around it (`tight`), or one (`spaced`).
    tight: bool,
    spaced: bool,
    /// The gap before it and the indentation of its line.
    gap: Gap,
    indent: usize,
}

/// The rewrites that lay out `config` by its tree (every kept token's text
/// and the whitespace after it), for `Layout::Given`; `None` when the
/// grammar does not opt in (no `layout` in its data) or nothing is kept.
/// Atoms are the kinds the data lists.
#[cfg(test)]
pub(crate) fn lay_out(
    tree: &Tree,
    units: &Units,
    config: &Configuration,
) -> Option<Vec<(u32, Arc<[u8]>)>> {
    let facts = tree.grammar.layout.as_ref()?;
    lay_out_with(tree, units, config, &facts.atoms)
}

/// `lay_out` with `atoms` the kinds whose tokens keep their spacing.
fn lay_out_with(
    tree: &Tree,
    units: &Units,
    config: &Configuration,
    atoms: &[KindId],
) -> Option<Vec<(u32, Arc<[u8]>)>> {
    let facts = tree.grammar.layout.as_ref()?;
    let mut walk = Walk {
        tree,
        units,
        config,
        facts,
        atoms,
        sizes: tree.sizes(config),
        placed: Vec::new(),
        indent: 0,
        pending: Gap::None,
    };
    walk.run();
    if walk.placed.is_empty() {
        return None;
    }
    let ends_line = units.source().last() == Some(&b'\n');
    let placed = &walk.placed;
    let rewrites = placed
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut text = p.text.clone();
            match placed.get(i + 1) {
                Some(next) if next.gap == Gap::Verbatim && next.unit == p.unit + 1 => {
                    text = raw_text(units, config, p.unit);
                }
                Some(next) if next.gap == Gap::Line => {
                    text.push(b'\n');
                    text.resize(text.len() + next.indent * facts.indent, b' ');
                }
                Some(next) if matches!(next.gap, Gap::Space | Gap::Verbatim) => text.push(b' '),
                Some(_) => {}
                None if ends_line => text.push(b'\n'),
                None => {}
            }
            (p.unit, Arc::from(text))
        })
        .collect();
    Some(rewrites)
}

/// Unit `u` as the input wrote it: its token, untrimmed, and the
/// whitespace after it (its rewrite, if it has one, with that whitespace).
fn raw_text(units: &Units, config: &Configuration, u: u32) -> Vec<u8> {
    let own = units.text(u);
    let own = if u == 0 { own.trim_ascii_start() } else { own };
    match config.rewrites.get(&u) {
        Some(rewrite) => [&rewrite[..], &own[own.trim_ascii_end().len()..]].concat(),
        None => own.to_vec(),
    }
}

/// A step of the walk over the tree, kept on an explicit stack (trees nest
/// deeply).
enum Step {
    /// Visit a node; `in_list` when its parent holds its children one per line.
    Enter(NodeId, bool),
    /// After a block's opening bracket: indent one step more, break the line.
    Opened,
    /// Before a block's closing bracket: one step less, break the line.
    Closing,
}

struct Walk<'a> {
    tree: &'a Tree,
    units: &'a Units,
    config: &'a Configuration,
    facts: &'a LayoutFacts,
    /// Kinds whose tokens keep the input's spacing.
    atoms: &'a [KindId],
    sizes: Sizes,
    placed: Vec<Placed>,
    indent: usize,
    /// The gap the structure asks for before the next token.
    pending: Gap,
}

impl Walk<'_> {
    fn run(&mut self) {
        let mut stack = vec![Step::Enter(self.tree.root(), false)];
        while let Some(step) = stack.pop() {
            match step {
                Step::Opened => {
                    self.indent += 1;
                    self.pending = Gap::Line;
                }
                Step::Closing => {
                    self.indent = self.indent.saturating_sub(1);
                    self.pending = Gap::Line;
                }
                Step::Enter(n, in_list) => self.enter(n, in_list, &mut stack),
            }
        }
    }

    fn enter(&mut self, n: NodeId, in_list: bool, stack: &mut Vec<Step>) {
        let tree = self.tree;
        if self.sizes.get(n) == 0 {
            return;
        }
        let punctuation = tree.is_leaf(n) && !tree.grammar.is_named(tree.kind(n));
        // A block right after a `)` (a header the parse split from its
        // body, as around a missing token) stays on the header's line.
        let after_header = self.placed.last().is_some_and(|p| p.text == b")")
            && self.first_kept_text(n) == Some(b"{".as_slice());
        if (in_list && !punctuation && !after_header) || self.facts.lines.contains(&tree.kind(n)) {
            self.pending = Gap::Line;
        }
        if tree.is_leaf(n) {
            self.place(n, None);
            return;
        }
        if n != tree.root() && self.atoms.contains(&tree.kind(n)) {
            self.place_atom(n);
            return;
        }
        let kept: Vec<NodeId> = tree
            .children(n)
            .filter(|&c| self.sizes.get(c) > 0)
            .collect();
        if self.facts.indented.contains(&tree.kind(n)) {
            stack.push(Step::Closing);
            stack.extend(kept.iter().rev().map(|&c| Step::Enter(c, true)));
            stack.push(Step::Opened);
            return;
        }
        let block = self.is_block(n, &kept);
        let one_a_line = n == tree.root() || self.facts.lists.contains(&tree.kind(n));
        for (i, &c) in kept.iter().enumerate().rev() {
            let inner = i > 0 && i + 1 < kept.len();
            if block && i + 1 == kept.len() {
                stack.push(Step::Enter(c, false));
                stack.push(Step::Closing);
                continue;
            }
            stack.push(Step::Enter(c, one_a_line || (block && inner)));
            if block && i == 0 {
                // Pushed before the first child, so it runs right after it.
                let first = stack.pop().expect("just pushed");
                stack.push(Step::Opened);
                stack.push(first);
            }
        }
    }

    /// Places the kept tokens of atom `n`: the first as any token, the
    /// others with the whitespace the input had before them.
    fn place_atom(&mut self, n: NodeId) {
        let tokens = self.tree.tokens(n);
        let kept: Vec<u32> = tokens.filter(|&u| self.config.kept.contains(u)).collect();
        for (i, &u) in kept.iter().enumerate() {
            let leaf = self.tree.leaf_of(u);
            self.place(leaf, (i > 0).then_some(Gap::Verbatim));
        }
    }

    /// The text of the first kept token under `n`.
    fn first_kept_text(&self, n: NodeId) -> Option<&[u8]> {
        let mut first = n;
        while !self.tree.is_leaf(first) {
            first = self.tree.children(first).find(|&c| self.sizes.get(c) > 0)?;
        }
        let unit = self.tree.tokens(first).start;
        Some(self.units.token_text(self.config, unit))
    }

    /// Whether `n` (with kept children `kept`) holds its children one per
    /// line between brackets: its first and last children are kept tokens,
    /// `{` and `}` or those of a kind the data lists, with something between.
    fn is_block(&self, n: NodeId, kept: &[NodeId]) -> bool {
        let tree = self.tree;
        let (Some(&first), Some(&last)) = (kept.first(), kept.last()) else {
            return false;
        };
        let text = |c: NodeId| self.units.token_text(self.config, tree.tokens(c).start);
        let ends = tree.is_leaf(first) && tree.is_leaf(last) && kept.len() > 2;
        ends && (self.facts.blocks.contains(&tree.kind(n))
            || (text(first) == b"{" && text(last) == b"}"))
    }

    /// Whether leaf `n` is the `<` or `>` of a parent whose first and last
    /// kept children are `<` and `>` (generics' angle brackets).
    fn is_angle_bracket(&self, n: NodeId) -> bool {
        let tree = self.tree;
        let Some(p) = tree.parent(n) else {
            return false;
        };
        let mut kept = tree.children(p).filter(|&c| self.sizes.get(c) > 0);
        let (Some(first), Some(last)) = (kept.next(), kept.last()) else {
            return false;
        };
        let text = |c: NodeId| {
            tree.is_leaf(c)
                .then(|| self.units.token_text(self.config, tree.tokens(c).start))
        };
        (n == first || n == last) && text(first) == Some(b"<") && text(last) == Some(b">")
    }

    /// Places the token of leaf `n` after the ones before it, with `gap`
    /// before it if given.
    fn place(&mut self, n: NodeId, gap: Option<Gap>) {
        let tree = self.tree;
        let unit = tree.tokens(n).start;
        let text = self
            .units
            .token_text(self.config, unit)
            .trim_ascii()
            .to_vec();
        let named = tree.grammar.is_named(tree.kind(n));
        let shape = self.shape(n, unit, &text, named);
        let under = tree.parent(n).map(|p| (tree.kind(p), tree.kind(n)));
        let tight = under.is_some_and(|k| self.facts.tight.contains(&k));
        let spaced = under.is_some_and(|k| self.facts.spaced.contains(&k));
        let prev = self.placed.last();
        // A token that is only whitespace (the end of a preprocessor line)
        // ends the line, as do a line comment and an extra the input
        // ended a line after (a line continuation).
        let ends_line = |p: &Placed| {
            let extra = tree.role(tree.leaf_of(p.unit)) == Role::Extra;
            let own = self.units.text(p.unit);
            let broken = own[own.trim_ascii_end().len()..].contains(&b'\n');
            p.text.is_empty()
                || (extra && (p.text.starts_with(b"//") || p.text.starts_with(b"#") || broken))
        };
        let gap = match (gap, prev) {
            (Some(gap), Some(_)) => gap,
            (_, None) => Gap::None,
            (None, Some(_)) if text.is_empty() => Gap::None,
            (None, Some(p)) if ends_line(p) || self.pending == Gap::Line => Gap::Line,
            (None, Some(p)) => self.space(p, unit, &text, (shape, tight, spaced)),
        };
        self.pending = Gap::None;
        self.placed.push(Placed {
            unit,
            text,
            shape,
            named,
            tight,
            spaced,
            gap,
            indent: self.indent,
        });
    }

    /// The shape of leaf `n` (unit `unit`, text `text`).
    fn shape(&self, n: NodeId, unit: u32, text: &[u8], named: bool) -> Shape {
        let operator = !text.is_empty()
            && text
                .iter()
                .all(|b| b"+-*/%<>=!&|^~?".contains(b) || *b == b'.' || *b == b':');
        match text {
            b"(" | b"[" => Shape::Open,
            b")" | b"]" => Shape::Close,
            b"<" if !named && self.is_angle_bracket(n) => Shape::Open,
            b">" if !named && self.is_angle_bracket(n) => Shape::Close,
            b"," | b";" | b":" => Shape::Separator,
            b"." | b"->" | b"::" => Shape::Member,
            b"{" | b"}" => Shape::Brace,
            _ if operator && !named => {
                let tree = self.tree;
                let Some(p) = tree.parent(n) else {
                    return Shape::Other;
                };
                let around = tree.tokens(p);
                let before = self.config.kept.any_in(around.start..unit);
                let after = self.config.kept.any_in(unit + 1..around.end);
                match (before, after) {
                    (true, true) => Shape::Infix,
                    (false, _) => Shape::Prefix,
                    (true, false) => Shape::Postfix,
                }
            }
            _ if !named && text.iter().all(|b| b.is_ascii_alphabetic() || *b == b'_') => {
                Shape::Keyword
            }
            _ => Shape::Other,
        }
    }

    /// The gap between `prev` and a token on the same line (its shape and
    /// whether the data wants it tight or spaced).
    fn space(&self, prev: &Placed, unit: u32, text: &[u8], token: (Shape, bool, bool)) -> Gap {
        use Shape::*;
        let (shape, tight, spaced) = token;
        let (Some(&a), Some(&b)) = (prev.text.last(), text.first()) else {
            return Gap::None;
        };
        let own = self.units.text(prev.unit);
        let glued_in_input =
            prev.unit + 1 == unit && own.last().is_some_and(|b| !b.is_ascii_whitespace());
        if glued_in_input && prev.shape == Other && shape == Other {
            return Gap::None;
        }
        // `>>` closing two generics (`Vec<Vec<u8>>`), `))`.
        if prev.shape == Close && shape == Close {
            return Gap::None;
        }
        if would_fuse(a, b) {
            return Gap::Space;
        }
        if prev.tight || tight {
            return Gap::None;
        }
        if prev.spaced || spaced {
            return Gap::Space;
        }
        if prev.text == b"{" && text == b"}" {
            return Gap::None;
        }
        match (prev.shape, shape) {
            (Open | Prefix | Member, _) | (_, Close | Separator | Member | Postfix) => Gap::None,
            (Separator | Infix | Brace, _) | (_, Infix | Brace | Prefix) => Gap::Space,
            (Keyword, Open) if text == b"<" => Gap::None,
            (Keyword, Open) => Gap::Space,
            (_, Open) if prev.named || prev.shape == Close => Gap::None,
            (_, Open) => Gap::Space,
            _ if glued_in_input => Gap::None,
            _ => Gap::Space,
        }
    }
}

/// The text laid out by re-indenting: every line as the input wrote it,
/// indented by its depth (`reindent` in the data); lines that start
/// inside a token or an atom kept whole.
fn reindent(tree: &Tree, units: &Units, facts: &LayoutFacts, atoms: &[KindId]) -> Vec<u8> {
    let source = units.source();
    let n = units.len();
    let token_start = |u: u32| {
        let span = units.span(u);
        span.start + units.text(u).len() - units.text(u).trim_ascii_start().len()
    };
    let token_end =
        |u: u32| units.span(u).end - (units.text(u).len() - units.text(u).trim_ascii_end().len());
    // The unit whose span holds byte `at`.
    let unit_at = |at: usize| -> Option<u32> {
        let (mut lo, mut hi) = (0u32, n);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if units.span(mid).start <= at {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo.checked_sub(1)
    };
    let inside_token =
        |at: usize| unit_at(at).is_some_and(|u| token_start(u) < at && at < token_end(u));
    let mut out = Vec::with_capacity(source.len());
    let mut line_start = 0;
    while line_start < source.len() {
        let line_end = source[line_start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(source.len(), |i| line_start + i);
        let line = &source[line_start..line_end];
        let body = line.trim_ascii_start();
        let first = line_end - body.len();
        let keep = inside_token(line_start) || body.is_empty() && inside_token(line_end);
        let unit = unit_at(first).filter(|&u| token_start(u) == first);
        match unit {
            _ if keep => out.extend_from_slice(line),
            _ if body.is_empty() => {}
            Some(u) if !in_atom(tree, u, atoms) => {
                let depth = depth_of(tree, u, facts);
                out.resize(out.len() + depth * facts.indent, b' ');
                let end = if inside_token(line_end) {
                    body.len()
                } else {
                    body.trim_ascii_end().len()
                };
                out.extend_from_slice(&body[..end]);
            }
            _ => out.extend_from_slice(line),
        }
        if line_end < source.len() {
            out.push(b'\n');
        }
        line_start = line_end + 1;
    }
    out
}

/// Whether unit `u` lies in a node of an atom kind.
fn in_atom(tree: &Tree, u: u32, atoms: &[KindId]) -> bool {
    let mut n = tree.leaf_of(u);
    while let Some(p) = tree.parent(n) {
        if atoms.contains(&tree.kind(p)) {
            return true;
        }
        n = p;
    }
    false
}

/// The depth of a line starting with unit `u`: one step per enclosing
/// `indented` node whose first and last tokens `u` is not, unless the
/// child of that node holding `u` is one of its `clauses`.
fn depth_of(tree: &Tree, u: u32, facts: &LayoutFacts) -> usize {
    let mut depth = 0;
    let mut child = tree.leaf_of(u);
    while let Some(p) = tree.parent(child) {
        let tokens = tree.tokens(p);
        if facts.indented.contains(&tree.kind(p))
            && u != tokens.start
            && u + 1 != tokens.end
            && !facts.clauses.contains(&tree.kind(child))
        {
            depth += 1;
        }
        child = p;
    }
    depth
}

/// The first node where two parses differ (its id in `a`): a different
/// kind or parent, or a token with other text; `None` when they are the
/// same tree.
fn first_difference(a: (&Tree, &Units), b: (&Tree, &Units)) -> Option<NodeId> {
    let ((ta, ua), (tb, ub)) = (a, b);
    let nodes = ta.len().max(tb.len()) as NodeId;
    let full_a = Configuration::full(ua.len());
    let full_b = Configuration::full(ub.len());
    (0..nodes)
        .find(|&n| {
            if n as usize >= ta.len() || n as usize >= tb.len() {
                return true;
            }
            // Preorder kinds and parents make the tree; comparing them, and
            // not token ranges, finds the first difference deep down, where it
            // starts, rather than at the root whose range holds it.
            let same = ta.kind(n) == tb.kind(n)
                && ta.is_leaf(n) == tb.is_leaf(n)
                && ta.parent(n) == tb.parent(n);
            let text = |t: &Tree, u: &Units, c: &Configuration| {
                t.is_leaf(n)
                    .then(|| u.token_text(c, t.tokens(n).start).to_vec())
            };
            !same || text(ta, ua, &full_a) != text(tb, ub, &full_b)
        })
        .map(|n| n.min(ta.len().saturating_sub(1) as NodeId))
}

/// `text` parsed with `language` and laid out from that tree; `None` when
/// the grammar does not opt in, the parse has an error region below the
/// top level (the structure around it is a guess, and a layout made from
/// it reads worse than the input's spacing: `struct s { int a };` swallows
/// the items after it), or no layout found parses back to the same tree.
/// An error region at the top level is one item, and missing tokens are
/// no bar: C's implicit `int` (`main() {}`) parses so.
pub(crate) fn lay_out_text(language: Language, text: &[u8]) -> Option<Vec<u8>> {
    let atoms = language.grammar().layout.as_ref()?.atoms.clone();
    lay_out_with_atoms(language, text, atoms)
}

/// [`lay_out_text`] starting from `atoms` rather than the data's.
fn lay_out_with_atoms(language: Language, text: &[u8], mut atoms: Vec<KindId>) -> Option<Vec<u8>> {
    let (tree, units) = crate::tree::parse::parse(language, text.to_vec()).ok()?;
    let facts = tree.grammar.layout.as_ref()?;
    let nodes = tree.len() as NodeId;
    let nested_error =
        |n: NodeId| tree.role(n) == Role::Error && tree.parent(n) != Some(tree.root());
    if tree.parse_errors > 0 && (0..nodes).any(nested_error) {
        return None;
    }
    let config = Configuration::full(units.len());
    for _ in 0..ATOM_ROUNDS {
        let laid = if facts.reindent {
            reindent(&tree, &units, facts, &atoms)
        } else {
            let rewrites = lay_out_with(&tree, &units, &config, &atoms)?;
            rewrites
                .iter()
                .flat_map(|(_, t)| t.iter().copied())
                .collect()
        };
        if laid == text {
            return Some(laid);
        }
        let (again, again_units) = crate::tree::parse::parse(language, laid.clone()).ok()?;
        let Some(at) = first_difference((&tree, &units), (&again, &again_units)) else {
            return Some(laid);
        };
        // The smallest node around the difference whose kind is not an
        // atom yet keeps its spacing from now on.
        let mut n = if tree.is_leaf(at) {
            tree.parent(at)?
        } else {
            at
        };
        while atoms.contains(&tree.kind(n)) || !tree.grammar.is_named(tree.kind(n)) {
            n = tree.parent(n)?;
        }
        if n == tree.root() {
            return None;
        }
        atoms.push(tree.kind(n));
    }
    None
}

/// [`lay_out`] applied: the configuration as the layout renders it.
#[cfg(test)]
pub(crate) fn laid_out(tree: &Tree, units: &Units, config: &Configuration) -> Option<Vec<u8>> {
    let rewrites = lay_out(tree, units, config)?;
    let proposal = crate::configuration::Proposal {
        delta: crate::configuration::Delta::new(),
        rewrites,
        layout: Some(crate::configuration::Layout::Given),
    };
    let laid = config.apply(&proposal).unwrap_or_else(|| config.clone());
    Some(units.render(&laid))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::languages::Language;
    use crate::tree::parse::parse;

    fn layout_of(lang: &str, source: &str) -> String {
        let (tree, units) = parse(Language::named(lang), source.as_bytes().to_vec()).unwrap();
        let config = Configuration::full(units.len());
        String::from_utf8(laid_out(&tree, &units, &config).unwrap()).unwrap()
    }

    /// No line ends in a space, no two spaces meet but in indentation,
    /// and each line is indented by a whole number of steps.
    fn assert_tidy(text: &str) {
        for line in text.lines() {
            assert!(
                !line.ends_with(' '),
                "trailing space in {line:?} of\n{text}"
            );
            let body = line.trim_start_matches(' ');
            assert!(!body.contains("  "), "doubled space in {line:?} of\n{text}");
            assert_eq!((line.len() - body.len()) % 2, 0, "{text}");
        }
    }

    #[test]
    fn a_c_result_gets_one_statement_a_line_indented_by_nesting() {
        let text = layout_of(
            "c",
            "void\nDumpString()\n{\n if (DumpString+ 1==0)\n {\n  }\n x = a [ 1 ] ;f( x,y ) ; }\n",
        );
        assert_eq!(
            text,
            "void DumpString() {\n  if (DumpString + 1 == 0) {}\n  x = a[1];\n  f(x, y);\n}\n"
        );
        assert_tidy(&text);
    }

    #[test]
    fn c_strings_preprocessor_lines_and_comments_keep_their_meaning() {
        let text = layout_of(
            "c",
            "#include <stdio.h>\n#define N 1\nint main(void){ // hi\nchar*s=\"a  b\";return -N; }\n",
        );
        assert_eq!(
            text,
            "#include <stdio.h>\n#define N 1\nint main(void) {\n  // hi\n  char *s = \"a  b\";\n  return -N;\n}\n"
        );
    }

    #[test]
    fn a_cpp_result_is_indented_by_nesting() {
        let text = layout_of(
            "cpp",
            "namespace n { struct A { int x ; void f ( ) { if(x){ g( ) ; } } } ; }\n",
        );
        assert_eq!(
            text,
            "namespace n {\n  struct A {\n    int x;\n    void f() {\n      if (x) {\n        g();\n      }\n    }\n  };\n}\n"
        );
        assert_tidy(&text);
    }

    #[test]
    fn a_json_result_gets_one_member_or_element_a_line() {
        let text = layout_of("json", "{\"a\" :1,\"b\":[ 1,2 ],\"c\":{}}\n");
        assert_eq!(
            text,
            "{\n  \"a\": 1,\n  \"b\": [\n    1,\n    2\n  ],\n  \"c\": {}\n}\n"
        );
        assert_tidy(&text);
    }

    #[test]
    fn a_header_the_parse_split_from_its_block_keeps_the_block_on_its_line() {
        let text = lay_out_text(Language::named("c"), b"main()\n{\ncrash();\n}\n");
        let text = String::from_utf8(text.unwrap()).unwrap();
        assert_eq!(text, "main() {\n  crash();\n}\n");
        // An error region's structure is a guess: no layout is made from it.
        assert!(
            lay_out_text(
                Language::named("c"),
                b"struct s { int a };\nf(struct s *p) { return p->a; }\n"
            )
            .is_none()
        );
    }

    /// The text with its whitespace taken out (what a layout may not
    /// change: no token fused with the next, none split).
    fn without_spaces(text: &str) -> String {
        text.split_whitespace().collect()
    }

    #[test]
    fn brace_languages_get_one_statement_a_line_indented_by_nesting() {
        for (lang, source, inner, depth) in [
            (
                "rust",
                "fn f(x: i32) -> i32 { if x > 1 { let y = x * 2; y } else { 0 } }\n",
                "let y = x * 2;",
                2,
            ),
            (
                "java",
                "class A { int f(int x) { if (x > 1) { return x * 2; } return 0; } }\n",
                "return x * 2;",
                3,
            ),
            (
                "go",
                "package p\nfunc f(x int) int { y := x; if y > 1 { return y * 2 }; return 0 }\n",
                "return y * 2",
                2,
            ),
            (
                "javascript",
                "function f(x) { if (x > 1) { return x * 2; } return 0; }\n",
                "return x * 2;",
                2,
            ),
            (
                "typescript",
                "function f(x: number): number { if (x > 1) { return x * 2; } return 0; }\n",
                "return x * 2;",
                2,
            ),
        ] {
            let text = layout_of(lang, source);
            assert_tidy(&text);
            assert_eq!(
                without_spaces(&text),
                without_spaces(source),
                "{lang}:\n{text}"
            );
            // The statement `depth` blocks deep is indented `depth` steps.
            let step = Language::named(lang)
                .grammar()
                .layout
                .as_ref()
                .unwrap()
                .indent;
            let line = text
                .lines()
                .find(|l| l.contains(inner))
                .unwrap_or_else(|| panic!("{lang}:\n{text}"));
            assert_eq!(
                line,
                format!("{}{inner}", " ".repeat(depth * step)),
                "{lang}:\n{text}"
            );
            let (tree, _) = parse(Language::named(lang), text.clone().into_bytes()).unwrap();
            assert_eq!(tree.parse_errors, 0, "{lang}:\n{text}");
        }
    }

    /// Go's block holds its statements in a `statement_list` between its
    /// braces (`lists` in its data): each statement still gets its line.
    #[test]
    fn a_go_block_puts_each_statement_of_its_list_on_a_line() {
        let text = layout_of(
            "go",
            "package p\nfunc f(x int) int { y := x; z := y * 2; return z }\n",
        );
        assert_tidy(&text);
        for statement in ["y := x", "z := y * 2", "return z"] {
            assert!(
                // The `;` the input wrote stays, at the end of its line.
                text.lines()
                    .any(|l| l.trim_end_matches(';') == format!("  {statement}")),
                "{statement}:\n{text}"
            );
        }
    }

    /// `text` laid out (by `lay_out_text`) in `lang`, checked to parse
    /// to the tree `text` parses to.
    fn laid_out_text(lang: &str, text: &str) -> String {
        let language = Language::named(lang);
        let laid = lay_out_text(language, text.as_bytes()).expect("a layout");
        let before = parse(language, text.as_bytes().to_vec()).unwrap();
        let after = parse(language, laid.clone()).unwrap();
        assert_eq!(
            first_difference((&before.0, &before.1), (&after.0, &after.1)),
            None,
            "{lang}: another tree"
        );
        String::from_utf8(laid).unwrap()
    }

    #[test]
    fn a_javascript_regex_a_rust_attribute_and_a_python_block_keep_their_meaning() {
        let js = laid_out_text(
            "javascript",
            "const r = /a b+/g; let t = `x  ${ y }  z`; if (r.test(s)) { f(s) }\n",
        );
        assert_eq!(
            js,
            "const r = /a b+/g;\nlet t = `x  ${ y }  z`;\nif (r.test(s)) {\n  f(s)\n}\n"
        );
        let rust = laid_out_text(
            "rust",
            "#[derive(Default)] pub(crate) struct S { v: Vec<Vec<u8>> }\n\
             impl<T> From<T> for S { fn from(x: T) -> Self { println!(\"{} \", x); for i in 0..3 { g(&x); } S::default() } }\n",
        );
        assert_eq!(
            rust,
            "#[derive(Default)]\npub(crate) struct S {\n    v: Vec<Vec<u8>>\n}\n\
             impl<T> From<T> for S {\n    fn from(x: T) -> Self {\n        println!(\"{} \", x);\n        \
             for i in 0..3 {\n            g(&x);\n        }\n        S::default()\n    }\n}\n"
        );
        let python = laid_out_text(
            "python",
            "import os\n@dec\ndef f(a, b=1, *args, **kw) -> int:\n  if a :\n        return g(a, key = b)[1:2]\n  \
             else:\n    x = \"a  b\" \\\n      + 'c'\n    return x\nclass A(B):\n  pass\n",
        );
        assert_eq!(
            python,
            "import os\n@dec\ndef f(a, b=1, *args, **kw) -> int:\n    if a:\n        return g(a, key=b)[1:2]\n    \
             else:\n        x = \"a  b\" \\\n        + 'c'\n        return x\nclass A(B):\n    pass\n"
        );
    }

    #[test]
    fn generics_strings_and_characters_keep_their_tokens_together() {
        let cpp = laid_out_text(
            "cpp",
            "std::vector<int> v; template <typename T> auto f(T x) -> int { return static_cast<int>(x); }\n",
        );
        assert_eq!(
            cpp,
            "std::vector<int> v;\ntemplate<typename T> auto f(T x) -> int {\n  return static_cast<int>(x);\n}\n"
        );
        let c = laid_out_text(
            "c",
            "int main(void){ char c = ' '; char *s = \" a \"; return c; }\n",
        );
        assert_eq!(
            c,
            "int main(void) {\n  char c = ' ';\n  char *s = \" a \";\n  return c;\n}\n"
        );
    }

    #[test]
    fn a_bash_result_is_reindented_by_depth_and_keeps_its_lines() {
        let bash = laid_out_text(
            "bash",
            "f() {\nif [ -f x ]; then\necho \"a\n  b\"\nelif g; then\n:\nelse\n  cat <<EOF\n  keep $x\nEOF\n\
             fi\nfor i in 1 2; do\n     echo $i  \n   done\ncase $1 in\na) x=1;;\nesac\n}\n",
        );
        assert_eq!(
            bash,
            "f() {\n  if [ -f x ]; then\n    echo \"a\n  b\"\n  elif g; then\n    :\n  else\n    cat <<EOF\n  keep $x\nEOF\n  \
             fi\n  for i in 1 2; do\n    echo $i\n  done\n  case $1 in\n    a) x=1;;\n  esac\n}\n"
        );
    }

    #[test]
    fn atoms_the_data_leaves_out_are_found_by_parsing_the_layout_again() {
        let js = Language::named("javascript");
        let laid = lay_out_with_atoms(js, b"x = /a b+/g . test(s);\n", Vec::new()).unwrap();
        assert_eq!(String::from_utf8(laid).unwrap(), "x = /a b+/g.test(s);\n");
    }

    #[test]
    fn laying_out_a_laid_out_result_changes_nothing() {
        for (lang, source) in [
            (
                "c",
                "int f(int a){ if(a>1){return a*2;} else { return -a ; } }\n",
            ),
            ("json", "[{\"k\": [1, {\"x\": null}]}, 2]\n"),
        ] {
            let once = layout_of(lang, source);
            assert_eq!(layout_of(lang, &once), once, "{lang}");
        }
    }
}
