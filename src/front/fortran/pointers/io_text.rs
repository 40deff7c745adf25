//! I/O statements are kept as the source wrote them (`il::StmtKind::Io::text`): a
//! pointer replaced by its target is renamed in that text too (`rewriter`).

use std::collections::BTreeSet;

use super::rewriter::Rewriter;
use crate::il::{ExprKind, Stmt, StmtKind, key, visit};

impl Rewriter<'_> {
    /// An I/O statement is printed back as its source text: a pointer it names is
    /// written there as the whole variable or component it is associated with (`print
    /// *, old`, `print *, s%h`); a pointer to an element or a section is refused (the
    /// text is the source's).
    pub(super) fn io_text(&mut self, s: &mut Stmt) {
        let StmtKind::Io { text, reads, .. } = &mut s.kind else {
            return;
        };
        let mut named = BTreeSet::new();
        for e in reads.iter() {
            visit::walk_expr(e, &mut |x| {
                if let ExprKind::Var(n) | ExprKind::Index(n, _) | ExprKind::Call(n, _) = &x.kind {
                    let base = n.split('%').next().unwrap_or(n);
                    if self.pointers.contains(&key(base)) {
                        named.insert(key(base));
                    }
                }
            });
        }
        for p in named {
            match self.current.get(&p).map(|a| &a.target.kind) {
                Some(ExprKind::Var(t)) => {
                    *text = rename_in_text(text, &p, t);
                }
                // Not associated here: the walk refuses the use itself.
                None => {}
                Some(_) => {
                    self.fail(
                        s.span,
                        format!("the pointer `{p}` is written by this I/O statement, which adgen keeps as the source wrote it, but `{p}` is associated with an element or a section here"),
                        "write the target itself in the statement",
                    );
                    return;
                }
            }
        }
    }
}

/// `text` (a statement as the source wrote it) with the name `from` (a key) written as
/// `to` wherever it is a whole name: not inside a character literal, not part of a
/// longer name, not a component (after `%`), not a control keyword (`fmt=` of
/// `write(*, fmt=fmt) x`).
pub(in crate::front::fortran) fn rename_in_text(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    let mut k = 0;
    let mut after_percent = false;
    // Parenthesis depth, and whether the group open at depth 1 is the control list.
    let mut depth = 0usize;
    let mut control = false;
    let mut words_before = 0;
    let mut groups = 0;
    while k < chars.len() {
        let c = chars[k];
        match c {
            '(' => {
                depth += 1;
                if depth == 1 {
                    control = groups == 0 && words_before == 1;
                    groups += 1;
                }
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if c == '\'' || c == '"' {
            // A character literal, doubled quotes included.
            let start = k;
            k += 1;
            while k < chars.len() {
                if chars[k] == c {
                    if chars.get(k + 1) == Some(&c) {
                        k += 2;
                        continue;
                    }
                    break;
                }
                k += 1;
            }
            k = (k + 1).min(chars.len());
            out.extend(&chars[start..k]);
            after_percent = false;
            continue;
        }
        if c.is_ascii_alphabetic() {
            let start = k;
            while k < chars.len() && (chars[k].is_ascii_alphanumeric() || chars[k] == '_') {
                k += 1;
            }
            let word: String = chars[start..k].iter().collect();
            // In the control list (the statement's first parenthesized group, right
            // after its keyword), `word=` is a specifier.
            let mut rest = chars[k..].iter().filter(|c| !c.is_whitespace());
            let keyword = control
                && depth == 1
                && rest.next() == Some(&'=')
                && rest.next() != Some(&'=')
                && IO_KEYWORDS.contains(&word.to_ascii_lowercase().as_str());
            if !after_percent && !keyword && word.eq_ignore_ascii_case(from) {
                out.push_str(to);
            } else {
                out.push_str(&word);
            }
            if depth == 0 {
                words_before += 1;
            }
            after_percent = false;
            continue;
        }
        if !c.is_whitespace() {
            after_percent = c == '%';
        }
        out.push(c);
        k += 1;
    }
    out
}

/// The keywords of I/O control lists (Fortran 2018 §12.6.2, §12.5.6, §12.9): before
/// `=`, never a variable's name.
const IO_KEYWORDS: &[&str] = &[
    "unit",
    "fmt",
    "nml",
    "advance",
    "asynchronous",
    "blank",
    "decimal",
    "delim",
    "end",
    "eor",
    "err",
    "id",
    "iomsg",
    "iostat",
    "pad",
    "pos",
    "rec",
    "round",
    "sign",
    "size",
    "file",
    "status",
    "access",
    "form",
    "recl",
    "action",
    "position",
    "newunit",
    "encoding",
    "exist",
    "opened",
    "number",
    "named",
    "name",
];

#[cfg(test)]
mod tests {
    use super::rename_in_text;

    #[test]
    fn renames_whole_names_only() {
        assert_eq!(
            rename_in_text("print *, 'p1 = ', p1, p1x, s%p1, P1(2)", "p1", "a"),
            "print *, 'p1 = ', a, p1x, s%p1, a(2)"
        );
        assert_eq!(
            rename_in_text("write(*, \"(a)\") \"it's p\"\"\", p", "p", "q"),
            "write(*, \"(a)\") \"it's p\"\"\", q"
        );
        // A control keyword stays; its value and an implied-DO variable are renamed.
        assert_eq!(
            rename_in_text(
                "write(unit=unit, fmt=fmt) (a(unit), unit = 1, n)",
                "unit",
                "u_1"
            ),
            "write(unit=u_1, fmt=fmt) (a(u_1), u_1 = 1, n)"
        );
        assert_eq!(
            rename_in_text("if (fmt == 1) print *, fmt", "fmt", "f"),
            "if (f == 1) print *, f"
        );
    }
}
