//! The syntax filter's count of parse errors for a language whose
//! top-level items parse alone (C, C++): the text cut into pieces where a
//! lexical scan may cut it ([`CItemEnds`], marking the blocks of
//! namespaces and linkage specifications), each piece parsed alone, and
//! the errors of the pieces summed.
//!
//! The count is a function of the text alone, so every candidate is judged
//! alike whatever was committed before it (`-j N` judges as `-j 1`), and it
//! costs about the bytes an edit touches: the pieces before the edit and
//! after it are the committed text's, a piece's count is looked up by a
//! hash of its bytes, and the scan resumes shortly before the edit and
//! stops where it meets the committed text's pieces again. No tree is
//! kept: a tree-sitter tree of a megabyte of C++ takes 30 MB.
//!
//! The pieces' counts are remembered for the whole process, so the
//! counter of a later round (or of another file in the same language)
//! parses only the pieces no counter has seen.

use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use rustc_hash::FxHashMap;
use xxhash_rust::xxh3::{xxh3_64, xxh3_128_with_seed};

use super::edit::ByteEdit;
use crate::languages::Language;
use crate::tree::item_ends::{CItemEnds, End, PieceKind};
use crate::tree::sitter::{count_errors, reparse};

/// A text's pieces and their parse errors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PieceErrors {
    /// Where the pieces end, but the last, which ends with the text.
    ends: Vec<End>,
    /// The errors of each piece (one more than `ends`).
    errors: Vec<u32>,
    /// Blocks never closed: an error each.
    open_at_end: usize,
}

impl PieceErrors {
    /// The text's parse errors.
    pub(crate) fn total(&self) -> usize {
        self.errors.iter().map(|&e| e as usize).sum::<usize>() + self.open_at_end
    }
}

/// Counts the parse errors of texts in pieces, remembering each piece's
/// in [`known`].
pub(crate) struct PieceCounter {
    language: Language,
    timeout: Duration,
    /// Set apart this counter's language in the hashes of [`known`].
    seed: u64,
}

/// Pieces remembered at most; past it the memory starts again.
const KNOWN_MAX: usize = 1 << 20;

/// Parse errors by a hash of a piece's language, kind and bytes, for every
/// counter of the process: a count is a function of these alone.
fn known() -> &'static Mutex<FxHashMap<u128, u32>> {
    static KNOWN: OnceLock<Mutex<FxHashMap<u128, u32>>> = OnceLock::new();
    KNOWN.get_or_init(|| Mutex::new(FxHashMap::default()))
}

impl PieceCounter {
    pub(crate) fn new(language: Language, timeout: Duration) -> Self {
        PieceCounter {
            language,
            timeout,
            seed: xxh3_64(language.name().as_bytes()),
        }
    }

    fn scan<'t>(&self, text: &'t [u8]) -> CItemEnds<'t> {
        let grammar = self.language.grammar();
        CItemEnds::new(text, &grammar.item_starts, &grammar.open_blocks)
    }

    /// `text`'s pieces, scanned from its start (`None` if a parse timed out).
    pub(crate) fn count(&self, text: &[u8]) -> Option<PieceErrors> {
        let scan = self.scan(text).marking_blocks();
        self.count_from(text, scan, Vec::new(), Vec::new(), 0, None)
    }

    /// `text`'s pieces, from those of `base`, a text that `edit` (from
    /// [`super::edit::byte_edit`]) makes `text`: the same as
    /// [`Self::count`], scanning and parsing only around the edit.
    pub(crate) fn count_edit(
        &self,
        base: &PieceErrors,
        text: &[u8],
        edit: Option<ByteEdit>,
    ) -> Option<PieceErrors> {
        let Some(edit) = edit else {
            return Some(base.clone());
        };
        // The last end the edit cannot move: the scan resumes there.
        let mut keep = base.ends.partition_point(|e| e.at <= edit.start);
        while keep > 0 && base.ends[keep - 1].seen > edit.start {
            keep -= 1;
        }
        let scan = match keep.checked_sub(1) {
            Some(i) => self.scan(text).resume(&base.ends[i]),
            None => self.scan(text).marking_blocks(),
        };
        let start = keep.checked_sub(1).map_or(0, |i| base.ends[i].at);
        let ends = base.ends[..keep].to_vec();
        let errors = base.errors[..keep].to_vec();
        let rejoin = Rejoin {
            base,
            old_end: edit.old_end,
            new_end: edit.new_end,
        };
        self.count_from(text, scan, ends, errors, start, Some(rejoin))
    }

    /// Scans `text` on from `start` with `scan`, after the pieces `ends`
    /// and `errors` before it, until the scan meets `rejoin`'s pieces.
    fn count_from(
        &self,
        text: &[u8],
        mut scan: CItemEnds<'_>,
        mut ends: Vec<End>,
        mut errors: Vec<u32>,
        mut start: usize,
        rejoin: Option<Rejoin<'_>>,
    ) -> Option<PieceErrors> {
        while let Some(end) = scan.next_end() {
            errors.push(self.piece_errors(&text[start..end.at], end.kind)?);
            ends.push(end);
            start = end.at;
            if let Some(at) = rejoin.as_ref().and_then(|r| r.meets(&end)) {
                let base = rejoin.expect("met").base;
                let shift = |x: usize| x + end.at - base.ends[at].at;
                ends.extend(base.ends[at + 1..].iter().map(|e| End {
                    at: shift(e.at),
                    seen: shift(e.seen),
                    ..*e
                }));
                errors.extend_from_slice(&base.errors[at + 1..]);
                return Some(PieceErrors {
                    ends,
                    errors,
                    open_at_end: base.open_at_end,
                });
            }
        }
        errors.push(self.piece_errors(&text[start..], PieceKind::Items)?);
        Some(PieceErrors {
            ends,
            errors,
            open_at_end: scan.blocks_open(),
        })
    }

    /// The parse errors of one piece: items parsed alone, a block's header
    /// with a closing brace, a block's closing brace none.
    fn piece_errors(&self, bytes: &[u8], kind: PieceKind) -> Option<u32> {
        if kind == PieceKind::Closer || bytes.iter().all(u8::is_ascii_whitespace) {
            return Some(0);
        }
        let key = xxh3_128_with_seed(bytes, self.seed ^ kind as u64);
        if let Some(&errors) = known().lock().expect("known poisoned").get(&key) {
            return Some(errors);
        }
        let tree = if kind == PieceKind::Header {
            reparse(self.language, &[bytes, b"}"].concat(), None, self.timeout)?
        } else {
            reparse(self.language, bytes, None, self.timeout)?
        };
        let errors = count_errors(tree.root_node()) as u32;
        let mut known = known().lock().expect("known poisoned");
        if known.len() >= KNOWN_MAX {
            known.clear();
        }
        known.insert(key, errors);
        Some(errors)
    }
}

/// Where a scan of an edited text meets the pieces of the text before the
/// edit again.
struct Rejoin<'a> {
    base: &'a PieceErrors,
    old_end: usize,
    new_end: usize,
}

impl Rejoin<'_> {
    /// The index of the base's end that `end` is, if the scan is back on
    /// the base's pieces there: past the edit, at an end of the base's
    /// with the same state, from where the same bytes follow.
    fn meets(&self, end: &End) -> Option<usize> {
        let old_at = end.at.checked_sub(self.new_end)? + self.old_end;
        let at = self
            .base
            .ends
            .binary_search_by_key(&old_at, |e| e.at)
            .ok()?;
        let old = &self.base.ends[at];
        (old.kind == end.kind && old.blocks == end.blocks && old.line_start == end.line_start)
            .then_some(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::testing::XorShift;
    use crate::syntax::edit::byte_edit;
    use crate::tree::sitter::PARSE_TIMEOUT;

    const TEXT: &str = "# 1 \"a.cpp\"\nnamespace std __attribute__ ((x)) {\n  typedef unsigned long size_t;\n  template <typename T> struct box { T v; int get() { return v; } };\n  namespace inner {\n    int f(int a) { return a + 1; }\n    extern template class box<int>;\n  }\n  int g(int) = delete;\n}\nextern \"C\" {\n  int puts(const char *);\n}\nstruct s { int a; } v;\nstatic int h(void) { for (;;) { if (v.a) break; } return 0; }\nint main() { return h(); }\n";

    fn below(rng: &mut XorShift, n: usize) -> usize {
        rng.below(n as u64) as usize
    }

    #[test]
    fn counting_from_an_edited_text_gives_the_count_of_a_scan_from_the_start() {
        let counter = PieceCounter::new(Language::named("cpp"), PARSE_TIMEOUT);
        let mut rng = XorShift::new(7);
        let mut base = TEXT.as_bytes().to_vec();
        let mut base_count = counter.count(&base).expect("parses");
        let mut changed = 0;
        for round in 0..3000 {
            let mut text = base.clone();
            for _ in 0..1 + below(&mut rng, 3) {
                if text.is_empty() {
                    break;
                }
                let at = below(&mut rng, text.len());
                let len = (1 + below(&mut rng, 40)).min(text.len() - at);
                if below(&mut rng, 4) == 0 {
                    // Put back some bytes of the original elsewhere.
                    let from = below(&mut rng, TEXT.len() - len);
                    let bytes = &TEXT.as_bytes()[from..from + len];
                    text.splice(at..at, bytes.iter().copied());
                } else {
                    text.drain(at..at + len);
                }
            }
            let fresh = counter.count(&text).expect("parses");
            let edit = byte_edit(&base, &text);
            let edited = counter
                .count_edit(&base_count, &text, edit)
                .expect("parses");
            assert_eq!(
                edited,
                fresh,
                "round {round}: {:?}",
                String::from_utf8_lossy(&text)
            );
            changed += usize::from(fresh.total() != base_count.total());
            if below(&mut rng, 3) == 0 || text.len() < TEXT.len() / 3 {
                if text.len() < TEXT.len() / 3 {
                    text = TEXT.as_bytes().to_vec();
                }
                base_count = counter.count(&text).expect("parses");
                base = text;
            }
        }
        assert!(changed > 500, "only {changed} edits changed the count");
    }

    #[test]
    fn blocks_count_only_the_errors_of_their_items_and_an_unclosed_one_counts_too() {
        let counter = PieceCounter::new(Language::named("cpp"), PARSE_TIMEOUT);
        let text = TEXT.replace("__attribute__ ((x))", "                   ");
        let count = counter.count(text.as_bytes()).expect("parses");
        // tree-sitter-cpp knows neither `extern template` (two errors) nor
        // `= delete` after an unnamed parameter (one).
        assert_eq!(count.total(), 3, "{count:?}");
        let unclosed = text.replacen("\n}\nextern", "\nextern", 1);
        let count = counter.count(unclosed.as_bytes()).expect("parses");
        assert!(count.total() > 3, "{count:?}");
    }
}
