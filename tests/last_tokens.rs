//! The last tokens of a language, through the binary with its real
//! interpreter or compiler: the characters inside a literal (`interiors`),
//! a constructor's or method's parameters deleted with the arguments
//! every call passes (`positional_lists` with `constructor`, `method`), a
//! function
//! called where it is written given way to its body (`immediate_calls`),
//! a Rust struct made a unit struct (`replacements`), and a Java method
//! given way to an initializer block holding its statement.

use crate::names::{javac_check, phase, reduce};

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

#[test]
#[cfg(feature = "python")]
fn a_python_constructors_parameters_go_with_the_arguments_of_its_calls() {
    let input = r#"import math


class Point:
    """A point in the plane."""

    def __init__(self, x, y, label):
        self.x = x
        self.label = label

    def norm(self):
        return self.x.bit_length()

    def describe(self):
        return "%s at %s" % (self.label, self.x)


def main():
    p = Point(3.5, 4, "origin")
    print(p.describe())
    print(p.norm() + math.floor(2.5))


main()
"#;
    let check = r#"python3 "$1" 2>&1 | grep -q "AttributeError: 'float' object has no attribute 'bit_length'""#;
    let (out, _) = reduce("point.py", input, check);
    // Python checks a call's arguments against the parameters: `y` and
    // `label` go only with the arguments at their places.
    assert!(out.contains("def __init__(self, x):"), "{out}");
    assert!(out.contains("Point(3.5)"), "{out}");
}

#[test]
#[cfg(feature = "javascript")]
fn a_function_called_where_it_is_written_gives_way_to_its_body() {
    // `substitute` writes `helper`'s value at its one call, which leaves
    // `(function (items) { ... })(2)` for the unwrap.
    let input = r#"const helper = function (items, factor) {
  const total = items.length * factor;
  return total.toUpperCase();
};

const run = () => {
  const data = [1, 2, 3];
  console.log("start");
  return helper(data, 2);
};

run();
"#;
    let check = r#"node "$1" 2>&1 | grep -q "TypeError: total.toUpperCase is not a function""#;
    let (out, _) = reduce("helper.js", input, check);
    assert!(!out.contains("function") && !out.contains("=>"), "{out}");
    assert!(out.contains("toUpperCase"), "{out}");
}

#[test]
#[cfg(feature = "rust")]
fn a_rust_struct_whose_value_alone_matters_becomes_a_unit_struct() {
    let input = r#"struct Square {
    side: f64,
}

impl Square {
    fn new(side: f64) -> Self {
        Square { side }
    }

    fn area(&self) -> f64 {
        self.side * self.side
    }
}

fn main() {
    let s = Square::new(2.0);
    let t: u32 = s;
    println!("{}", t + s.area() as u32);
}
"#;
    // rustc writes its output beside its input, in a directory of its own.
    let check = r#"d=$(mktemp -d) && cp "$1" "$d/t.rs" && cd "$d" &&
rustc --edition 2021 --emit=metadata t.rs 2>&1 | grep -q 'expected `u32`, found `Square`'
r=$?; rm -rf "$d"; exit $r"#;
    let (out, _) = reduce("square.rs", input, check);
    // `struct Square {}` and `Square::new()` kept a constructor alive.
    assert!(out.contains("struct Square;"), "{out}");
    assert!(!out.contains("new") && !out.contains("impl"), "{out}");
}

#[test]
#[cfg(feature = "java")]
fn a_java_method_holding_the_error_becomes_an_initializer_block() {
    let input = "import java.util.List;\n\npublic class Report {\n    private int count;\n\n    \
                 public void render(List<String> lines) {\n        String title = 42;\n        \
                 lines.add(title);\n    }\n\n    public int getCount() {\n        \
                 return count;\n    }\n}\n";
    let check = javac_check(
        "Report.java",
        "incompatible types: int cannot be converted to String",
    );
    let (out, _) = reduce("Report.java", input, &check);
    // `{ String title = 0; }` in the class: no name, type or parameters.
    assert!(!out.contains("render") && !out.contains("void"), "{out}");
    assert!(out.contains("String title ="), "{out}");
}

#[test]
#[cfg(feature = "python")]
fn a_python_methods_parameter_goes_with_the_argument_of_its_call() {
    let input = "class Cache:\n    def __init__(self):\n        self.items = {}\n\n    \
                 def put(self, key, value, ttl):\n        self.items[key] = value + ttl\n\n\n\
                 cache = Cache()\ncache.put(\"session\", \"token\", 30)\n";
    let check =
        r#"python3 "$1" 2>&1 | grep -q 'TypeError: can only concatenate str (not "int") to str'"#;
    let (out, _) = reduce("cache.py", input, check);
    // `self` is passed by no call; `key` goes with `"session"`.
    assert!(out.contains("def put(self, value, ttl):"), "{out}");
    assert!(!out.contains("key"), "{out}");
}
