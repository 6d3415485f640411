//! Where the syntax check may judge a candidate on part of it: the whole
//! items around each of its differences from the committed text, in the
//! innermost list of items that parse alone (the root of a C file, a
//! function's body, a namespace's), each parsed alone instead of the whole
//! candidate.

use std::ops::Range;

use tree_sitter::{Node, Tree};

use super::edit::Replace;
use crate::grammar::Grammar;

/// A stretch of whole items of the candidate to parse alone, between the
/// texts that make it a document of its own.
pub(super) struct Stretch<'g> {
    /// Where it is in the candidate.
    pub new: Range<usize>,
    /// Written before it (nothing for the root's items).
    pub open: &'g [u8],
    /// Written after it.
    pub close: &'g [u8],
}

/// The stretches of whole items that hold the `replaces` (in order, from
/// the committed text, whose tree is `tree`, to the candidate), at most
/// `max_bytes` of the candidate in all; `None` when a replacement lies in
/// no list of items that parse alone, or they would take more bytes.
///
/// Why parsing them alone decides: a list of items is its items one after
/// another, so where the stretches parse, the candidate is the committed
/// text's items with some runs of items replaced by runs that parse where
/// they stand. Replacements close together share one stretch, so that no
/// two stretches overlap.
pub(super) fn stretches<'g>(
    grammar: &'g Grammar,
    tree: &Tree,
    replaces: &[Replace],
    max_bytes: usize,
) -> Option<Vec<Stretch<'g>>> {
    // Each stretch's replacement, its extent in the committed text, and
    // its texts around.
    type Found<'g> = (Replace, Items<'g>);
    let mut out: Vec<Found<'g>> = Vec::new();
    let mut bytes = 0;
    for replace in replaces {
        let mut replace = replace.clone();
        let mut items = items_stretch(grammar, tree, &replace)?;
        // A stretch reaching into the one before it: both go as one.
        while let Some((before, extent)) = out.pop_if(|(_, end)| items.old.start < end.old.end) {
            bytes -= in_candidate(&before, &extent.old).len();
            replace = Replace {
                old: before.old.start..replace.old.end,
                new: before.new.start..replace.new.end,
            };
            items = items_stretch(grammar, tree, &replace)?;
        }
        bytes += in_candidate(&replace, &items.old).len();
        if bytes > max_bytes {
            return None;
        }
        out.push((replace, items));
    }
    let stretch = |(replace, items): Found<'g>| Stretch {
        new: in_candidate(&replace, &items.old),
        open: items.open,
        close: items.close,
    };
    Some(out.into_iter().map(stretch).collect())
}

/// Where the stretch `old` of the committed text, holding `replace`, lies
/// in the candidate: offsets outside the replacement move by its change of
/// length. (Only for a stretch that begins after the replacement before
/// it ends, which [`stretches`] sees to.)
fn in_candidate(replace: &Replace, old: &Range<usize>) -> Range<usize> {
    old.start + replace.new.start - replace.old.start..old.end + replace.new.end - replace.old.end
}

/// A stretch of whole items of the committed text.
struct Items<'g> {
    old: Range<usize>,
    open: &'g [u8],
    close: &'g [u8],
}

/// The stretch of whole items that holds `replace`, with its extent in
/// the committed text: the items it touches and one item it leaves alone
/// on either side (an edit may join the items it touches to their
/// neighbours: `int ;` `f() {}` minus the `;` is `int f() {}`, and the
/// stretch must parse as the whole text would around it).
///
/// An item is a named child of the list and the anonymous children right
/// after it (C's `struct s { ... }` and its `;` are two children of the
/// root); a stretch begins where an item begins (or at the list's opening
/// bracket) and ends where one ends, so no token is glued across its ends.
/// (A stretch that opens a comment or string the text after it closes is
/// refused and might have been accepted whole: a lost candidate at worst,
/// never a broken one let through.)
///
/// `None` where an item on either side has parse errors. The items
/// touched may have some (the stretch then parses alone only if the
/// candidate's items there have none), and so may the list's other items
/// (the clean items on either side stand between them and the edit).
fn items_stretch<'g>(grammar: &'g Grammar, tree: &Tree, replace: &Replace) -> Option<Items<'g>> {
    let last_old_byte = replace.last_old_byte();
    let list = ItemList::around(grammar, tree, replace.old.start, last_old_byte)?;
    // The items touched, and one item on either side (None: none there).
    let touched_first = list
        .child_at_or_before(replace.old.start)
        .map(|child| list.first_of_item(child));
    let touched_last = list
        .child_at_or_before(last_old_byte)
        .map(|child| list.last_of_item(child));
    let first = touched_first.map(|item| {
        list.item_before(item)
            .map_or(item, |n| list.first_of_item(n))
    });
    let last =
        touched_last.map(|item| list.item_after(item).map_or(item, |n| list.last_of_item(n)));
    let start = first.map_or(list.inside_start(), |n| n.start_byte());
    let old_end = last.map_or(replace.old.end, |n| n.end_byte().max(replace.old.end));
    // The items around must have no errors (the touched ones may: a
    // stretch that parses alone without them is a candidate without them).
    let touched_start = touched_first.map_or(start, |n| n.start_byte());
    let touched_end = touched_last.map_or(old_end, |n| n.end_byte().max(replace.old.end));
    if list.has_error_within(start, touched_start) || list.has_error_within(touched_end, old_end) {
        return None;
    }
    let (open, close) = list.texts;
    Some(Items {
        old: start..old_end,
        open,
        close,
    })
}

/// A list of items that parse alone: the root, or a bracketed list.
struct ItemList<'t, 'g> {
    node: Node<'t>,
    /// Its brackets, for a bracketed list.
    brackets: Option<(Node<'t>, Node<'t>)>,
    texts: (&'g [u8], &'g [u8]),
}

impl<'t, 'g> ItemList<'t, 'g> {
    /// The innermost list of items around the bytes `first..=last` of the
    /// committed text that leaves its brackets alone.
    fn around(grammar: &'g Grammar, tree: &'t Tree, first: usize, last: usize) -> Option<Self> {
        let root = tree.root_node();
        let mut node = root.descendant_for_byte_range(first, last)?;
        loop {
            if node == root {
                return grammar.top_level_items_parse_alone.then_some(ItemList {
                    node,
                    brackets: None,
                    texts: (b"", b""),
                });
            }
            let texts = grammar
                .find_kind(node.kind(), node.is_named())
                .and_then(|kind| grammar.item_list(kind));
            if let Some(texts) = texts
                && let (Some(open), Some(close)) =
                    (node.child(0), node.child(node.child_count() - 1))
                && open != close
                && !open.is_named()
                && !close.is_named()
                && !close.is_missing()
                && open.end_byte() <= first
                && close.start_byte() > last
            {
                return Some(ItemList {
                    node,
                    brackets: Some((open, close)),
                    texts,
                });
            }
            node = node.parent()?;
        }
    }

    /// Whether a child of the list that overlaps `start..end` has parse
    /// errors (or is one).
    fn has_error_within(&self, start: usize, end: usize) -> bool {
        let mut child = self.node.first_child_for_byte(start);
        while let Some(node) = child.filter(|n| n.start_byte() < end) {
            if node.has_error() {
                return true;
            }
            child = node.next_sibling();
        }
        false
    }

    fn is_bracket(&self, node: Node<'t>) -> bool {
        self.brackets
            .is_some_and(|(open, close)| node == open || node == close)
    }

    /// Where the list's items may begin.
    fn inside_start(&self) -> usize {
        self.brackets.map_or(0, |(open, _)| open.end_byte())
    }

    /// The sibling before `node`, unless it is a bracket.
    fn before(&self, node: Node<'t>) -> Option<Node<'t>> {
        node.prev_sibling().filter(|n| !self.is_bracket(*n))
    }

    /// The last sibling before `node` that is not a comment (or other
    /// extra, which joins nothing: an edit that leaves half an item joins
    /// it to the item past the comment), unless it is a bracket.
    fn item_before(&self, mut node: Node<'t>) -> Option<Node<'t>> {
        node = self.before(node)?;
        while node.is_extra() {
            node = self.before(node)?;
        }
        Some(node)
    }

    /// The first sibling after `node` that is not a comment (or other
    /// extra), unless it is a bracket.
    fn item_after(&self, mut node: Node<'t>) -> Option<Node<'t>> {
        node = self.after(node)?;
        while node.is_extra() {
            node = self.after(node)?;
        }
        Some(node)
    }

    /// The sibling after `node`, unless it is a bracket.
    fn after(&self, node: Node<'t>) -> Option<Node<'t>> {
        node.next_sibling().filter(|n| !self.is_bracket(*n))
    }

    /// The list's child holding `byte`, or the last one before it; `None`
    /// where that is a bracket or there is none.
    fn child_at_or_before(&self, byte: usize) -> Option<Node<'t>> {
        let child = match self.node.first_child_for_byte(byte) {
            Some(child) if child.start_byte() <= byte => Some(child),
            Some(child) => child.prev_sibling(),
            None => self.node.child(self.node.child_count().checked_sub(1)?),
        }?;
        (!self.is_bracket(child)).then_some(child)
    }

    fn first_of_item(&self, mut child: Node<'t>) -> Node<'t> {
        while !child.is_named()
            && let Some(before) = self.before(child)
        {
            child = before;
        }
        child
    }

    fn last_of_item(&self, mut child: Node<'t>) -> Node<'t> {
        while let Some(after) = self.after(child)
            && !after.is_named()
        {
            child = after;
        }
        child
    }
}
