//! Text in no known language as a tree of blocks, so that the tree policies
//! can delete a header line together with what it owns.
//!
//! Text without a grammar is cut into the text tokenizer's tokens
//! (`units.rs`), which are the tree's leaves, so the units are the ones the
//! flat passes use. Above them: a matched bracket pair `()`, `[]` or `{}` is
//! a `group` (its brackets mandatory, its contents a region of its own); a
//! logical line is a physical line's tokens, extended over the groups that
//! open on it to the line where they close; and a logical line owns the
//! more-indented logical lines that follow it (a `block`: its header `line`
//! and its body). Blank lines are the whitespace of the token before them,
//! so they go with the block they are inside. Brackets that do not pair up
//! are plain tokens, and so are brackets nested deeper than
//! [`MAX_DEPTH`]: that region is structured by indentation alone. Every
//! node but the root and a group's brackets is deletable. A block, line or
//! group may stand in the place of any other (Perses may hoist a body out
//! of its header); a word only in a line's place, so Perses never tries a
//! block or a line replaced by one of its words, which almost never keeps
//! what the oracle needs (on a TypeScript file read as blocks these were a
//! tenth of the tests), and which deleting the line's other words reaches
//! anyway. Building is linear in the input.

use crate::grammar::{Grammar, KindId};
use crate::tree::{NodeSpec, Tree, TreeBuilder};
use crate::units::{Units, token_starts};

/// Groups nested deeper than this are not groups (their brackets are plain
/// tokens), so that building never recurses without bound.
const MAX_DEPTH: usize = 200;

/// How far down the stack of open brackets a closing bracket looks for its
/// partner (past unmatched openers), so that matching stays linear.
const MATCH_REACH: usize = 32;

/// The tree's kinds: a block, line or group may hold blocks, lines and
/// groups in any number, and a line words too. A single-word line is a
/// word in its block, group or document all the same, in a place no word
/// fits: deletion alone touches it.
const NODE_TYPES: &str = r#"[
  {"type": "document", "named": true, "fields": {}, "children": {"multiple": true, "required": false,
    "types": [{"type": "block", "named": true}, {"type": "line", "named": true},
              {"type": "group", "named": true}]}},
  {"type": "block", "named": true, "fields": {}, "children": {"multiple": true, "required": false,
    "types": [{"type": "block", "named": true}, {"type": "line", "named": true},
              {"type": "group", "named": true}]}},
  {"type": "line", "named": true, "fields": {}, "children": {"multiple": true, "required": false,
    "types": [{"type": "block", "named": true}, {"type": "line", "named": true},
              {"type": "group", "named": true}, {"type": "word", "named": true}]}},
  {"type": "group", "named": true, "fields": {}, "children": {"multiple": true, "required": false,
    "types": [{"type": "block", "named": true}, {"type": "line", "named": true},
              {"type": "group", "named": true}]}},
  {"type": "word", "named": true},
  {"type": "(", "named": false}, {"type": ")", "named": false},
  {"type": "[", "named": false}, {"type": "]", "named": false},
  {"type": "{", "named": false}, {"type": "}", "named": false}
]"#;

/// One token of the text: its bytes without whitespace, the line it is on
/// and its column (tabs to the next multiple of 8).
#[derive(Clone, Copy, Debug)]
struct Token {
    start: u32,
    end: u32,
    line: u32,
    column: u32,
}

/// The kinds the builder uses.
struct Kinds {
    document: KindId,
    block: KindId,
    line: KindId,
    group: KindId,
    word: KindId,
}

/// Cuts `source` into the text tokenizer's tokens and builds the tree of
/// blocks, lines and bracket groups over them.
pub fn build(source: Vec<u8>) -> (Tree, Units) {
    let mut grammar =
        Grammar::from_node_types("blocks", NODE_TYPES).expect("the blocks grammar is valid");
    let kinds = Kinds {
        document: grammar.kind_id("document", true),
        block: grammar.kind_id("block", true),
        line: grammar.kind_id("line", true),
        group: grammar.kind_id("group", true),
        word: grammar.kind_id("word", true),
    };
    let tokens = tokens(&source);
    let partner = match_brackets(&source, &tokens);
    let mut builder = TreeBuilder::new(grammar);
    builder.reserve(tokens.len() * 2 + 1, tokens.len());
    let mut walk = Walk {
        source: &source,
        tokens: &tokens,
        partner: &partner,
        kinds: &kinds,
        builder,
    };
    walk.builder.open(spec(kinds.document));
    if tokens.is_empty() && !source.is_empty() {
        // Nothing but whitespace: one token, so that the units cover it.
        walk.builder.token(spec(kinds.word), 0..source.len());
    }
    walk.region(0, tokens.len(), 0);
    let (tree, units) = walk.builder.finish(source);
    (tree, units.joining_lines())
}

fn spec(kind: KindId) -> NodeSpec<'static> {
    NodeSpec {
        kind,
        field: None,
        role: None,
        rank: None,
    }
}

/// The tokens of `source` with their lines and columns, in one pass.
fn tokens(source: &[u8]) -> Vec<Token> {
    let starts = token_starts(source);
    let mut tokens = Vec::with_capacity(starts.len());
    // The line being scanned: its number, where it starts and its indentation.
    let (mut line, mut line_start, mut indent) = (0u32, 0usize, (0usize, 0u32));
    let mut scanned = 0;
    for (i, &s) in starts.iter().enumerate() {
        let next = starts.get(i + 1).map_or(source.len(), |&n| n as usize);
        let mut start = s as usize;
        while start < next && source[start].is_ascii_whitespace() {
            start += 1;
        }
        let mut end = next;
        while end > start && source[end - 1].is_ascii_whitespace() {
            end -= 1;
        }
        if start == end {
            continue;
        }
        // Advance over the newlines before this token.
        for (at, &b) in source[scanned..start].iter().enumerate() {
            if b == b'\n' {
                line += 1;
                line_start = scanned + at + 1;
                indent = indentation(&source[line_start..]);
            }
        }
        scanned = start;
        let (text_at, width) = indent;
        let column = width + start.saturating_sub(line_start + text_at) as u32;
        tokens.push(Token {
            start: start as u32,
            end: end as u32,
            line,
            column,
        });
    }
    tokens
}

/// Where a line's text starts and how wide its indentation is.
fn indentation(line: &[u8]) -> (usize, u32) {
    let mut width = 0;
    for (at, &b) in line.iter().enumerate() {
        match b {
            b' ' => width += 1,
            b'\t' => width = (width / 8 + 1) * 8,
            _ => return (at, width),
        }
    }
    (line.len(), width)
}

/// The bracket each bracket token pairs with (`u32::MAX`: none). A closing
/// bracket pairs with the nearest open one of its type within
/// [`MATCH_REACH`]; open brackets it passes over stay unpaired.
fn match_brackets(source: &[u8], tokens: &[Token]) -> Vec<u32> {
    let mut partner = vec![u32::MAX; tokens.len()];
    let mut open: Vec<(u32, u8)> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.end - t.start != 1 {
            continue;
        }
        let b = source[t.start as usize];
        match b {
            b'(' | b'[' | b'{' => open.push((i as u32, b)),
            b')' | b']' | b'}' => {
                let want = match b {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                let found = open
                    .iter()
                    .rev()
                    .take(MATCH_REACH)
                    .position(|&(_, o)| o == want);
                if let Some(back) = found {
                    let at = open.len() - 1 - back;
                    let (o, _) = open[at];
                    partner[o as usize] = i as u32;
                    partner[i] = o;
                    open.truncate(at);
                }
            }
            _ => {}
        }
    }
    partner
}

/// The walk that emits the tree, region by region.
struct Walk<'a> {
    source: &'a [u8],
    tokens: &'a [Token],
    partner: &'a [u32],
    kinds: &'a Kinds,
    builder: TreeBuilder,
}

impl Walk<'_> {
    /// The closing partner of token `i` if it opens a group inside
    /// `..end` at nesting `depth`.
    fn group_end(&self, i: usize, end: usize, depth: usize) -> Option<usize> {
        let p = self.partner[i] as usize;
        (p > i && p < end && depth < MAX_DEPTH).then_some(p)
    }

    /// The logical lines of tokens `start..end`: each from its first token
    /// over the groups opening on it to the end of the physical line where
    /// the last of them closes.
    fn logical_lines(&self, start: usize, end: usize, depth: usize) -> Vec<(usize, usize)> {
        let mut lines = Vec::new();
        let mut i = start;
        while i < end {
            let first = i;
            loop {
                let last = self.group_end(i, end, depth).unwrap_or(i);
                i = last + 1;
                if i >= end || self.tokens[i].line != self.tokens[last].line {
                    break;
                }
            }
            lines.push((first, i));
        }
        lines
    }

    /// Emits tokens `start..end` as logical lines, each owning the
    /// more-indented ones after it.
    fn region(&mut self, start: usize, end: usize, depth: usize) {
        let lines = self.logical_lines(start, end, depth);
        let column = |k: usize| self.tokens[lines[k].0].column;
        let mut open: Vec<u32> = Vec::new();
        for k in 0..lines.len() {
            let c = column(k);
            while open.last().is_some_and(|&o| o >= c) {
                open.pop();
                self.builder.close();
            }
            let owns = k + 1 < lines.len() && column(k + 1) > c;
            if owns {
                self.builder.open(spec(self.kinds.block));
                open.push(c);
            }
            self.line(lines[k].0, lines[k].1, depth);
        }
        for _ in open {
            self.builder.close();
        }
    }

    /// Emits one logical line: a `line` node unless it is a single token or group.
    fn line(&mut self, start: usize, end: usize, depth: usize) {
        let single = self.group_end(start, end, depth).unwrap_or(start) + 1 == end;
        if !single {
            self.builder.open(spec(self.kinds.line));
        }
        let mut i = start;
        while i < end {
            match self.group_end(i, end, depth) {
                Some(close) => {
                    self.builder.open(spec(self.kinds.group));
                    self.bracket(i);
                    self.region(i + 1, close, depth + 1);
                    self.bracket(close);
                    self.builder.close();
                    i = close + 1;
                }
                None => {
                    self.word(i);
                    i += 1;
                }
            }
        }
        if !single {
            self.builder.close();
        }
    }

    fn word(&mut self, i: usize) {
        let t = self.tokens[i];
        self.builder
            .token(spec(self.kinds.word), t.start as usize..t.end as usize);
    }

    /// A paired bracket: a mandatory token of its group.
    fn bracket(&mut self, i: usize) {
        let t = self.tokens[i];
        let text = &self.source[t.start as usize..t.end as usize];
        let kind = self
            .builder
            .grammar()
            .find_kind(std::str::from_utf8(text).unwrap_or("("), false)
            .expect("brackets are kinds of the blocks grammar");
        self.builder
            .token(spec(kind), t.start as usize..t.end as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configuration::Configuration;
    use crate::tree::NodeId;
    use crate::units::UnitKind;

    /// The tree as nested lists: `[...]` a block, `<...>` a line, `«...»` a group.
    fn shape(tree: &Tree, units: &Units, n: NodeId) -> String {
        if tree.is_leaf(n) {
            let u = tree.tokens(n).start;
            return String::from_utf8_lossy(units.text(u).trim_ascii()).into_owned();
        }
        let inner: Vec<String> = tree.children(n).map(|c| shape(tree, units, c)).collect();
        let (open, close) = match tree.kind_name(n) {
            "block" => ("[", "]"),
            "line" => ("<", ">"),
            "group" => ("«", "»"),
            _ => ("", ""),
        };
        format!("{open}{}{close}", inner.join(" "))
    }

    fn built(text: &str) -> (Tree, Units) {
        build(text.as_bytes().to_vec())
    }

    #[test]
    fn the_units_are_the_text_tokenizers_and_render_the_input_back() {
        for text in [
            "",
            "  \n ",
            "class A:\n    def f(self):\n        return (1,\n   2)\n\n\nx = [}\n",
            "f() { a; }} ) ( {\n\tb;\n  }\n",
        ] {
            let (tree, units) = built(text);
            let flat = Units::flat(text.as_bytes().to_vec(), UnitKind::Token);
            assert_eq!(units.len(), flat.len(), "{text:?}");
            assert_eq!(tree.unit_count(), units.len());
            for u in 0..units.len() {
                assert_eq!(units.text(u), flat.text(u), "{text:?}");
            }
            assert_eq!(
                units.render(&Configuration::full(units.len())),
                text.as_bytes()
            );
        }
    }

    #[test]
    fn a_line_owns_the_more_indented_lines_after_it_blank_lines_included() {
        let (tree, units) = built("class A:\n    def f():\n\n        x\n    y\nz\n");
        assert_eq!(
            shape(&tree, &units, 0),
            "[<class A :> [<def f «( )» :> x] y] z"
        );
    }

    #[test]
    fn brackets_nest_and_a_group_spans_the_lines_it_holds() {
        let (tree, units) = built("f() {\n  a;\n  if (b) {\n    c;\n  }\n}\nd;\n");
        assert_eq!(
            shape(&tree, &units, 0),
            "<f «( )» «{ <a ;> <if «( b )» «{ <c ;> }»> }»> <d ;>"
        );
    }

    #[test]
    fn unbalanced_brackets_are_plain_tokens_and_indentation_still_nests() {
        let (tree, units) = built("a (\n  b ]\n  c\nd )\n");
        // `(` pairs with the `)` at the end; `]` pairs with nothing.
        assert_eq!(shape(&tree, &units, 0), "<a «( <b ]> c d )»>");
        let (tree, units) = built("a ]\n  b\nc\n");
        assert_eq!(shape(&tree, &units, 0), "[<a ]> b] c");
    }

    #[test]
    fn deleting_a_block_takes_its_header_and_body_and_its_blank_lines() {
        let text = "def f():\n    x\n\n    y\n\nz\n";
        let (tree, units) = built(text);
        let block = tree.children(0).next().unwrap();
        assert_eq!(tree.kind_name(block), "block");
        let mut config = Configuration::full(units.len());
        config.kept.remove_range(tree.tokens(block));
        assert_eq!(units.render(&config), b"z\n");
    }

    #[test]
    fn a_block_or_line_may_give_way_to_a_line_or_group_inside_it_but_not_to_a_word() {
        // `[<f «( a )» :> <g b> c]`: a block whose header holds a group.
        let (tree, units) = built("f(a):\n    g b\n    c\n");
        let block = tree.children(0).next().unwrap();
        let find = |text: &str, kind: &str| {
            (0..tree.len() as NodeId)
                .find(|&n| tree.kind_name(n) == kind && shape(&tree, &units, n) == text)
                .unwrap_or_else(|| panic!("no {kind} {text}"))
        };
        let (header, body) = (find("<f «( a )» :>", "line"), find("<g b>", "line"));
        let group = find("«( a )»", "group");
        let word_in = |text: &str| find(text, "word");
        assert!(tree.fits_slot_of(block, body));
        assert!(tree.fits_slot_of(block, group));
        assert!(tree.fits_slot_of(header, group));
        // A word of the body, of the header, or one standing as a line of
        // its own (`c`) takes neither the block's place nor a line's.
        for word in [word_in("g"), word_in("f"), word_in("c")] {
            assert!(!tree.fits_slot_of(block, word));
            assert!(!tree.fits_slot_of(header, word));
        }
        // In a line, a word may take a group's place: `f a :`.
        assert!(tree.fits_slot_of(group, word_in("a")));
    }

    #[test]
    fn deep_nesting_and_long_inputs_build_without_recursing_without_bound() {
        let deep = "(".repeat(100_000) + &")".repeat(100_000);
        let (tree, units) = built(&deep);
        assert_eq!(tree.unit_count(), 200_000);
        assert!(tree.max_depth() as usize <= 2 * MAX_DEPTH + 4);
        assert_eq!(
            units.render(&Configuration::full(units.len())),
            deep.as_bytes()
        );
        let wide = "x = (1, 2)\n  y\n".repeat(50_000);
        let (tree, _) = built(&wide);
        assert_eq!(tree.unit_count(), 50_000 * 8);
    }
}
