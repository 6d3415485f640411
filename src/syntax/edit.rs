//! The one edit between two texts (everything between their common prefix
//! and their common suffix), described to tree-sitter with rows and
//! columns, so that the syntax check re-parses a candidate as an edit of a
//! text whose tree it has.

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
        self.old_end.max(self.start + 1) - 1
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

/// `edit` (from `old`, whose newlines `lines` indexes, to `new`) as
/// tree-sitter wants it, with rows and columns; only the inserted bytes
/// of `new` are scanned.
pub(crate) fn input_edit(lines: &LineIndex, new: &[u8], edit: ByteEdit) -> InputEdit {
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
            let ts = input_edit(&LineIndex::new(&old), &new, edit);
            assert_eq!(ts.start_position, point_by_counting(&old, edit.start));
            assert_eq!(ts.old_end_position, point_by_counting(&old, edit.old_end));
            assert_eq!(ts.new_end_position, point_by_counting(&new, edit.new_end));
        }
    }
}
