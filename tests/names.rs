//! The passes by name through the binary: function bodies made
//! declarations or empty (`bodies`), declarations nothing mentions deleted
//! with what only they mentioned (`unused`), and declarations deleted with
//! the statements that use them (`uses`), in every language whose data
//! names its declarations; real compilers judge where the point is what a
//! compiler refuses (a Go import with its only user, a C variable with its
//! only use), and a wrong guess of the name index costs a test and changes
//! nothing; a Java method returning one value made a field holding it
//! (`statement_values` with kept fields); a C++ template parameter
//! deleted with its argument in every use; and a Bash function called
//! once written out at its call, its pipeline split into commands
//! (`sequences`); a C++ member used by one access moved out of its class,
//! and a `for` loop cut down to its declaration and condition.

use crate::util::{Sandbox, assert_exit, assert_invariants, stats};

/// Runs the default pipeline on `input` (written as `name`) with the
/// oracle `check` (a shell script body; `$1` the candidate, `@SANDBOX@`
/// the sandbox's path), checks the invariants, and returns the result and
/// the stats of the first run.
pub(crate) fn reduce(name: &str, input: &str, check: &str) -> (String, serde_json::Value) {
    let sb = Sandbox::new();
    sb.write(name, input, false);
    let check = check.replace("@SANDBOX@", &sb.path().to_string_lossy());
    sb.write("check.sh", &format!("#!/bin/sh\n{check}\n"), true);
    let args = ["--timeout", "120", "--stats-json", "stats.json"];
    let mut all = args.to_vec();
    all.extend(["--oracle", "./check.sh", name, "-o", "out", "-q"]);
    let out = sb.reduce(&all);
    assert_exit(&out, 0);
    let s = stats(&sb, "stats.json");
    assert_invariants(&sb, "./check.sh", name, input.as_bytes(), "out", &args);
    let result = String::from_utf8(sb.read("out")).unwrap();
    (result, s)
}

/// The tests and successes of the phases named `name`, over all rounds.
pub(crate) fn phase(s: &serde_json::Value, name: &str) -> (u64, u64) {
    let phases: Vec<&serde_json::Value> = s["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["name"] == name)
        .collect();
    assert!(!phases.is_empty(), "no phase {name}: {s}");
    let sum = |key: &str| phases.iter().map(|p| p[key].as_u64().unwrap()).sum();
    (sum("tests"), sum("successes"))
}

/// A C++ unit shaped like a preprocessed libstdc++ one: many functions
/// nothing calls, with bodies, in a namespace, and the one class whose
/// deleted constructor the bug is about.
fn library_unit(functions: usize) -> String {
    let mut text = String::from("namespace lib {\n");
    for i in 0..functions {
        text += &format!(
            "  template <typename T> T helper_{i}(T a, T b) {{\n    T c = a + b;\n    \
             for (int k = 0; k < {i}; ++k) c = c * a - b;\n    return c;\n  }}\n"
        );
    }
    text +=
        "  struct Hash { Hash() = delete; };\n  template <typename T> struct Map { T t; };\n}\n";
    text += "int main() {\n  lib::Map<lib::Hash> m;\n  return 0;\n}\n";
    text
}

#[test]
fn a_cpp_unit_loses_its_function_bodies_and_unused_functions_in_a_few_tests() {
    let input = library_unit(40);
    let check = "LC_ALL=C g++ -std=c++17 -fsyntax-only -x c++ \"$1\" 2>&1 | \
                 grep -q \"use of deleted function\"";
    let (result, s) = reduce("unit.cpp", &input, check);
    // One test makes every body a declaration, a few more delete the 40
    // functions nothing calls.
    // The one body the bug needs (main's) is found by halving.
    let (tests, successes) = phase(&s, "bodies");
    assert!(successes >= 1 && tests <= 16, "bodies: {tests} tests");
    let (tests, successes) = phase(&s, "unused");
    assert!(successes >= 1 && tests <= 12, "unused: {tests} tests");
    assert!(!result.contains("helper_"), "{result}");
}

#[test]
#[cfg(feature = "go")]
fn a_go_import_goes_with_the_only_function_that_used_it() {
    // Go refuses an unused import and a use of a missing one, and the
    // oracle wants the one type error alone: the import `strings` and
    // `shout`, its only user, can only go together.
    let input = "package main\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\n\
                 func shout(s string) string { return strings.ToUpper(s) }\n\n\
                 func main() {\n\tvar n int = \"x\"\n\tfmt.Println(n)\n}\n";
    // The build cache is shared by the run's tests (in the sandbox).
    let check = "d=$(mktemp -d) && cp \"$1\" \"$d/main.go\" && cd \"$d\" && \
                 out=$(GOCACHE=@SANDBOX@/gocache GO111MODULE=off GOFLAGS= go build \
                 -o prog main.go 2>&1); rm -rf \"$d\"; echo \"$out\" | grep -q 'cannot use \"x\"' && \
                 [ \"$(echo \"$out\" | grep -c 'main.go:')\" -eq 1 ]";
    let (result, s) = reduce("main.go", input, check);
    assert!(
        !result.contains("strings") && !result.contains("shout"),
        "{result}"
    );
    let (_, successes) = phase(&s, "unused");
    assert!(successes >= 1, "{s}");
}

#[test]
fn a_variable_goes_with_its_use_where_neither_goes_alone() {
    // -Werror refuses a variable nothing uses and a use of an undeclared
    // one, so `x` and the statement that uses it go together (a needed
    // statement between them keeps the tree phase from deleting both as
    // one run of statements).
    let input = "void crash(void);\nint g(int);\n\
                 int main(void) {\n  int x = 5;\n  crash();\n  g(x);\n  return 0;\n}\n";
    let check = "gcc -c -x c -Werror=implicit-function-declaration -Werror=unused-variable \
                 \"$1\" -o \"${TMPDIR:-/tmp}/t.o\" 2>/dev/null && \
                 nm \"${TMPDIR:-/tmp}/t.o\" | grep -q ' U crash$'";
    let (result, s) = reduce("uses.c", input, check);
    assert!(!result.contains('x') && !result.contains('g'), "{result}");
    let (_, successes) = phase(&s, "uses");
    assert!(successes >= 1, "{s}");
}

#[test]
fn a_name_the_index_wrongly_takes_for_unused_costs_a_test_and_stays() {
    // `handler_one` is only ever named by token pasting, which the index
    // cannot see: deleting it is a wrong guess the compiler refuses.
    let input = "#define CALL(n) handler_##n()\n\
                 void crash(void);\n\
                 void handler_one(void) { crash(); }\n\
                 int main(void) { CALL(one); return 0; }\n";
    let check = "gcc -c -x c -Werror=implicit-function-declaration \"$1\" \
                 -o \"${TMPDIR:-/tmp}/t.o\" 2>/dev/null && \
                 nm \"${TMPDIR:-/tmp}/t.o\" | grep -q ' U crash$'";
    let (result, s) = reduce("paste.c", input, check);
    assert!(result.contains("handler_one"), "{result}");
    let (tests, successes) = phase(&s, "unused");
    assert!(tests > successes, "the wrong guess was tested: {s}");
}

#[test]
#[cfg(feature = "java")]
fn a_java_method_returning_one_value_becomes_a_field_holding_it() {
    // javac checks a field's initializer against the field's type as it
    // checks a return against the method's: `K first = entry();` keeps
    // the error without the method's parentheses, braces and `return`.
    let input = "class Box<K> {\n  K first() {\n    return entry();\n  }\n  \
                 static class Entry<K, V> {}\n  Entry<K, String> entry() {\n    \
                 return null;\n  }\n}\n";
    let check = javac_check(
        "Box.java",
        "incompatible types: Entry<K,String> cannot be converted to K",
    );
    let (result, _) = reduce("Box.java", input, &check);
    assert!(result.contains("= entry()"), "{result}");
    assert!(!result.contains("return entry"), "{result}");
}

#[test]
#[cfg(feature = "bash")]
fn a_bash_function_called_once_is_written_out_and_its_pipeline_split_into_commands() {
    // Bash reports the misspelled command and the pipeline's last command
    // exits 0. Neither the function nor its call goes alone, and dropping
    // `| uniq` alone leaves the status of the failing command.
    let input = "#!/usr/bin/env bash\nlist_definitions() {\n  { for d in \"$@\"; do\n      \
                 [ -d \"$d\" ] && ls \"$d\"\n    done\n  } | sort_version | uniq\n}\n\n\
                 list_definitions /\n";
    let check = "out=$(bash \"$1\" 2>&1 </dev/null) || exit 1\n\
                 echo \"$out\" | grep -q 'sort_version: command not found'";
    let (result, s) = reduce("defs.sh", input, check);
    assert!(!result.contains("list_definitions"), "{result}");
    assert!(!result.contains('|'), "{result}");
    let (_, successes) = phase(&s, "substitute");
    assert!(successes >= 1, "{s}");
}

#[test]
fn a_template_parameter_goes_with_the_argument_at_its_place_in_every_use() {
    // The error is in the template's instantiation. Deleting `int N`
    // alone leaves `holder<key, 3>` one argument too many, deleting `, 3`
    // alone one too few: only both at once keep it.
    let input = "template <typename T, int N> struct holder {\n  T value;\n  \
                 bool less(const holder &o) const { return value < o.value; }\n};\n\
                 struct key {};\nbool f(holder<key, 3> &a) { return a.less(a); }\n";
    let check = "out=$(LC_ALL=C g++ -std=c++17 -fsyntax-only -x c++ \"$1\" 2>&1)\n\
                 echo \"$out\" | grep -q 'In instantiation of' && \
                 echo \"$out\" | grep -q \"no match for 'operator<'\"";
    let (result, _) = reduce("holder.cpp", input, check);
    assert!(
        result.contains("template") && !result.contains(','),
        "{result}"
    );
}

#[test]
fn a_member_used_once_leaves_its_class_and_a_for_loop_becomes_its_statements() {
    // g++ reports the comparison when `sort` is instantiated with an
    // `item *`. The member `last` is mentioned by one access: moved out
    // of `list`, `entries.` goes, and then `list` and `entries`. The loop
    // needs only its declaration and condition.
    let input = "struct item {};\nstruct list {\n  item *last();\n  int size;\n};\n\
                 template <typename It> void sort(It a) {\n  for (It j = a; *j < j;) {\n  }\n}\n\
                 struct journal {\n  list entries;\n  void sort_all() { sort(entries.last()); }\n};\n";
    let check = "out=$(LC_ALL=C g++ -std=c++17 -fsyntax-only -x c++ \"$1\" 2>&1)\n\
                 echo \"$out\" | grep -q \"no match for 'operator<'\"";
    let (result, _) = reduce("journal.cpp", input, check);
    assert!(result.contains("last()"), "{result}");
    assert!(!result.contains(".last"), "{result}");
    assert!(!result.contains("for"), "{result}");
}

/// Per language: an input with a function and a variable nothing uses
/// beside what the bug needs, the needle a grep oracle looks for, and the
/// name that must go.
const LANGUAGES: &[(&str, &str, &str, &str)] = &[
    (
        "a.c",
        "int unused_fn(int a) { return a * 2; }\nint main(void) { return 7; }\n",
        "return 7",
        "unused_fn",
    ),
    (
        "a.rs",
        "fn unused_fn(a: i32) -> i32 { a * 2 }\nfn main() { println!(\"needle\"); }\n",
        "needle",
        "unused_fn",
    ),
    (
        "A.java",
        "class A {\n  static int unusedFn(int a) { return a * 2; }\n  \
         public static void main(String[] s) { System.out.println(\"needle\"); }\n}\n",
        "needle",
        "unusedFn",
    ),
    (
        "a.js",
        "function unusedFn(a) { return a * 2; }\nconsole.log(\"needle\");\n",
        "needle",
        "unusedFn",
    ),
    (
        "a.ts",
        "function unusedFn(a: number): number { return a * 2; }\nconsole.log(\"needle\");\n",
        "needle",
        "unusedFn",
    ),
    (
        "a.py",
        "def unused_fn(a):\n    return a * 2\n\nprint(\"needle\")\n",
        "needle",
        "unused_fn",
    ),
    (
        "a.go",
        "package main\n\nfunc unusedFn(a int) int { return a * 2 }\n\nfunc main() { println(\"needle\") }\n",
        "needle",
        "unusedFn",
    ),
    (
        "a.sh",
        "UNUSED_VAR=3\necho needle\n",
        "needle",
        "UNUSED_VAR",
    ),
];

#[test]
#[cfg(all(
    feature = "rust",
    feature = "java",
    feature = "javascript",
    feature = "typescript",
    feature = "python",
    feature = "go",
    feature = "bash"
))]
fn in_every_language_a_declaration_nothing_mentions_goes_in_the_unused_pass() {
    for &(name, input, needle, gone) in LANGUAGES {
        let check = format!("grep -q '{needle}' \"$1\"");
        let (result, s) = reduce(name, input, &check);
        assert!(!result.contains(gone), "{name}: {result}");
        let (_, successes) = phase(&s, "unused");
        assert!(successes >= 1, "{name}: the unused pass found nothing: {s}");
    }
}

/// An oracle body compiling the candidate as `class_file` with javac,
/// interesting when its output holds `expected`. javac starts from a
/// class-data archive the first run writes, as in
/// fixtures/java-incompatible/check.sh.
pub(crate) fn javac_check(class_file: &str, expected: &str) -> String {
    format!(
        "d=$(mktemp -d) || exit 2\ncp \"$1\" \"$d/{class_file}\"\n\
         jsa=@SANDBOX@/javac.jsa\n\
         if [ -f \"$jsa\" ]; then cds=-J-XX:SharedArchiveFile=$jsa; \
         else cds=-J-XX:ArchiveClassesAtExit=$d/javac.jsa; fi\n\
         out=$(cd \"$d\" && LC_ALL=C javac -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC \
         \"$cds\" -proc:none -d \"$d\" {class_file} 2>&1)\n\
         [ -f \"$d/javac.jsa\" ] && mv -f \"$d/javac.jsa\" \"$jsa\"\nrm -rf \"$d\"\n\
         echo \"$out\" | grep -q '{expected}'"
    )
}
