//! The `reduce` command: parses flags and hands over to the library.

fn main() {}
