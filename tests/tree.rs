//! End-to-end runs of the tree policies on C, C++ and JSON, and the layout
//! of their results.

use crate::util::{Sandbox, assert_exit, assert_invariants, phase_names, stats};

/// Reduces `input` of `fixture` with `args` (into `out`, stats in `s.json`),
/// asserting the invariants every end-to-end run keeps.
pub(crate) fn reduce_fixture(
    fixture: &str,
    input: &str,
    args: &[&str],
) -> (Sandbox, serde_json::Value, Vec<u8>) {
    let (sb, s, original) = run_fixture(fixture, input, args);
    assert_invariants(&sb, "check.sh", input, &original, "out", args);
    (sb, s, original)
}

/// [`reduce_fixture`] without the invariants, for runs kept only for
/// comparison.
fn run_fixture(fixture: &str, input: &str, args: &[&str]) -> (Sandbox, serde_json::Value, Vec<u8>) {
    let sb = Sandbox::new();
    sb.fixture(fixture);
    let original = sb.read(input);
    let mut run = args.to_vec();
    run.extend([
        "--oracle",
        "check.sh",
        input,
        "-o",
        "out",
        "--stats-json",
        "s.json",
        "-q",
    ]);
    let out = sb.reduce(&run);
    assert_exit(&out, 0);
    let s = stats(&sb, "s.json");
    (sb, s, original)
}

/// Successes of every phase named `name` in stats `s`, over all rounds.
pub(crate) fn successes_of(s: &serde_json::Value, name: &str) -> u64 {
    s["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["name"] == name)
        .map(|p| p["successes"].as_u64().unwrap())
        .sum()
}

fn gcc_accepts(sb: &Sandbox, file: &str) -> bool {
    crate::util::succeeds_quietly(
        std::process::Command::new("gcc")
            .args(["-fsyntax-only", "-x", "c", "-w"])
            .arg(sb.path().join(file)),
    )
}

#[test]
fn hdd_reduces_the_c_fixture_to_a_small_program_that_compiles() {
    for args in [
        &["--algo", "hdd"][..],
        &["--algo", "hdd", "--fixpoint"][..],
        &["--algo", "hdd", "--inner", "probdd"][..],
    ] {
        let (sb, s, original) = reduce_fixture("c-crash", "crash.c", args);
        let out = sb.read("out");
        assert!(gcc_accepts(&sb, "out"));
        assert!(
            out.len() * 10 < original.len(),
            "{args:?}: {} of {} bytes left",
            out.len(),
            original.len()
        );
        assert!(
            s["units_after"].as_u64().unwrap() < 80,
            "{args:?}: {}",
            s["units_after"]
        );
    }
}

#[test]
fn flat_token_ddmin_needs_several_times_more_calls_than_hdd_on_the_c_fixture() {
    let (_, hdd, _) = reduce_fixture(
        "c-crash",
        "crash.c",
        &["--algo", "hdd", "--no-cache", "-j", "1"],
    );
    let hdd_calls = hdd["oracle_calls"].as_u64().unwrap();
    // Flat ddmin is capped at three times HDD's calls: it must still be
    // unfinished there (a full run took 6,085 calls against HDD's 424).
    let sb = Sandbox::new();
    sb.fixture("c-crash");
    let cap = (3 * hdd_calls).to_string();
    let out = sb.reduce(&[
        "--algo",
        "ddmin",
        "--unit",
        "token",
        "--no-cache",
        "-j",
        "1",
        "--max-tests",
        &cap,
        "--oracle",
        "check.sh",
        "crash.c",
        "-o",
        "out",
        "--stats-json",
        "s.json",
        "-q",
    ]);
    assert_exit(&out, 0);
    let flat = stats(&sb, "s.json");
    assert_eq!(
        flat["stop_reason"], "max-tests",
        "flat ddmin finished within 3x HDD's {hdd_calls} calls: {flat}"
    );
    assert!(sb.oracle_accepts("check.sh", &sb.path().join("out"), "crash.c"));
}

#[test]
fn every_tree_policy_returns_an_interesting_parseable_c_result() {
    for algo in ["perses", "tpdd", "auto"] {
        let (sb, s, _) = reduce_fixture("c-crash", "crash.c", &["--algo", algo]);
        assert!(gcc_accepts(&sb, "out"), "{algo}");
        assert!(
            s["units_after"].as_u64().unwrap() < 120,
            "{algo}: {}",
            s["units_after"]
        );
    }
}

#[test]
fn hdd_reduces_the_deep_json_fixture_to_a_few_dozen_tokens_of_valid_json() {
    for args in [
        &["--algo", "hdd"][..],
        &["--algo", "hdd", "--fixpoint", "--inner", "probdd"][..],
        &["--algo", "perses"][..],
    ] {
        let (sb, s, _) = reduce_fixture("json-deep", "config.json", args);
        let out = String::from_utf8(sb.read("out")).unwrap();
        assert!(
            s["units_after"].as_u64().unwrap() <= 60,
            "{args:?}: {} tokens: {out}",
            s["units_after"]
        );
        assert!(
            !out.contains(",,")
                && !out.contains("[,")
                && !out.contains(",]")
                && !out.contains("{,"),
            "{out}"
        );
        let compact: String = out.split_whitespace().collect();
        assert!(
            !compact.contains(",}") && !compact.contains(",]") && !compact.contains(",,"),
            "{out}"
        );
    }
}

#[test]
fn json_arrays_and_objects_lose_elements_without_stray_commas() {
    let sb = Sandbox::new();
    sb.write(
        "in.json",
        "{\"a\": [1, 2, 3, 4], \"b\": {\"x\": 1, \"y\": 2, \"z\": 3}, \"c\": [5, 6]}\n",
        false,
    );
    sb.write(
        "check.sh",
        "#!/bin/sh\npython3 -S -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if 3 in d[\"a\"] and d[\"b\"].get(\"y\")==2 else 1)' \"$1\"\n",
        true,
    );
    let original = sb.read("in.json");
    // A fixed timeout: the default (10x the original's run) can cut
    // python3's start short on a loaded machine.
    let out = sb.reduce(&[
        "--algo",
        "hdd",
        "--timeout",
        "60",
        "--oracle",
        "check.sh",
        "in.json",
        "-o",
        "out.json",
        "-q",
    ]);
    assert_exit(&out, 0);
    let text: String = String::from_utf8(sb.read("out.json"))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(text, "{\"a\":[3],\"b\":{\"y\":2}}");
    assert_invariants(
        &sb,
        "check.sh",
        "in.json",
        &original,
        "out.json",
        &["--algo", "hdd", "--timeout", "60"],
    );
}

#[test]
fn compact_format_takes_needless_whitespace_out_of_the_c_result() {
    let (readable, ..) = reduce_fixture("c-crash", "crash.c", &[]);
    let (compact, s, _) = reduce_fixture("c-crash", "crash.c", &["--format", "compact"]);
    let (readable, compact) = (readable.read("out"), compact.read("out"));
    assert!(
        compact.len() < readable.len(),
        "{compact:?} vs {readable:?}"
    );
    let text = String::from_utf8(compact).unwrap();
    assert!(!text.contains("  ") && !text.contains(" ;"), "{text:?}");
    let phases = s["phases"].as_array().unwrap();
    let format = phases.last().unwrap();
    assert_eq!(format["name"], "format");
    assert_eq!(format["successes"], 1);
}

#[test]
fn compact_format_keeps_line_breaks_an_oracle_needs() {
    let sb = Sandbox::new();
    sb.write(
        "in.txt",
        "alpha   one\n    beta two\n  gamma three\n",
        false,
    );
    // Interesting while alpha, beta and gamma stay, on at least three lines.
    sb.write(
        "lines.sh",
        "#!/bin/sh\nfor w in alpha beta gamma; do grep -q $w \"$1\" || exit 1; done\n\
         [ \"$(grep -c . \"$1\")\" -ge 3 ]\n",
        true,
    );
    let args = ["--format", "compact"];
    let mut run = args.to_vec();
    run.extend(["--oracle", "lines.sh", "in.txt", "-o", "out", "-q"]);
    assert_exit(&sb.reduce(&run), 0);
    // Tokens carry their trailing whitespace, so `one` and `two` stay to
    // keep the line breaks; the compact layout fails the oracle, the layout
    // with line breaks drops the indentation and the run of spaces.
    assert_eq!(
        String::from_utf8(sb.read("out")).unwrap(),
        "alpha one\nbeta two\ngamma"
    );
    let original = sb.read("in.txt");
    assert_invariants(&sb, "lines.sh", "in.txt", &original, "out", &args);
}

#[test]
fn the_default_pipeline_tidies_the_blank_lines_and_line_end_spaces_deletions_leave() {
    let sb = Sandbox::new();
    sb.fixture("c-crash");
    let input = "void crash(void);\n\nint unused;   \n\n\nint main(void)\n{\n    int x = 1;   \n\n\n\n    \
                 crash();   \n\n\n\n    return x;\n}\n\n\n\n";
    sb.write("spaced.c", input, false);
    // One job: with two, the format pass may test its fallback text while
    // the layout is still being tested, and the count of its tests would
    // depend on timing. A generous timeout: on a loaded machine gcc may
    // outlast the default (10× the original's run, at least 1 s).
    let args = ["--stats-json", "s.json", "-j", "1", "--timeout", "30"];
    let mut run = args.to_vec();
    run.extend(["--oracle", "check.sh", "spaced.c", "-o", "out", "-q"]);
    assert_exit(&sb.reduce(&run), 0);
    let text = String::from_utf8(sb.read("out")).unwrap();
    assert!(text.contains("crash()"), "{text:?}");
    assert!(
        !text.contains("\n\n\n") && !text.contains(" \n") && text.ends_with("}\n"),
        "{text:?}"
    );
    let s = stats(&sb, "s.json");
    let format = s["phases"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(format["name"], "format");
    assert_eq!(
        (&format["tests"], &format["successes"]),
        (&1.into(), &1.into())
    );
    assert_invariants(&sb, "check.sh", "spaced.c", input.as_bytes(), "out", &args);
}

#[test]
fn the_default_pipeline_parses_its_result_again_so_parentheses_left_by_a_deleted_if_go() {
    let sb = Sandbox::new();
    sb.write(
        "cond.c",
        "int f(int x) {\n  if (x >= 5) ;\n  return 0;\n}\n",
        false,
    );
    sb.write(
        "check.sh",
        "#!/bin/sh\ngcc -fsyntax-only -x c -w \"$1\" 2>/dev/null && grep -q 'x >= 5' \"$1\"\n",
        true,
    );
    let run = ["--oracle", "check.sh", "cond.c", "-o", "out", "-q"];
    assert_exit(&sb.reduce(&run), 0);
    let text = String::from_utf8(sb.read("out")).unwrap();
    // Deleting the token `if` leaves `(x >= 5) ;`, an expression statement
    // to a fresh parse but a broken if statement to the tree it was cut
    // from, where the parentheses fill a condition and must stay.
    assert!(text.contains("x >= 5") && !text.contains("if"), "{text:?}");
    assert!(!text.contains("(x >= 5)"), "{text:?}");
    let original = sb.read("cond.c");
    assert_invariants(&sb, "check.sh", "cond.c", &original, "out", &[]);
}

#[test]
fn compact_format_is_refused_for_line_units() {
    let sb = Sandbox::new();
    sb.fixture("lines");
    let out = sb.reduce(&[
        "--format",
        "compact",
        "--unit",
        "line",
        "--oracle",
        "needs-2-and-7.sh",
        "numbers.txt",
    ]);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--format compact needs token units"));
}

#[test]
fn rename_shortens_every_name_the_oracle_does_not_need() {
    let (sb, s, _) = reduce_fixture("c-crash", "crash.c", &["--rename"]);
    let text = String::from_utf8(sb.read("out")).unwrap();
    // `crash` must stay (the oracle looks for it); every other name is one letter.
    let names: Vec<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
        .filter(|w| !["int", "void", "return", "crash"].contains(w))
        .collect();
    assert!(text.contains("crash"), "{text}");
    assert!(names.iter().all(|n| n.len() == 1), "{names:?} in {text}");
    let phases = s["phases"].as_array().unwrap();
    let names: Vec<&str> = phases.iter().map(|p| p["name"].as_str().unwrap()).collect();
    // Renaming comes after the last scan, before the tidy layout.
    assert_eq!(names[names.len() - 2..], ["rename", "format"]);
    let rename = &phases[names.len() - 2];
    assert!(rename["successes"].as_u64().unwrap() >= 1);
}

#[test]
fn the_default_pipeline_gives_a_names_uses_an_earlier_name_so_its_declaration_goes() {
    let (sb, s, _) = reduce_fixture("c-names", "sum.c", &[]);
    let text = String::from_utf8(sb.read("out")).unwrap();
    // The oracle needs a sum of two names, not two variables: one is left.
    let globals: Vec<&str> = ["alpha", "beta", "gamma_count"]
        .into_iter()
        .filter(|name| text.contains(name))
        .collect();
    assert_eq!(globals.len(), 1, "{text}");
    let sum = format!("crash({0} + {0})", globals[0]);
    assert!(text.contains(&sum), "{text}");
    assert!(successes_of(&s, "idreplace") >= 1, "{s}");
    // Deletion alone keeps both variables.
    let (perses, ..) = reduce_fixture("c-names", "sum.c", &["--algo", "perses"]);
    let text = String::from_utf8(perses.read("out")).unwrap();
    assert!(text.contains("alpha") && text.contains("beta"), "{text}");
}

#[test]
fn the_last_scan_drops_a_semicolon_and_a_return_type_the_compiler_does_without() {
    let (sb, s, _) = reduce_fixture("c-implicit", "lax.c", &[]);
    let text = String::from_utf8(sb.read("out")).unwrap();
    // gcc accepts `struct pair { int first }` and an implicit int return
    // type; tree-sitter-c takes neither, so only the last scan finds them.
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("int first }"), "{text}");
    assert!(!words.contains("int first ;"), "{text}");
    assert!(!text.contains("int take_first"), "{text}");
    assert!(text.contains("take_first("), "{text}");
    let phases = s["phases"].as_array().unwrap();
    // The scan is the last drdd, after the literal insides; the hoist
    // pass and the layout follow it.
    let names: Vec<&str> = phases.iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(
        names[names.len() - 4..],
        ["interiors", "drdd", "hoist", "format"],
        "{phases:?}"
    );
    // A scan that deleted something is followed by another round on the
    // new parse, and the scan again, which finds nothing more.
    let scans: Vec<&serde_json::Value> = (0..names.len() - 1)
        .filter(|&i| names[i] == "drdd" && names[i + 1] == "hoist")
        .map(|i| &phases[i])
        .collect();
    let successes: u64 = scans.iter().map(|p| p["successes"].as_u64().unwrap()).sum();
    assert_eq!(successes, 2, "{scans:?}");
    assert_eq!(scans.last().unwrap()["successes"], 0, "{scans:?}");
    // Its filter still keeps error regions from the compiler.
    assert!(
        scans
            .iter()
            .any(|p| p["syntax_rejected"].as_u64().unwrap() > 0),
        "{scans:?}"
    );
    // Its verdicts depend on the text a candidate was proposed from, not on
    // what is committed while it waits: tests ahead change nothing.
    for jobs in ["1", "3"] {
        let (other, other_stats, _) = reduce_fixture("c-implicit", "lax.c", &["-j", jobs]);
        assert_eq!(other.read("out"), sb.read("out"), "-j {jobs}");
        assert_eq!(other_stats["successes"], s["successes"], "-j {jobs}");
    }
}

#[test]
fn the_default_pipeline_replaces_a_member_access_by_a_global_where_only_the_members_type_matters() {
    let (sb, s, _) = reduce_fixture("c-warning", "warn.c", &[]);
    let text = String::from_utf8(sb.read("out")).unwrap();
    // The cast's warning needs a volatile object, not the two structs it
    // was reached through: the access became a global declared as the
    // member was, and the structs and the parameter went.
    assert!(!text.contains("->") && !text.contains("struct"), "{text}");
    assert!(text.contains("volatile"), "{text}");
    assert!(successes_of(&s, "simplify") >= 1, "{s}");
    // Deletion alone keeps the structs.
    let (perses, ..) = reduce_fixture("c-warning", "warn.c", &["--algo", "perses"]);
    let text = String::from_utf8(perses.read("out")).unwrap();
    assert!(text.contains("->"), "{text}");
}

#[test]
fn the_default_pipeline_merges_a_caller_into_the_function_it_calls_where_the_call_alone_matters() {
    let (sb, s, _) = reduce_fixture("c-deprecated", "api.c", &[]);
    let text = String::from_utf8(sb.read("out")).unwrap();
    // The warning needs a call of the deprecated function, not a second
    // function to make it: deleting `} fill(...) {` between the two leaves
    // the deprecated function calling itself.
    assert_eq!(text.matches('{').count(), 1, "{text}");
    assert!(
        text.contains("buffer_push") && !text.contains("fill"),
        "{text}"
    );
    assert!(successes_of(&s, "windows") >= 1, "{s}");
}

#[test]
fn a_cpp_file_is_reduced_as_a_tree_with_fewer_tests_than_as_text() {
    let (_, tree, original) = reduce_fixture("cpp-template", "registry.cpp", &["-j", "1"]);
    assert_eq!(tree["language"], "cpp");
    // The same file as text, for comparison only (a result of text's
    // passes is not expected to be a fixpoint). Text's tree of blocks and
    // brackets reaches a result about as small (on this file 136 bytes
    // against the laid-out 137), with more tests: it has no syntax filter.
    let (_, text, _) = run_fixture(
        "cpp-template",
        "registry.cpp",
        &["-j", "1", "--lang", "text"],
    );
    let field = |s: &serde_json::Value, f: &str| s[f].as_u64().unwrap();
    assert!(
        field(&tree, "oracle_calls") < field(&text, "oracle_calls"),
        "as a tree: {tree}\nas text: {text}"
    );
    assert!(field(&tree, "bytes_after") * 10 < original.len() as u64);
}

#[test]
fn two_jobs_reduce_the_cpp_file_to_what_one_job_does() {
    let (one, ..) = reduce_fixture("cpp-template", "registry.cpp", &["-j", "1"]);
    let (two, ..) = reduce_fixture("cpp-template", "registry.cpp", &["-j", "2"]);
    assert_eq!(
        String::from_utf8(two.read("out")).unwrap(),
        String::from_utf8(one.read("out")).unwrap()
    );
}

/// HDD and T-PDD on C++ as on C (Perses' result on this file, re-parsed,
/// still lets a second run remove the wrapper of an emptied namespace: the
/// default pipeline, which parses again between rounds, reaches that
/// fixpoint itself).
#[test]
fn hdd_and_tpdd_return_an_interesting_cpp_result() {
    for algo in ["hdd", "tpdd"] {
        let (_, s, _) = reduce_fixture("cpp-template", "registry.cpp", &["--algo", algo]);
        assert_eq!(s["language"], "cpp", "{algo}");
        assert!(
            s["units_after"].as_u64().unwrap() < s["units_before"].as_u64().unwrap() / 3,
            "{algo}: {s}"
        );
    }
}

/// Asserts that `text` is laid out by nesting: each line indented two
/// spaces per bracket open at its start (one less when it starts by
/// closing one), no space at a line's end, no two spaces after its
/// indentation. Brackets inside strings and comments are not expected.
pub(crate) fn assert_laid_out_by_nesting(text: &str) {
    let mut depth: i64 = 0;
    for line in text.lines() {
        let body = line.trim_start_matches(' ');
        let closes = body.starts_with(['}', ']', ')']);
        let want = 2 * (depth - i64::from(closes));
        assert_eq!(
            (line.len() - body.len()) as i64,
            want,
            "{line:?} in\n{text}"
        );
        assert!(
            !line.ends_with(' ') && !body.contains("  "),
            "{line:?} in\n{text}"
        );
        for c in body.chars() {
            match c {
                '{' | '[' | '(' => depth += 1,
                '}' | ']' | ')' => depth -= 1,
                _ => {}
            }
        }
    }
}

#[test]
fn c_cpp_and_json_results_are_laid_out_by_nesting_where_the_oracle_accepts_it() {
    for (fixture, input) in [
        ("c-crash", "crash.c"),
        ("c-deprecated", "api.c"),
        ("cpp-template", "registry.cpp"),
        ("json-deep", "config.json"),
    ] {
        // A generous timeout, as above: the layout's one test must not time out.
        let (sb, s, _) = reduce_fixture(fixture, input, &["-j", "1", "--timeout", "30"]);
        let text = String::from_utf8(sb.read("out")).unwrap();
        assert_laid_out_by_nesting(&text);
        assert!(text.lines().count() > 1, "{fixture}: {text}");
        assert_eq!(successes_of(&s, "format"), 1, "{fixture}: {s}");
        // Keeping the input's spacing stays available, and gives another
        // text (a run kept for comparison: the one above checked the rest;
        // one fixture shows it, each more would cost a whole reduction).
        if fixture == "c-crash" {
            let (original, ..) = run_fixture(
                fixture,
                input,
                &["-j", "1", "--timeout", "30", "--format", "original"],
            );
            assert_ne!(original.read("out"), sb.read("out"), "{fixture}");
        }
    }
}

#[test]
fn a_c_result_whose_oracle_needs_its_spacing_keeps_it() {
    let sb = Sandbox::new();
    let source = "int   f(void) {\n    return   1;\n}\n";
    sb.write("f.c", source, false);
    // Interesting only while `return   1` keeps its three spaces.
    sb.write("check.sh", "#!/bin/sh\ngrep -q 'return   1' \"$1\"\n", true);
    let out = sb.reduce(&["--oracle", "check.sh", "f.c", "-o", "out", "-q"]);
    assert_exit(&out, 0);
    let text = String::from_utf8(sb.read("out")).unwrap();
    assert!(text.contains("return   1"), "{text}");
    assert_invariants(&sb, "check.sh", "f.c", source.as_bytes(), "out", &[]);
}

#[test]
fn a_condition_the_bug_needs_without_its_if_becomes_an_expression_statement() {
    let sb = Sandbox::new();
    let source = "int g(int);\n\
                  int f(unsigned char p) {\n  int r = 0;\n  if (p > 300) {\n    r = g(p);\n  }\n  return r;\n}\n";
    sb.write("cmp.c", source, false);
    // gcc's warning about a comparison that never holds, and nothing else.
    sb.write(
        "check.sh",
        "#!/bin/sh\nout=$(LC_ALL=C gcc -c -Wall -Wextra \"$1\" -o /dev/null 2>&1) || exit 1\n\
         printf '%s' \"$out\" | grep -q 'comparison is always false'\n",
        true,
    );
    let out = sb.reduce(&[
        "--oracle",
        "check.sh",
        "cmp.c",
        "-o",
        "out",
        "-q",
        "--stats-json",
        "s.json",
    ]);
    assert_exit(&out, 0);
    let text = String::from_utf8(sb.read("out")).unwrap();
    assert!(!text.contains("if"), "{text}");
    assert!(text.contains("> 300;"), "{text}");
    assert_laid_out_by_nesting(&text);
    assert_invariants(&sb, "check.sh", "cmp.c", source.as_bytes(), "out", &[]);
}

#[test]
fn a_round_that_leaves_mostly_parse_errors_stays_on_the_grammars_tree() {
    // Read by its grammar at first (a small error region among many
    // functions); once the functions go, the region is most of the text,
    // which must not turn the next rounds into text blocks: they would
    // give up the grammar's rewrites for the rest of the run.
    let sb = Sandbox::new();
    let mut source: String = (0..12)
        .map(|i| format!("int helper_{i}(int a) {{ int x = a * {i} + 1; return x - {i}; }}\n"))
        .collect();
    source.push_str("int main(void) { return helper_3(2); }\n");
    source.push_str("@@ $$ ## garbage ?? garbage @@ $$ garbage ## ?? @@\n");
    sb.write("in.c", &source, false);
    sb.write(
        "check.sh",
        "#!/bin/sh\ngrep -q garbage \"$1\" && grep -q main \"$1\"\n",
        true,
    );
    let args = [
        "--oracle",
        "check.sh",
        "in.c",
        "-o",
        "out.c",
        "--stats-json",
        "s.json",
        "-q",
    ];
    assert_exit(&sb.reduce(&args), 0);
    let s = stats(&sb, "s.json");
    assert_eq!(s["blocks_fallback"], false, "{s}");
    let phases = phase_names(&s);
    // The second round is the grammar's (its simplify pass, not text's
    // line pass); only once the grammar's rounds are over do the blocks
    // get theirs, as a run starting from the result would, so that a
    // second run changes nothing (checked below).
    let first_round = phases.iter().position(|&p| p == "windows").unwrap();
    let second_round = &phases[first_round + 1..];
    let simplify = second_round.iter().position(|&p| p == "simplify");
    let lines = second_round.iter().position(|&p| p == "drdd-lines");
    assert!(
        simplify.is_some() && lines.is_none_or(|l| Some(l) > simplify),
        "{phases:?}"
    );
    assert_invariants(&sb, "check.sh", "in.c", source.as_bytes(), "out.c", &[]);
}
