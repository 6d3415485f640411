//! Include inlining for a set of files, as C-Reduce's: a directive that
//! includes another file of the set (`#include "util.h"`) replaced by that
//! file's text, the file deleted in the same candidate, so that the passes
//! after it work on one file (where a header's macro, its prototype's
//! parameter types and the directive itself can go, which no deletion
//! across two files reaches).
//!
//! Which nodes are directives, and which paths name a file beside the
//! includer, is data (`includes` in `grammars/<lang>.json`); a path is
//! resolved against the includer's directory within the set. A file that
//! something else in the set still includes is not inlined: the candidate
//! would copy it, and grow.

use std::ops::Range;

use anyhow::Result;

use crate::fileset::{FileSet, decode, encode};
use crate::languages::Lang;

/// A directive of one file of a set that includes another file of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Include {
    /// The including file's path in the set.
    pub includer: String,
    /// The directive's bytes in the includer's content.
    pub directive: Range<usize>,
    /// The included file's path in the set.
    pub target: String,
}

/// The candidates that inline one file of the archive's set into the one
/// file including it and delete it, in the archive's order of includers
/// and directives.
pub(crate) fn candidates(archive: &[u8], set: &FileSet) -> Result<Vec<Vec<u8>>> {
    let Some(files) = decode(archive) else {
        return Ok(Vec::new());
    };
    let found = includes(&files, |path| set.lang_of(path))?;
    Ok((0..found.len())
        .filter_map(|i| {
            let (archive, deleted) = inline(&files, &found, i);
            deleted.then_some(archive)
        })
        .collect())
}

/// Every directive in `files` (path, content) that includes another of
/// them, each file read in the language `lang_of` gives it.
pub(crate) fn includes(
    files: &[(&str, &[u8])],
    lang_of: impl Fn(&str) -> Lang,
) -> Result<Vec<Include>> {
    let mut found = Vec::new();
    for (path, content) in files {
        for (directive, name) in directives(lang_of(path), content)? {
            let Some(target) = resolve(path, &name) else {
                continue;
            };
            if target != *path && files.iter().any(|(p, _)| *p == target) {
                found.push(Include {
                    includer: path.to_string(),
                    directive,
                    target,
                });
            }
        }
    }
    Ok(found)
}

/// The archive of `files` with include `which` of `all` replaced by its
/// target's text, and the target deleted when no other directive of `all`
/// names it; whether it was.
pub(crate) fn inline(files: &[(&str, &[u8])], all: &[Include], which: usize) -> (Vec<u8>, bool) {
    let include = &all[which];
    let delete = !all
        .iter()
        .enumerate()
        .any(|(i, other)| i != which && other.target == include.target);
    let content_of = |path: &str| {
        files
            .iter()
            .find(|(p, _)| *p == path)
            .map_or(&[][..], |(_, c)| *c)
    };
    let (text, host) = (content_of(&include.target), content_of(&include.includer));
    let newline: &[u8] = if text.is_empty() || text.ends_with(b"\n") {
        b""
    } else {
        b"\n"
    };
    let merged = [
        &host[..include.directive.start],
        text,
        newline,
        &host[include.directive.end..],
    ]
    .concat();
    let out = files
        .iter()
        .filter(|(p, _)| !(delete && *p == include.target))
        .map(|&(p, c)| {
            (
                p,
                if p == include.includer {
                    &merged[..]
                } else {
                    c
                },
            )
        });
    (encode(out), delete)
}

/// The include directives of `content` that name a file beside it: each
/// directive's byte range (its tokens, without the whitespace after) and
/// the path it names.
fn directives(lang: Lang, content: &[u8]) -> Result<Vec<(Range<usize>, String)>> {
    let Lang::Tree(language) = lang else {
        return Ok(Vec::new());
    };
    if !language.grammar().has_includes() {
        return Ok(Vec::new());
    }
    let (tree, units) = crate::tree::parse::parse(language, content.to_vec())?;
    let grammar = &tree.grammar;
    let end_of = |u: u32| units.span(u).start + units.text(u).trim_ascii_end().len();
    let mut found = Vec::new();
    for n in 0..tree.len() as u32 {
        let Some((field, local)) = grammar.include(tree.kind(n)) else {
            continue;
        };
        let Some(path) = tree
            .children(n)
            .find(|&c| grammar.field_name(tree.slot(c)) == Some(field) && tree.kind(c) == local)
        else {
            continue;
        };
        let quoted = tree.tokens(path);
        if quoted.len() < 2 {
            continue;
        }
        let inside = end_of(quoted.start)..units.span(quoted.end - 1).start;
        let all = tree.tokens(n);
        let Some(last) = (all.start..all.end)
            .rev()
            .find(|&u| !units.text(u).trim_ascii().is_empty())
        else {
            continue;
        };
        let name = String::from_utf8_lossy(&content[inside]).into_owned();
        found.push((units.span(all.start).start..end_of(last), name));
    }
    Ok(found)
}

/// The set path `name` names from the file `includer` (relative to its
/// directory; `.` and `..` followed), if it stays within the set.
pub(crate) fn resolve(includer: &str, name: &str) -> Option<String> {
    if name.is_empty() || name.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = includer.split('/').collect();
    parts.pop();
    for part in name.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::languages::Language;

    fn c(_: &str) -> Lang {
        Lang::Tree(Language::named("c"))
    }

    #[test]
    fn a_path_is_resolved_against_the_includers_directory() {
        assert_eq!(resolve("main.c", "util.h").as_deref(), Some("util.h"));
        assert_eq!(resolve("src/a.c", "b.h").as_deref(), Some("src/b.h"));
        assert_eq!(resolve("src/a.c", "../inc/b.h").as_deref(), Some("inc/b.h"));
        assert_eq!(resolve("src/a.c", "./b.h").as_deref(), Some("src/b.h"));
        assert_eq!(resolve("a.c", "../b.h"), None);
        assert_eq!(resolve("a.c", "/usr/include/b.h"), None);
    }

    #[test]
    fn a_header_included_once_is_inlined_in_place_of_its_directive_and_deleted() {
        let files: [(&str, &[u8]); 3] = [
            (
                "src/main.c",
                b"#include <stdio.h>\n#include \"util.h\"\nint main() { return f(); }\n",
            ),
            ("src/util.h", b"int f(void);"),
            ("util.h", b"int g(void);\n"),
        ];
        let found = includes(&files, c).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].target, "src/util.h");
        let (archive, deleted) = inline(&files, &found, 0);
        assert!(deleted);
        assert_eq!(
            decode(&archive).unwrap(),
            vec![
                (
                    "src/main.c",
                    &b"#include <stdio.h>\nint f(void);\n\nint main() { return f(); }\n"[..]
                ),
                ("util.h", &b"int g(void);\n"[..]),
            ]
        );
    }

    #[test]
    fn a_header_included_twice_is_kept_and_not_proposed() {
        let files: [(&str, &[u8]); 3] = [
            ("a.c", b"#include \"x.h\"\nint a;\n"),
            ("b.c", b"#ifdef B\n#include \"x.h\"\n#endif\n"),
            ("x.h", b"int x;\n"),
        ];
        let found = includes(&files, c).unwrap();
        assert_eq!(
            found.len(),
            2,
            "the include inside #ifdef counts: {found:?}"
        );
        let (archive, deleted) = inline(&files, &found, 0);
        assert!(!deleted);
        let kept = decode(&archive).unwrap();
        assert_eq!(kept.len(), 3);
        assert_eq!(kept[0], ("a.c", &b"int x;\n\nint a;\n"[..]));
        assert_eq!(kept[2], ("x.h", &b"int x;\n"[..]));
    }

    #[test]
    fn system_includes_and_files_outside_the_set_are_never_touched() {
        let files: [(&str, &[u8]); 2] = [
            (
                "a.c",
                b"#include <x.h>\n#include \"y.h\"\n#include \"a.c\"\nint a;\n",
            ),
            ("x.h", b"int x;\n"),
        ];
        assert_eq!(includes(&files, c).unwrap(), vec![]);
        let text = |_: &str| Lang::Text;
        let files: [(&str, &[u8]); 2] = [("a.txt", b"#include \"x.h\"\n"), ("x.h", b"")];
        assert_eq!(includes(&files, text).unwrap(), vec![]);
    }
}
