//! End-to-end runs on text in no known language, reduced as a tree of
//! blocks (indentation and brackets) before lines and tokens.

use crate::tree::{reduce_fixture, successes_of};

/// Tokens of the result, as `--stats-json` counts them.
fn tokens(s: &serde_json::Value) -> u64 {
    s["units_after"].as_u64().unwrap()
}

#[test]
fn python_2_source_judged_by_python_3_loses_its_def_and_class_skeletons_as_text() {
    let (sb, s, _) = reduce_fixture(
        "python2-except",
        "legacy.py",
        &["-j", "1", "--lang", "text"],
    );
    let text = String::from_utf8(sb.read("out")).unwrap();
    assert_eq!(s["language"], "text");
    assert!(text.contains("except KeyError, err"), "{text}");
    // A header went with the block it owns: one `def` is left around the
    // `try` (its body), no class and no other function.
    assert!(!text.contains("class "), "{text}");
    assert!(text.matches("def ").count() <= 1, "{text}");
    // The line-and-token passes alone ended at 137 tokens on this file.
    assert!(tokens(&s) <= 40, "{} tokens: {text}", tokens(&s));
    assert!(successes_of(&s, "perses-sweep+drdd") >= 1, "{s}");
}

#[test]
fn a_duplicate_option_in_an_ini_section_is_reduced_to_the_section_and_the_two_options() {
    let (sb, s, _) = reduce_fixture(
        "ini-duplicate",
        "settings.ini",
        &["-j", "1", "--lang", "text"],
    );
    let text = String::from_utf8(sb.read("out")).unwrap();
    assert!(
        text.contains("[server]") && text.matches("timeout").count() == 2,
        "{text}"
    );
    assert!(tokens(&s) <= 12, "{} tokens: {text}", tokens(&s));
}

#[test]
fn a_brace_language_without_a_grammar_keeps_only_the_nesting_its_check_needs() {
    for args in [
        &["-j", "1"][..],
        &["-j", "1", "--algo", "hdd"][..],
        &["-j", "1", "--algo", "perses"][..],
    ] {
        let (sb, s, original) = reduce_fixture("brace-config", "services.conf", args);
        let text = String::from_utf8(sb.read("out")).unwrap();
        assert_eq!(s["language"], "text", "{args:?}");
        assert!(text.contains("crash("), "{args:?}: {text}");
        assert_eq!(text.matches("service").count(), 1, "{args:?}: {text}");
        assert!(text.len() * 10 < original.len(), "{args:?}: {text}");
    }
}
