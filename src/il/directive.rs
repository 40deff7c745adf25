//! `$AD` directives (INTERFACE.md §6, Tapenade's spelling) in the comments the
//! front-ends keep: the text after the comment marker, `$AD NAME args`. Read here so
//! that the stage that checks them (`prepare::directives`) and the stages that honour
//! them agree on which statement each one stands before.

use std::collections::BTreeMap;

use super::{Stmt, StmtId, StmtKind, visit};
use crate::diag::Span;

/// One directive: its name in upper case and the words after it, and where its comment
/// is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    pub name: String,
    pub args: Vec<String>,
    pub span: Span,
}

/// The directive a comment's text holds, if any: `$AD` (any case) followed by a blank
/// or the end (`$ADX` is not one). A directive without a name has an empty name.
pub fn parse(text: &str) -> Option<Directive> {
    let trimmed = text.trim_start();
    let rest = trimmed
        .get(..3)
        .filter(|head| head.eq_ignore_ascii_case("$ad"))
        .map(|_| &trimmed[3..])?;
    if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
        return None;
    }
    // A C comment's closing `*/` is not part of it.
    let rest = rest.trim_end().trim_end_matches("*/");
    let mut words = rest.split_whitespace();
    let name = words.next().unwrap_or("").to_ascii_uppercase();
    Some(Directive {
        name,
        args: words.map(str::to_string).collect(),
        span: Span::default(),
    })
}

/// The statement each directive named `name` stands before, in every block of `body`:
/// the next statement of its block that is not a comment, by id, with the directive.
/// A directive with no statement after it in its block stands before nothing.
pub fn targets(body: &[Stmt], name: &str) -> BTreeMap<StmtId, Directive> {
    let mut out = BTreeMap::new();
    collect(body, name, &mut out);
    out
}

fn collect(block: &[Stmt], name: &str, out: &mut BTreeMap<StmtId, Directive>) {
    let mut pending: Option<Directive> = None;
    for s in block {
        if let StmtKind::Comment(text) = &s.kind {
            if let Some(mut d) = parse(text).filter(|d| d.name == name) {
                d.span = s.span;
                pending = Some(d);
            }
            continue;
        }
        if let Some(d) = pending.take() {
            out.insert(s.id, d);
        }
        for inner in visit::child_blocks(s) {
            collect(inner, name, out);
        }
    }
}

/// The regions of one block that `CHECKPOINT-START` and `CHECKPOINT-END` comments
/// enclose, by index of the two comments: each START with the next END of the block,
/// when no other START comes between (regions do not nest).
pub fn regions(block: &[Stmt]) -> Vec<(usize, usize)> {
    let name_at = |i: usize| match &block[i].kind {
        StmtKind::Comment(text) => parse(text).map(|d| d.name),
        _ => None,
    };
    let mut out = Vec::new();
    let mut open: Option<usize> = None;
    for i in 0..block.len() {
        match name_at(i).as_deref() {
            Some("CHECKPOINT-START") => open = Some(i),
            Some("CHECKPOINT-END") => {
                if let Some(start) = open.take() {
                    out.push((start, i));
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::il::Expr;

    #[test]
    fn directives_are_read_from_comment_text() {
        let d = parse("$AD BINOMIAL-CKP 100 5 1").expect("a directive");
        assert_eq!(d.name, "BINOMIAL-CKP");
        assert_eq!(d.args, ["100", "5", "1"]);
        assert_eq!(parse(" $ad fp-loop */").expect("C comment").name, "FP-LOOP");
        assert_eq!(parse("$AD").expect("no name").name, "");
        assert!(parse("$ADX").is_none());
        assert!(parse("$omp parallel do").is_none());
        assert!(parse("plain comment").is_none());
    }

    #[test]
    fn a_directive_stands_before_the_next_statement_of_its_block() {
        let comment = |t: &str| {
            let mut s = Stmt::generated(StmtKind::Comment(t.to_string()));
            s.id = StmtId(1);
            s
        };
        let mut inner = Stmt::generated(StmtKind::Continue);
        inner.id = StmtId(4);
        let mut lp = Stmt::generated(StmtKind::Do {
            var: "i".into(),
            start: Box::new(Expr::int(1)),
            end: Box::new(Expr::int(2)),
            step: None,
            body: vec![comment("$AD BINOMIAL-CKP"), inner],
            name: None,
        });
        lp.id = StmtId(3);
        let body = vec![comment("$AD BINOMIAL-CKP 10 3"), comment(" note"), lp];
        let found = targets(&body, "BINOMIAL-CKP");
        assert_eq!(
            found.keys().copied().collect::<Vec<_>>(),
            [StmtId(3), StmtId(4)]
        );
        assert_eq!(found[&StmtId(3)].args, ["10", "3"]);
        // Regions: a START with the next END; a START left open, or reopened, has none.
        let block = vec![
            comment("$AD CHECKPOINT-START"),
            comment("$AD CHECKPOINT-START"),
            comment(" x"),
            comment("$AD CHECKPOINT-END"),
            comment("$AD CHECKPOINT-END"),
            comment("$AD CHECKPOINT-START"),
        ];
        assert_eq!(regions(&block), [(1, 3)]);
        // A directive at the end of its block stands before nothing.
        let trailing = vec![comment("$AD BINOMIAL-CKP")];
        assert!(targets(&trailing, "BINOMIAL-CKP").is_empty());
    }
}
