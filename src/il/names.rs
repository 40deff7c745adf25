//! Naming (INTERFACE.md §3): derivative names by suffix, and fresh names for
//! temporaries, unique in their unit; a clash gets `0`, then `1`, ... appended.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::il::key;

/// Written before each capital letter of a name whose case matters (see the module
/// doc); a private-use character, which no source text holds.
pub const CASE_MARK: char = '\u{E000}';

/// `name` with [`CASE_MARK`] before each capital letter: its [`key`] then differs from
/// that of every other spelling.
pub fn cased(name: &str) -> String {
    if !name.bytes().any(|b| b.is_ascii_uppercase()) {
        return name.to_string();
    }
    let mut out = String::with_capacity(name.len() + 8);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push(CASE_MARK);
        }
        out.push(c);
    }
    out
}

/// `text` without the marks of [`cased`]: a name (or a whole text) as the user wrote it.
pub fn spelled(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains(CASE_MARK) {
        std::borrow::Cow::Owned(text.replace(CASE_MARK, ""))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// The names taken in one generated unit.
#[derive(Clone, Debug, Default)]
pub struct Namer {
    taken: BTreeSet<String>,
    /// Names (keys) taken in every scope of a run, such as the program's procedures:
    /// shared, so that a namer per unit costs what the unit holds, not the program.
    shared: Arc<BTreeSet<String>>,
}

impl Namer {
    pub fn new<'a>(taken: impl IntoIterator<Item = &'a str>) -> Namer {
        Namer {
            taken: taken.into_iter().map(key).collect(),
            shared: Arc::default(),
        }
    }
    /// A namer that also avoids the `shared` keys (see [`Namer::shared_keys`]).
    pub fn with_shared<'a>(
        shared: &Arc<BTreeSet<String>>,
        taken: impl IntoIterator<Item = &'a str>,
    ) -> Namer {
        Namer {
            shared: Arc::clone(shared),
            ..Namer::new(taken)
        }
    }
    /// The keys of `names`, for [`Namer::with_shared`].
    pub fn shared_keys<'a>(names: impl IntoIterator<Item = &'a str>) -> Arc<BTreeSet<String>> {
        Arc::new(names.into_iter().map(key).collect())
    }
    pub fn reserve(&mut self, name: &str) {
        let k = key(name);
        if !self.shared.contains(&k) {
            self.taken.insert(k);
        }
    }
    pub fn is_taken(&self, name: &str) -> bool {
        let k = crate::il::key_ref(name);
        self.taken.contains(k.as_ref()) || self.shared.contains(k.as_ref())
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
