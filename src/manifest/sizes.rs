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
                let DeValue::String(text) = size.get_ref() else {
                    self.error(
                        E_TYPE,
                        size.span(),
                        format!("`{key}` must be a string such as \"n\""),
                    );
                    continue;
                };
                if let Err(e) = check_identifier(argument) {
                    self.error(
                        E_BAD_NAME,
                        size.span(),
                        format!("`{key}`: argument name {e}"),
                    );
                    continue;
                }
                match SizeExpr::parse(text) {
                    Ok(expr) => {
                        let (line, col) = self.file.line_col(size.span().start as u32);
                        hints.push(SizeHint {
                            procedure: procedure.to_string(),
                            argument: argument.to_string(),
                            size: expr,
                            origin: Some((self.file.display_path.clone(), line, col)),
                        });
                    }
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
        }
        hints
    }
}
