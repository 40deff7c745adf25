//! The `adgen` command line (INTERFACE.md §2).

fn main() {}
