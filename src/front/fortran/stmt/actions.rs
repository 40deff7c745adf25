//! Action statements other than assignment: CALL, NULLIFY, ALLOCATE and DEALLOCATE,
//! RETURN, CONTINUE, EXIT and CYCLE (kept apart to keep `line` readable).

use super::*;

impl StmtParser<'_> {
    pub fn action_keyword(&self, c: &mut Cursor, lower: &str) -> PResult<Option<StmtKind>> {
        let kind = match lower {
            "call" => {
                let start = c.pos;
                let (mut name, _) = c.expect_ident("the name of the subroutine to call")?;
                let mut args = if c.is(&TokKind::LParen) {
                    parse_args(c)?.0
                } else {
                    Vec::new()
                };
                // Through a type-bound procedure: `call m%advance(dt)`, `call
                // cells(i)%update()`; `sema` finds the procedure.
                if c.is(&TokKind::Percent) {
                    c.pos = start;
                    let designator = crate::front::fortran::expr::parse_expr(c)?;
                    (name, args) = match designator.kind {
                        crate::il::ExprKind::Var(n) => (n, Vec::new()),
                        crate::il::ExprKind::Call(n, a) => (n, a),
                        _ => return Err(c.expected("a subroutine or a type-bound procedure")),
                    };
                }
                c.expect_end()?;
                StmtKind::Call { name, args }
            }
            // `NULLIFY(p, s%q)`: kept as a call, which `front::fortran::pointers` takes
            // for `=> null()` of a pointer it replaces by its targets, and `sema` for
            // freeing a pointer read as ALLOCATABLE.
            "nullify" => {
                let at = c.here();
                let (args, _) = parse_args(c)?;
                c.expect_end()?;
                let variable = |a: &crate::il::Arg| {
                    a.keyword.is_none() && matches!(&a.value.kind, crate::il::ExprKind::Var(_))
                };
                if args.is_empty() || !args.iter().all(variable) {
                    return Err(Diagnostic::error(
                        "E0401",
                        "unsupported statement: NULLIFY of something other than a pointer variable or component",
                    )
                    .at(at)
                    .with_help("NULLIFY is followed only for POINTER variables and components, named whole"));
                }
                StmtKind::Call {
                    name: "nullify".to_string(),
                    args,
                }
            }
            "allocate" | "deallocate" => {
                let (args, _) = parse_args(c)?;
                c.expect_end()?;
                // One array and its SOURCE= or MOLD=: bounds taken from that array.
                if let [item, from] = args.as_slice()
                    && lower == "allocate"
                    && item.keyword.is_none()
                    && matches!(item.value.kind, crate::il::ExprKind::Var(_))
                    && let Some(kw) = from.keyword.as_deref().map(str::to_ascii_lowercase)
                    && (kw == "source" || kw == "mold")
                {
                    self.sourced
                        .borrow_mut()
                        .insert(item.value.span, (kw == "source", from.value.clone()));
                    return Ok(Some(StmtKind::Allocate(vec![item.value.clone()])));
                }
                // STAT= and ERRMSG=: adgen's code stops where an allocation fails, so
                // the status is zero wherever it goes on (set after the statement,
                // `allocate_source::expand_status`) and the message is never written.
                let mut args = args;
                let mut status = None;
                args.retain(
                    |a| match a.keyword.as_deref().map(str::to_ascii_lowercase) {
                        Some(k) if k == "stat" => {
                            status = Some(a.value.clone());
                            false
                        }
                        Some(k) => k != "errmsg",
                        None => true,
                    },
                );
                if let (Some(stat), Some(first)) = (status, args.first()) {
                    self.status.borrow_mut().insert(first.value.span, stat);
                }
                if let Some(kw) = args.iter().find_map(|a| a.keyword.clone()) {
                    let named = |a: &crate::il::Arg| match &a.value.kind {
                        crate::il::ExprKind::Var(n) => Some(n.clone()),
                        _ => None,
                    };
                    let item = args.iter().find(|a| a.keyword.is_none()).and_then(named);
                    let source = args
                        .iter()
                        .find(|a| a.keyword.as_deref() == Some(kw.as_str()))
                        .and_then(named);
                    let help = match (kw.to_ascii_lowercase().as_str(), item, source) {
                        ("source", Some(w), Some(x)) => format!(
                            "give the bounds and assign: `allocate({w}(lbound({x}, 1):ubound({x}, 1)))` then `{w} = {x}` (one pair of bounds per dimension)"
                        ),
                        ("source" | "mold", ..) => {
                            "give the bounds, from LBOUND and UBOUND of the array (and assign it, for SOURCE=)".to_string()
                        }
                        _ => "remove it: adgen's code stops on an allocation failure anyway".to_string(),
                    };
                    return Err(Diagnostic::error(
                        "E0404",
                        format!(
                            "`{kw}=` in {} is not supported yet",
                            lower.to_ascii_uppercase()
                        ),
                    )
                    .at(c.here())
                    .with_help(help));
                }
                let items = args.into_iter().map(|a| a.value).collect();
                if lower == "allocate" {
                    StmtKind::Allocate(items)
                } else {
                    StmtKind::Deallocate(items)
                }
            }
            "return" => {
                if !c.at_end() {
                    return Err(Diagnostic::error(
                        "E0404",
                        "alternate returns (`RETURN n`) are not supported yet",
                    )
                    .at(c.here()));
                }
                StmtKind::Return
            }
            "continue" => {
                c.expect_end()?;
                StmtKind::Continue
            }
            "exit" => StmtKind::Exit {
                name: self.opt_name(c)?,
            },
            "cycle" => StmtKind::Cycle {
                name: self.opt_name(c)?,
            },
            _ => return Ok(None),
        };
        Ok(Some(kind))
    }
}
