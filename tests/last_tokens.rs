//! The last tokens of a language, through the binary with its real
//! interpreter or compiler: the characters inside a literal (`interiors`).

use crate::names::{phase, reduce};

#[test]
#[cfg(feature = "javascript")]
fn a_regular_expression_is_cut_inside_to_the_characters_its_error_needs() {
    let input = r#"function parseDate(text) {
  const pattern = /^(?<year>\d{4})-(?<month>0[1-9]|1[0-2])-(?<day>\d{2})T(?<year>\d{2}):\d{2}$/u;
  const match = pattern.exec(text);
  return match ? match.groups : null;
}
console.log(parseDate("2024-05-06T10:20"));
"#;
    let check = r#"node "$1" 2>&1 | grep -q "Duplicate capture group name""#;
    let (out, s) = reduce("date.js", input, check);
    let (tests, successes) = phase(&s, "interiors");
    assert!(successes > 0 && tests > 0, "{s}");
    let pattern = &out[out.find('/').unwrap() + 1..out.rfind('/').unwrap()];
    // Two empty groups of one name (a name cut in one place alone is two
    // names): `(?<year>)(?<year>)`, from 78 characters.
    assert!(pattern.len() <= 18, "{out}");
    assert!(!out.contains("month") && !out.contains("\\d"), "{out}");
}
