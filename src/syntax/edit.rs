//! The one edit between two texts (everything between their common prefix
//! and their common suffix), described to tree-sitter with rows and
//! columns, so that the syntax check re-parses a candidate as an edit of a
//! text whose tree it has.

use std::ops::Range;

use tree_sitter::{InputEdit, Point};

/// The bytes that differ between an old and a new text: everything between
/// their common prefix and their common suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ByteEdit {
    pub start: usize,
    pub old_end: usize,
    pub new_end: usize,
}

impl ByteEdit {
    /// How many bytes of the old text the edit replaces.
    pub(crate) fn old_len(self) -> usize {
        self.old_end - self.start
    }

    /// The last byte of the old text the edit touches (its start, for an
    /// insertion).
    pub(crate) fn last_old_byte(self) -> usize {
        Replace::from(self).last_old_byte()
    }

    /// Where old offset `at`, at or after the edit's old end, lies in the
    /// new text.
    pub(crate) fn to_new(self, at: usize) -> usize {
        debug_assert!(at >= self.old_end);
        at - self.old_end + self.new_end
    }
}

/// The single edit that turns `old` into `new`; `None` if they are equal.
pub(crate) fn byte_edit(old: &[u8], new: &[u8]) -> Option<ByteEdit> {
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
pub(crate) struct LineIndex {
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
    pub(crate) fn point(&self, at: usize) -> Point {
        let row = self.newlines.partition_point(|&nl| nl < at);
        let line_start = if row == 0 {
            0
        } else {
            self.newlines[row - 1] + 1
        };
        Point::new(row, at - line_start)
    }
}

/// One of several replacements that together turn an old text into a new
/// one: the old text's bytes `old` become the new text's bytes `new`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Replace {
    pub old: Range<usize>,
    pub new: Range<usize>,
}

impl Replace {
    /// The last byte of the old text it touches (its start, for an
    /// insertion).
    pub(crate) fn last_old_byte(&self) -> usize {
        self.old.end.max(self.old.start + 1) - 1
    }
}

impl From<ByteEdit> for Replace {
    fn from(edit: ByteEdit) -> Self {
        Replace {
            old: edit.start..edit.old_end,
            new: edit.start..edit.new_end,
        }
    }
}

/// `replace` (from `old`, whose newlines `lines` indexes, to `new`) as
/// tree-sitter wants it, with rows and columns, for a tree edited by the
/// replacements after it first (so its offsets before `replace.old` are
/// still the old text's); only the inserted bytes of `new` are scanned.
pub(crate) fn input_edit(lines: &LineIndex, new: &[u8], replace: &Replace) -> InputEdit {
    let start_position = lines.point(replace.old.start);
    let inserted = &new[replace.new.clone()];
    let new_end_position = match inserted.iter().rposition(|&b| b == b'\n') {
        None => Point::new(start_position.row, start_position.column + inserted.len()),
        Some(last) => Point::new(
            start_position.row + inserted.iter().filter(|&&b| b == b'\n').count(),
            inserted.len() - last - 1,
        ),
    };
    InputEdit {
        start_byte: replace.old.start,
        old_end_byte: replace.old.end,
        new_end_byte: replace.old.start + inserted.len(),
        start_position,
        old_end_position: lines.point(replace.old.end),
        new_end_position,
    }
}

/// How many bytes of new text are tried as the start of a replacement
/// before the rest of the difference is given up as one.
const REPLACED_MAX: usize = 256;

/// How far into the old text a replacement (or the new text, an insertion)
/// may reach; only a deletion is looked for across the whole rest.
const REPLACE_REACH: usize = 4096;

/// The bytes each look for where the texts agree again compares.
const ANCHOR: usize = 24;

/// At most this many replacements are told apart; past them, the rest of
/// the difference is one.
const REPLACES_MAX: usize = 4096;

/// Replacements, in order, that turn `old` into `new`, each between stretches
/// the texts share: a candidate that deletes many small ranges far apart is
/// many small edits to tree-sitter, which re-parses around each one, not
/// one edit spanning all of them. Found greedily (the first place where the
/// texts agree again), so not always the fewest bytes; every stretch said
/// to be shared is compared, so the replacements are exact. The looks for
/// where the texts agree again read at most four times both texts; past
/// that, the rest of the difference is one replacement. Empty if the texts
/// are equal.
pub(crate) fn replacements(old: &[u8], new: &[u8]) -> Vec<Replace> {
    byte_edit(old, new).map_or_else(Vec::new, |whole| replacements_in(old, new, whole))
}

/// [`replacements`] inside `whole`, the one edit between the texts
/// (from [`byte_edit`]), when the caller has it already.
pub(crate) fn replacements_in(old: &[u8], new: &[u8], whole: ByteEdit) -> Vec<Replace> {
    let (old_end, new_end) = (whole.old_end, whole.new_end);
    let (mut i, mut j) = (whole.start, whole.start);
    let mut budget = 4 * (old.len() + new.len());
    let mut out = Vec::new();
    loop {
        let shared = common_prefix(&old[i..old_end], &new[j..new_end]);
        (i, j) = (i + shared, j + shared);
        let rest = Replace {
            old: i..old_end,
            new: j..new_end,
        };
        if rest.old.is_empty() && rest.new.is_empty() {
            break;
        }
        let found = (!rest.old.is_empty() && !rest.new.is_empty() && out.len() < REPLACES_MAX)
            .then(|| resync(&old[rest.old.clone()], &new[rest.new.clone()], &mut budget))
            .flatten();
        let Some((dropped, inserted)) = found else {
            out.push(rest);
            break;
        };
        out.push(Replace {
            old: i..i + dropped,
            new: j..j + inserted,
        });
        (i, j) = (i + dropped, j + inserted);
    }
    out
}

/// Where two texts that differ at their first byte agree again: how many
/// bytes of `old` and of `new` to replace so that the next [`ANCHOR`]
/// bytes of both are equal (or both end). Tries the new text's first
/// bytes as the replacement (none, one, two, four, …) and then the old
/// text's as an insertion; `None` if neither finds a place, or if the
/// looks would read more than `budget` bytes (which they use up).
fn resync(old: &[u8], new: &[u8], budget: &mut usize) -> Option<(usize, usize)> {
    let mut look = |haystack: &[u8], needle: &[u8]| {
        *budget = budget.checked_sub(haystack.len())?;
        memchr::memmem::find(haystack, needle)
    };
    let mut inserted = 0;
    while inserted <= REPLACED_MAX.min(new.len()) {
        let anchor = &new[inserted..(inserted + ANCHOR).min(new.len())];
        let reach = if inserted == 0 {
            old.len()
        } else {
            REPLACE_REACH.min(old.len())
        };
        let found = if anchor.is_empty() {
            Some(old.len())
        } else {
            look(&old[..reach], anchor)
        };
        if let Some(dropped) = found
            && (dropped, inserted) != (0, 0)
        {
            return Some((dropped, inserted));
        }
        inserted = if inserted == 0 { 1 } else { inserted * 2 };
    }
    let anchor = &old[..ANCHOR.min(old.len())];
    look(&new[..REPLACE_REACH.min(new.len())], anchor)
        .filter(|&at| at > 0)
        .map(|at| (0, at))
}

/// Block sizes compared with one `memcmp` each, largest first, before the
/// last bytes are compared one by one.
const BLOCKS: [usize; 2] = [4096, 64];

/// The length of the longest common prefix of `a` and `b`.
pub(super) fn common_prefix(a: &[u8], b: &[u8]) -> usize {
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
pub(super) fn common_suffix(a: &[u8], b: &[u8]) -> usize {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::testing::XorShift;

    #[test]
    fn the_edit_between_two_texts_spans_their_difference() {
        let old = [b"x".repeat(5000), b"abc".to_vec(), b"y".repeat(150)].concat();
        let new = [b"x".repeat(5000), b"Z".to_vec(), b"y".repeat(150)].concat();
        let edit =
            |old: &[u8], new: &[u8]| byte_edit(old, new).map(|e| (e.start, e.old_end, e.new_end));
        assert_eq!(edit(&old, &new), Some((5000, 5003, 5001)));
        assert_eq!(edit(&old, &old), None);
        // A pure deletion at the end and at the start.
        assert_eq!(edit(&old, &old[..5100]), Some((5100, 5153, 5100)));
        assert_eq!(edit(&old, &old[5003..]), Some((0, 5003, 0)));
        // Texts that differ only in length.
        assert_eq!(edit(&old[..10], &old), Some((10, 10, 5153)));
    }

    /// Applying `replaces` (from `old`) gives `new`, and between them
    /// the texts agree.
    fn apply(old: &[u8], new: &[u8], replaces: &[Replace]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut at = 0;
        for replace in replaces {
            assert!(replace.old.start >= at, "{replaces:?}");
            out.extend_from_slice(&old[at..replace.old.start]);
            out.extend_from_slice(&new[replace.new.clone()]);
            at = replace.old.end;
        }
        out.extend_from_slice(&old[at..]);
        out
    }

    #[test]
    fn replacements_turn_the_old_text_into_the_new_one_edit_per_change() {
        // Lines that differ, so every stretch the texts share is found.
        let old: Vec<u8> = (0..400)
            .flat_map(|i| format!("int v{i} = f(a{i}, {});\n", i * 7).into_bytes())
            .collect();
        let mut rng = XorShift::new(9);
        for round in 0..200 {
            // Up to six changes far apart: deletions, and some replacements
            // by a short text or insertions.
            let mut cuts: Vec<usize> = (0..1 + rng.below(6))
                .map(|_| rng.below(old.len() as u64 - 200) as usize)
                .collect();
            cuts.sort_unstable();
            cuts.dedup_by(|b, a| *b < *a + 150);
            let mut new = Vec::new();
            let mut at = 0;
            for &cut in &cuts {
                new.extend_from_slice(&old[at..cut]);
                new.extend_from_slice([&b""[..], b"x", b"(0)"][rng.below(3) as usize]);
                at = cut + rng.below(100) as usize;
            }
            new.extend_from_slice(&old[at..]);
            let replaces = replacements(&old, &new);
            assert_eq!(apply(&old, &new, &replaces), new, "round {round}");
            // (An inserted text may match the old one in part, which can
            // split a change in two.)
            assert!(
                replaces.len() <= 2 * cuts.len(),
                "round {round}: {replaces:?}"
            );
        }
        assert!(replacements(&old, &old).is_empty());
        // Texts with nothing in common, and one empty.
        assert_eq!(apply(b"abc", b"xyz", &replacements(b"abc", b"xyz")), b"xyz");
        assert_eq!(apply(b"abc", b"", &replacements(b"abc", b"")), b"");
        assert_eq!(apply(b"", b"abc", &replacements(b"", b"abc")), b"abc");
    }

    /// Rows and columns come from a newline index and the inserted bytes
    /// only; they must be what counting from the start of both texts gives.
    #[test]
    fn edit_positions_are_the_rows_and_columns_of_both_texts() {
        fn point_by_counting(text: &[u8], at: usize) -> tree_sitter::Point {
            let before = &text[..at];
            let row = before.iter().filter(|&&b| b == b'\n').count();
            let line_start = before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            tree_sitter::Point::new(row, at - line_start)
        }
        let old = b"ab\ncd\n\nefg\nh".to_vec();
        let mut rng = XorShift::new(5);
        for _ in 0..300 {
            let from = rng.below(old.len() as u64 + 1) as usize;
            let to = from + rng.below((old.len() - from) as u64 + 1) as usize;
            let inserted: &[u8] =
                [&b""[..], b"x", b"\n", b"y\nzz", b"\n\nw"][rng.below(5) as usize];
            let new = [&old[..from], inserted, &old[to..]].concat();
            let Some(edit) = byte_edit(&old, &new) else {
                continue;
            };
            let ts = input_edit(&LineIndex::new(&old), &new, &edit.into());
            assert_eq!(ts.start_position, point_by_counting(&old, edit.start));
            assert_eq!(ts.old_end_position, point_by_counting(&old, edit.old_end));
            assert_eq!(ts.new_end_position, point_by_counting(&new, edit.new_end));
        }
    }
}
