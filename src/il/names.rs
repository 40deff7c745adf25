//! Naming (INTERFACE.md §3): derivative names by suffix, and fresh names for
//! temporaries, unique in their unit; a clash gets `0`, then `1`, ... appended.

use std::collections::BTreeSet;

use crate::il::key;

/// The names taken in one generated unit.
#[derive(Clone, Debug, Default)]
pub struct Namer {
    taken: BTreeSet<String>,
}

impl Namer {
    pub fn new<'a>(taken: impl IntoIterator<Item = &'a str>) -> Namer {
        Namer {
            taken: taken.into_iter().map(key).collect(),
        }
    }
    pub fn reserve(&mut self, name: &str) {
        self.taken.insert(key(name));
    }
    pub fn is_taken(&self, name: &str) -> bool {
        self.taken.contains(&key(name))
    }
    /// `base` if free, else `base0`, `base1`, ...; the name is then taken.
    pub fn fresh(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        let mut i = 0;
        while self.is_taken(&name) {
            name = format!("{base}{i}");
            i += 1;
        }
        self.reserve(&name);
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clashes_get_digits() {
        let mut n = Namer::new(["x", "xd", "XD0"]);
        assert_eq!(n.fresh("xd"), "xd1");
        assert_eq!(n.fresh("yd"), "yd");
        assert_eq!(n.fresh("yd"), "yd0");
    }
}
