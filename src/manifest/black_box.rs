//! The `[black-box]` tables: procedures whose derivatives the user writes by hand, as
//! Tapenade's black-box library files describe them (seeds/004 §6.2: which arguments each
//! output depends on, and the derivative to call). Checked for form here and against the
//! sources in `prepare::black_box`.
//!
//! ```toml
//! [black-box.solve]
//! arguments = ["n", "a", "b", "x"]   # the dummy arguments, in order
//! depends = { x = ["a", "b"] }       # what it overwrites, and from which inputs
//! tangent = "solve_d"                # optional: the user's derivatives' names
//! adjoint = "solve_b"
//! ```

use super::*;
use crate::request::BlackBox;

/// A `[black-box]` table that is malformed or names what its `arguments` do not hold.
pub const E_BAD_BLACK_BOX: &str = "E0128";

const KEYS: [&str; 4] = ["arguments", "depends", "tangent", "adjoint"];

impl<'a> Checker<'a> {
    pub(super) fn black_boxes(&mut self, document: &DeTable<'_>) -> Vec<BlackBox> {
        let mut out = Vec::new();
        let Some(value) = document.get("black-box") else {
            return out;
        };
        let DeValue::Table(procedures) = value.get_ref() else {
            self.error(
                E_TYPE,
                value.span(),
                "`black-box` must be a table of tables: `[black-box.procedure]`".into(),
            );
            return out;
        };
        for (procedure_key, table) in procedures.iter() {
            let name = procedure_key.get_ref().as_ref();
            let prefix = format!("black-box.{name}");
            let DeValue::Table(table) = table.get_ref() else {
                self.error(
                    E_TYPE,
                    table.span(),
                    format!("`{prefix}` must be a table: `[{prefix}]`"),
                )
                .help = Some("then `arguments = [...]` and `depends = { ... }`".into());
                continue;
            };
            if let Err(e) = check_identifier(name) {
                self.error(
                    E_BAD_NAME,
                    procedure_key.span(),
                    format!("`{prefix}`: procedure name {e}"),
                );
                continue;
            }
            if let Some(b) = self.black_box(name, &prefix, procedure_key.span(), table) {
                out.push(b);
            }
        }
        out
    }

    fn black_box(
        &mut self,
        name: &str,
        prefix: &str,
        span: Range<usize>,
        table: &DeTable<'_>,
    ) -> Option<BlackBox> {
        let origin = span.start;
        // Whether the table is good is whether this added a diagnostic.
        let reported = self.diagnostics.len();
        for (key, _) in table.iter() {
            let k = key.get_ref().as_ref();
            if !KEYS.contains(&k) {
                let help = suggestion_help(k, &KEYS);
                self.error(
                    E_UNKNOWN_KEY,
                    key.span(),
                    format!("unknown key `{prefix}.{k}`"),
                )
                .help = Some(help);
            }
        }
        let mut arguments: Vec<String> = Vec::new();
        let before_arguments = self.diagnostics.len();
        match table.get("arguments") {
            None => {
                self.error(
                    E_MISSING,
                    span.clone(),
                    format!("`{prefix}` has no `arguments`"),
                )
                .help = Some(
                    "list the procedure's dummy arguments in order: `arguments = [\"n\", \"x\"]` \
                     (`[]` for none)"
                        .into(),
                );
            }
            Some(v) => {
                for (n, s) in self
                    .names(v, &format!("{prefix}.arguments"))
                    .unwrap_or_default()
                {
                    if arguments.iter().any(|a| a.eq_ignore_ascii_case(&n)) {
                        self.error(
                            E_BAD_BLACK_BOX,
                            s,
                            format!("`{prefix}.arguments` names `{n}` twice"),
                        );
                    }
                    arguments.push(n);
                }
            }
        }
        // `depends` is checked against `arguments` only when those were read.
        let arguments_ok = self.diagnostics.len() == before_arguments;
        let mut depends = Vec::new();
        match table.get("depends").map(|v| (v.get_ref(), v.span())) {
            None => {
                self.error(E_MISSING, span, format!("`{prefix}` has no `depends`"))
                    .help = Some(
                    "give each argument it overwrites and the inputs its new value depends on: \
                     `depends = { y = [\"x\"] }` (`{}` when it overwrites nothing real)"
                        .into(),
                );
            }
            Some((DeValue::Table(outputs), _)) => {
                for (out_key, inputs) in outputs.iter() {
                    let out = out_key.get_ref().as_ref().to_string();
                    let known = |n: &str| {
                        arguments.iter().any(|a| a.eq_ignore_ascii_case(n))
                            || n.eq_ignore_ascii_case(name)
                    };
                    if arguments_ok && !known(&out) {
                        self.unknown_argument(prefix, &out, out_key.span(), &arguments);
                    }
                    let Some(ins) = self.names(inputs, &format!("{prefix}.depends.{out}")) else {
                        continue;
                    };
                    let mut list = Vec::new();
                    for (n, s) in ins {
                        if arguments_ok && !arguments.iter().any(|a| a.eq_ignore_ascii_case(&n)) {
                            self.unknown_argument(prefix, &n, s, &arguments);
                        }
                        list.push(n);
                    }
                    depends.push((out, list));
                }
            }
            Some((_, s)) => {
                self.error(
                    E_TYPE,
                    s,
                    format!("`{prefix}.depends` must be a table such as `{{ y = [\"x\"] }}`"),
                );
            }
        }
        let mut names = [None, None];
        for (slot, key) in names.iter_mut().zip(["tangent", "adjoint"]) {
            let Some(v) = table.get(key) else { continue };
            let DeValue::String(text) = v.get_ref() else {
                self.error(
                    E_TYPE,
                    v.span(),
                    format!("`{prefix}.{key}` must be a procedure name in quotes"),
                );
                continue;
            };
            if let Err(e) = check_identifier(text) {
                self.error(E_BAD_NAME, v.span(), format!("`{prefix}.{key}`: {e}"));
                continue;
            }
            *slot = Some(text.to_string());
        }
        if self.diagnostics.len() != reported {
            return None;
        }
        let (line, col) = self.file.line_col(origin as u32);
        let [tangent, adjoint] = names;
        Some(BlackBox {
            name: name.to_string(),
            arguments,
            depends,
            tangent,
            adjoint,
            origin: Some((self.file.display_path.clone(), line, col)),
        })
    }

    /// A list of identifiers, with the span of each; `None` after reporting what is wrong.
    fn names(
        &mut self,
        value: &toml::Spanned<DeValue<'_>>,
        key: &str,
    ) -> Option<Vec<(String, Range<usize>)>> {
        let DeValue::Array(items) = value.get_ref() else {
            self.error(
                E_TYPE,
                value.span(),
                format!("`{key}` must be a list of names such as [\"x\", \"y\"]"),
            );
            return None;
        };
        let mut out = Vec::new();
        let mut ok = true;
        for item in items {
            let DeValue::String(text) = item.get_ref() else {
                self.error(
                    E_TYPE,
                    item.span(),
                    format!("`{key}`: expected a name in quotes"),
                );
                ok = false;
                continue;
            };
            if let Err(e) = check_identifier(text) {
                self.error(E_BAD_NAME, item.span(), format!("`{key}`: {e}"));
                ok = false;
                continue;
            }
            out.push((text.to_string(), item.span()));
        }
        ok.then_some(out)
    }

    fn unknown_argument(
        &mut self,
        prefix: &str,
        n: &str,
        span: Range<usize>,
        arguments: &[String],
    ) {
        let known: Vec<&str> = arguments.iter().map(String::as_str).collect();
        self.error(
            E_BAD_BLACK_BOX,
            span,
            format!("`{prefix}.depends` names `{n}`, which is not among its `arguments`"),
        )
        .help = Some(suggestion_help(n, &known));
    }
}
