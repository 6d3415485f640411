//! Text the syntax check reads as spaces: a grammar's `syntax_blanks`,
//! words (with the parenthesized group after them, or before a word that
//! stays) that tree-sitter cannot place everywhere a compiler takes them:
//! GNU `__attribute__ ((...))` after a C++ namespace's name, on every
//! namespace of a preprocessed libstdc++ unit; `extern` before `template`
//! (an explicit instantiation declaration, which tree-sitter-cpp does not
//! know). They are blanked in place, offsets and lines kept, so a text's
//! edits and stretches are those of its blanked form.

use std::borrow::Cow;
use std::ops::Range;

use memchr::memmem;

use crate::grammar::SyntaxBlank;

/// The longest group after a word that is blanked (a longer one stays).
const GROUP_MAX: usize = 4096;

/// `text` with each of `blanks` that stands alone (and what goes with it)
/// made spaces (line breaks kept); borrowed when there is none.
pub(super) fn blanked<'t>(blanks: &[SyntaxBlank], text: &'t [u8]) -> Cow<'t, [u8]> {
    let mut ranges: Vec<Range<usize>> = Vec::new();
    for blank in blanks {
        for at in memmem::find_iter(text, &blank.word) {
            if let Some(end) = blank_end(blank, text, at) {
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

fn is_word_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// Where the text blanked for `blank`'s word at `at` ends, if the word
/// stands alone there and what must follow it does.
fn blank_end(blank: &SyntaxBlank, text: &[u8], at: usize) -> Option<usize> {
    let end = at + blank.word.len();
    if at.checked_sub(1).is_some_and(|i| is_word_byte(text[i]))
        || text.get(end).is_some_and(|b| is_word_byte(*b))
    {
        return None;
    }
    if !blank.group && blank.before.is_none() {
        return Some(end);
    }
    let next = end + text[end..].iter().position(|b| !b.is_ascii_whitespace())?;
    if blank.group {
        return group_end(text, next);
    }
    let before = blank.before.as_deref()?;
    let follows = text[next..].starts_with(before)
        && !text
            .get(next + before.len())
            .is_some_and(|b| is_word_byte(*b));
    follows.then_some(end)
}

/// Where the balanced parenthesized group opening at `open` ends, if one
/// does there; string and character literals inside may hold
/// parentheses, and a brace or `;` outside them ends the search.
fn group_end(text: &[u8], open: usize) -> Option<usize> {
    if text[open] != b'(' {
        return None;
    }
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    let mut escaped = false;
    for (i, &byte) in text.iter().enumerate().skip(open).take(GROUP_MAX) {
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
                    return Some(i + 1);
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

    fn blanks() -> Vec<SyntaxBlank> {
        let blank = |word: &str, group, before: Option<&str>| SyntaxBlank {
            word: word.as_bytes().to_vec(),
            group,
            before: before.map(|w| w.as_bytes().to_vec()),
        };
        vec![
            blank("__attribute__", true, None),
            blank("__extension__", false, None),
            blank("extern", false, Some("template")),
        ]
    }

    fn blank(text: &str) -> String {
        String::from_utf8(blanked(&blanks(), text.as_bytes()).into_owned()).unwrap()
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
    fn a_word_alone_or_before_the_word_it_needs_becomes_spaces() {
        assert_eq!(
            blank("__extension__ typedef long long ll;"),
            "              typedef long long ll;"
        );
        assert_eq!(
            blank("extern template class basic_string<char>;"),
            "       template class basic_string<char>;"
        );
        assert_eq!(
            blank("extern\ntemplate int f<int>();"),
            "      \ntemplate int f<int>();"
        );
    }

    #[test]
    fn a_word_inside_a_name_or_without_what_must_follow_it_stays() {
        for text in [
            "int my__attribute__((x));",
            "int __attribute__x((x));",
            "__attribute__ ((unbalanced);",
            "namespace n __attribute__ ((x) { int f(); }",
            "__attribute__;",
            "int my__extension__;",
            "extern int x;",
            "extern \"C\" { int f(); }",
            "extern templates x;",
            "int extern_template;",
        ] {
            assert_eq!(blank(text), text);
        }
        assert!(matches!(blanked(&blanks(), b"int x;"), Cow::Borrowed(_)));
    }
}
