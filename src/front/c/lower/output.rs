//! Output and program exit in C (`fprintf(stderr, "...", n); exit(1);`, the way C codes
//! report a bad argument): kept as written, as the IL's `Io` statement keeps Fortran's
//! PRINT and STOP. Never differentiated; `prepare::io` keeps a message where the code
//! stops the program and drops the others from derivative code, and `exit` stops it.
//! The text ends with its `;`, which tells the C back-end to print it as code.

use lang_c::ast::*;
use lang_c::span::Node;

use super::*;
use crate::il::{Expr, Stmt, StmtKind};

/// The `<stdio.h>` and `<stdlib.h>` functions kept as written.
pub(super) fn is_output_or_exit(name: &str) -> bool {
    matches!(
        name,
        "printf" | "fprintf" | "puts" | "fputs" | "putchar" | "fflush" | "exit"
    )
}

impl FnCx<'_, '_> {
    /// `printf(...)`, `fprintf(stderr, ...)`, `exit(n)`, ... as a statement: an `Io`
    /// statement holding its text, reading the numeric variables it names.
    pub(super) fn output_stmt(
        &mut self,
        name: &str,
        e: &Node<Expression>,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        // The call as written: from its name to the parenthesis that closes its
        // arguments (a macro such as `stderr` may stand in the line, so the end of the
        // preprocessed span does not locate it).
        let text = match self
            .original(e.span.start)
            .and_then(|a| call_text(self.text, a))
        {
            Some(t) => t,
            None => {
                return Err(self.unsupported(
                    "E0604",
                    &format!("this `{name}` (written through a macro)"),
                    e.span,
                ));
            }
        };
        // Derivative code has the call's text but not the file's macros, nor a declaration
        // of a function called in it: every name in it must be one the generated file
        // knows (a variable, `math.h`, the standard streams). The numeric variables are
        // what the statement reads.
        let mut reads = Vec::new();
        for word in words_outside_literals(&text) {
            let il_name = crate::il::names::cased(&word);
            let var = self
                .vars
                .get(crate::il::key_ref(&il_name).as_ref())
                .filter(|v| v.name == il_name);
            if let Some(v) = var.filter(|v| v.ty.is_numeric()) {
                reads.push(Expr::var(&v.name));
            }
            let known = var.is_some()
                || word == name
                || matches!(
                    word.as_str(),
                    "stderr" | "stdout" | "EXIT_FAILURE" | "EXIT_SUCCESS"
                )
                || math(&word).is_some();
            if !known {
                return Err(self.unsupported(
                    "E0604",
                    &format!(
                        "`{word}` in this `{name}` (a macro or a name the generated code \
                         would not know)"
                    ),
                    e.span,
                ));
            }
        }
        let st = self.stmt(
            StmtKind::Io {
                text: format!("{};", text.trim_end()),
                reads,
                writes: Vec::new(),
                stops: name == "exit",
            },
            e.span,
        );
        out.push(st);
        Ok(())
    }
}

/// The text of the call that starts at byte `start` of `text`: up to the parenthesis that
/// closes its argument list, string and character literals skipped.
fn call_text(text: &str, start: usize) -> Option<String> {
    let bytes = text.as_bytes();
    let open = start + text.get(start..)?.find('(')?;
    let mut depth = 0usize;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(text[start..=i].to_string());
                }
            }
            quote @ (b'"' | b'\'') => {
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b';' | b'{' | b'}' => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// The identifiers of a call's text, outside string and character literals (numbers such
/// as `1e-3` are not identifiers).
fn words_outside_literals(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'"' || c == b'\'' {
            i += 1;
            while i < bytes.len() && bytes[i] != c {
                if bytes[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
        } else if c.is_ascii_digit() || c == b'.' {
            // A number, exponent and suffix included.
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let w = &text[start..i];
            if !out.iter().any(|o| o == w) {
                out.push(w.to_string());
            }
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn words_skip_literals_and_numbers() {
        assert_eq!(
            super::words_outside_literals("fprintf(stderr, \"N = %d x\", n, 1e-3, 'q', MSG)"),
            ["fprintf", "stderr", "n", "MSG"]
        );
    }

    #[test]
    fn a_call_ends_at_its_closing_parenthesis() {
        let t = "  fprintf ( stderr, \"a) \\\" (\\n\", f(n) ); x = 1;";
        assert_eq!(
            super::call_text(t, 2).as_deref(),
            Some("fprintf ( stderr, \"a) \\\" (\\n\", f(n) )")
        );
        assert_eq!(super::call_text("exit(1", 0), None);
    }
}
