//! Text the syntax check reads as spaces: a grammar's `syntax_blanks`,
//! words with the parenthesized group after them that tree-sitter cannot
//! place everywhere a compiler takes them (GNU `__attribute__ ((...))`
//! after a C++ namespace's name, on every namespace of a preprocessed
//! libstdc++ unit). They are blanked in place, offsets and lines kept, so a
//! text's edits and stretches are those of its blanked form.

use std::borrow::Cow;
use std::ops::Range;

use memchr::memmem;

/// The longest group after a word that is blanked (a longer one stays).
const GROUP_MAX: usize = 4096;

/// `text` with each of `words` that stands alone, and the balanced
/// parenthesized group right after it, made spaces (line breaks kept);
/// borrowed when there is none.
pub(super) fn blanked<'t>(words: &[Vec<u8>], text: &'t [u8]) -> Cow<'t, [u8]> {
    let mut ranges: Vec<Range<usize>> = Vec::new();
    for word in words {
        for at in memmem::find_iter(text, word) {
            if let Some(end) = group_after(text, at, word.len()) {
                ranges.push(at..end);
            }
        }
    }
    if ranges.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = text.to_vec();
    for range in ranges {
        for byte in &mut out[range] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    }
    Cow::Owned(out)
}

/// Where the balanced group after the word at `at` (of `len` bytes) ends,
/// if the word stands alone (no identifier character on either side) and
/// a `(` follows it after blanks; string and character literals inside
/// may hold parentheses, and a brace or `;` outside them ends the search.
fn group_after(text: &[u8], at: usize, len: usize) -> Option<usize> {
    let word_char = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    if at.checked_sub(1).is_some_and(|i| word_char(&text[i])) {
        return None;
    }
    let rest = &text[at + len..];
    let open = rest.iter().position(|b| !b.is_ascii_whitespace())?;
    if rest[open] != b'(' {
        return None;
    }
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    let mut escaped = false;
    for (i, &byte) in rest.iter().enumerate().skip(open).take(GROUP_MAX) {
        match quote {
            Some(_) if escaped => escaped = false,
            Some(_) if byte == b'\\' => escaped = true,
            Some(q) if byte == q => quote = None,
            Some(_) => {}
            None if byte == b'"' || byte == b'\'' => quote = Some(byte),
            // (A group never holds these: a broken one ends there.)
            None if matches!(byte, b'{' | b'}' | b';') => return None,
            None if byte == b'(' => depth += 1,
            None if byte == b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at + len + i + 1);
                }
            }
            None => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blank(text: &str) -> String {
        let words = [b"__attribute__".to_vec()];
        String::from_utf8(blanked(&words, text.as_bytes()).into_owned()).unwrap()
    }

    #[test]
    fn a_word_and_its_group_become_spaces_of_the_same_length() {
        let text = "namespace std __attribute__ ((__visibility__ (\"default\"))) {\n}";
        let out = blank(text);
        assert_eq!(out.len(), text.len());
        assert_eq!(
            out.split_whitespace().collect::<Vec<_>>(),
            ["namespace", "std", "{", "}"]
        );
        let text = "int f() __attribute__((\n  section(\")(\")));";
        let out = blank(text);
        assert_eq!(out.lines().count(), text.lines().count());
        assert_eq!(
            out.split_whitespace().collect::<Vec<_>>(),
            ["int", "f()", ";"]
        );
    }

    #[test]
    fn a_word_inside_a_name_or_without_a_balanced_group_stays() {
        for text in [
            "int my__attribute__((x));",
            "int __attribute__x((x));",
            "__attribute__ ((unbalanced);",
            "namespace n __attribute__ ((x) { int f(); }",
            "__attribute__;",
        ] {
            assert_eq!(blank(text), text);
        }
        assert!(matches!(
            blanked(&[b"__attribute__".to_vec()], b"int x;"),
            Cow::Borrowed(_)
        ));
    }
}
