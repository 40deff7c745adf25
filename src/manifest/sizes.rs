//! The `[sizes]` tables: the extents of assumed-size array arguments, by procedure
//! (`[sizes.sq]` then `y = "n"`), checked for form here and against the sources in
//! `prepare::sizes`.

use super::*;
use crate::request::{SizeExpr, SizeHint};

/// A `[sizes]` entry that is not a table of strings, or whose expression does not parse.
pub const E_BAD_SIZE: &str = "E0118";

impl<'a> Checker<'a> {
    pub(super) fn sizes(&mut self, document: &DeTable<'_>) -> Vec<SizeHint> {
        let mut hints = Vec::new();
        let Some(value) = document.get("sizes") else {
            return hints;
        };
        let DeValue::Table(procedures) = value.get_ref() else {
            self.error(
                E_TYPE,
                value.span(),
                "`sizes` must be a table of tables: `[sizes.procedure]`".into(),
            );
            return hints;
        };
        for (procedure_key, arguments) in procedures.iter() {
            let procedure = procedure_key.get_ref().as_ref();
            let DeValue::Table(arguments) = arguments.get_ref() else {
                self.error(
                    E_TYPE,
                    arguments.span(),
                    format!("`sizes.{procedure}` must be a table: `[sizes.{procedure}]`"),
                )
                .help = Some("then one line per array argument: `y = \"n\"`".into());
                continue;
            };
            if let Err(e) = check_identifier(procedure) {
                self.error(
                    E_BAD_NAME,
                    procedure_key.span(),
                    format!("`sizes.{procedure}`: procedure name {e}"),
                );
                continue;
            }
            for (argument, size) in arguments.iter() {
                let argument = argument.get_ref().as_ref();
                let key = format!("sizes.{procedure}.{argument}");
                // A string, or for an array of row pointers (`double **a`) two: the
                // number of rows and the length of a row.
                let texts: Vec<&str> = match size.get_ref() {
                    DeValue::String(text) => vec![text.as_ref()],
                    DeValue::Array(items) if items.len() == 2 => items
                        .iter()
                        .filter_map(|i| match i.get_ref() {
                            DeValue::String(t) => Some(t.as_ref()),
                            _ => None,
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                if texts.is_empty()
                    || matches!(size.get_ref(), DeValue::Array(a) if a.len() != texts.len())
                {
                    self.error(
                        E_TYPE,
                        size.span(),
                        format!(
                            "`{key}` must be a string such as \"n\" (or, for a `double **` \
                             matrix, its rows and row length: [\"n\", \"m\"])"
                        ),
                    );
                    continue;
                }
                if let Err(e) = check_identifier(argument) {
                    self.error(
                        E_BAD_NAME,
                        size.span(),
                        format!("`{key}`: argument name {e}"),
                    );
                    continue;
                }
                let mut parsed = Vec::new();
                for text in &texts {
                    match SizeExpr::parse(text) {
                        Ok(expr) => parsed.push(expr),
                        Err(e) => {
                            self.error(
                                E_BAD_SIZE,
                                size.span(),
                                format!("`{key}` = \"{text}\" is not a size: {e}"),
                            )
                            .help = Some(
                                "write the number of elements with integers, the procedure's \
                                 integer arguments and + - * / ( )"
                                    .into(),
                            );
                        }
                    }
                }
                if parsed.len() != texts.len() {
                    continue;
                }
                let mut parsed = parsed.into_iter();
                let (line, col) = self.file.line_col(size.span().start as u32);
                hints.push(SizeHint {
                    procedure: procedure.to_string(),
                    argument: argument.to_string(),
                    size: parsed.next().expect("one size at least"),
                    row_length: parsed.next(),
                    origin: Some((self.file.display_path.clone(), line, col)),
                });
            }
        }
        hints
    }
}
