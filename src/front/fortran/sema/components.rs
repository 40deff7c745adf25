//! References to components of arrays of derived type (`p(i)%x`, `p(i)%x(j)`, `p%x`).
//!
//! The IL's view (see `components_of` in the parent): the component `p%x` of an array of
//! derived type `p(n)` is an array of the dimensions of `p` followed by those of `x`. The
//! parser gives `p(i)%x(j)` as `Call("p%x", [i, j])`, the first argument carrying the
//! keyword `%1` (the number of subscripts written on `p`); here that split is checked
//! against the declared ranks, so that `a(i, j)%x` for a rank-1 `a` is not silently
//! taken for `a(i)%x(j)`. `p(i)%x` for an array component `x` is the section
//! `p%x(i, :)`. Refused (E0421): a whole `p%x` where both `p` and `x` are arrays (not
//! Fortran), and `p%x(j)` (a component subscripted on a whole array).
//!
//! Seeds/000 §3 ("arrays as atoms", "distinguished structure components"): each
//! component of an array of structs is one array for the analyses, every element's
//! component blurred together, components kept apart; §4.2: the derivative of an array
//! of structs is an array of the derivative struct type, of the same dimensions.

use super::Sema;
use crate::diag::Span;
use crate::il::{Arg, Expr, ExprKind};

impl Sema<'_> {
    /// The ranks of the base and of the component a path `p%x%y` joins, when both are
    /// declared: `(rank of p, rank of p%x%y minus rank of p)`.
    fn view_ranks(&self, path: &str) -> Option<(usize, usize)> {
        let base = path.split('%').next()?;
        let b = self.lookup(base)?;
        let c = self.lookup(path)?;
        let rb = self.infos[b].dims.as_ref().map_or(0, Vec::len);
        let rc = self.infos[c].dims.as_ref().map_or(0, Vec::len);
        Some((rb, rc.saturating_sub(rb)))
    }

    /// Checks the split of a component reference `name(args)` and removes its marker; a
    /// component without subscripts of its own gets whole-dimension sections. False when
    /// the reference is wrong (reported).
    pub(super) fn element_component(
        &mut self,
        name: &str,
        args: &mut Vec<Arg>,
        span: Span,
    ) -> bool {
        let outer = match args.first().and_then(|a| a.keyword.as_deref()) {
            Some(k) if k.starts_with('%') => {
                let n = k[1..].parse::<usize>().unwrap_or(0);
                args[0].keyword = None;
                n
            }
            _ => 0,
        };
        let Some((rb, rc)) = self.view_ranks(name) else {
            return true;
        };
        let base = name.split('%').next().unwrap_or(name).to_string();
        let inner = args.len() - outer.min(args.len());
        if outer != rb {
            let msg = if outer == 0 {
                format!(
                    "`{name}` has subscripts for its component only, but `{base}` is an array: \
                     a component of a whole array of derived type cannot be subscripted here"
                )
            } else if rb == 0 {
                format!("`{base}` is not an array, but `{base}(...)%...` subscripts it")
            } else {
                format!(
                    "`{base}` has {rb} dimension{} but {outer} subscript{} given before `%`",
                    if rb == 1 { "" } else { "s" },
                    if outer == 1 { " is" } else { "s are" }
                )
            };
            self.error("E0421", msg, span).help = Some(format!(
                "write the element's component, `{base}(i)%...`, in a loop"
            ));
            return false;
        }
        if inner == 0 && rc > 0 {
            for _ in 0..rc {
                args.push(Arg::positional(Expr::new(ExprKind::Range {
                    lower: None,
                    upper: None,
                    stride: None,
                })));
            }
        } else if inner != rc {
            self.error(
                "E0421",
                format!(
                    "the component `{}` has {rc} dimension{} but {inner} subscript{} given",
                    name.split_once('%').map_or(name, |(_, c)| c),
                    if rc == 1 { "" } else { "s" },
                    if inner == 1 { " is" } else { "s are" }
                ),
                span,
            );
            return false;
        }
        true
    }

    /// A whole component `p%x` of an array of derived type `p`: refused when `x` is an
    /// array too (no Fortran designator is an array of arrays).
    pub(super) fn check_whole_component(&mut self, name: &str, span: Span) {
        if !name.contains('%') {
            return;
        }
        if let Some((rb, rc)) = self.view_ranks(name)
            && rb > 0
            && rc > 0
        {
            let base = name.split('%').next().unwrap_or(name);
            self.error(
                "E0421",
                format!(
                    "`{name}` is an array component of every element of the array `{base}`: \
                     not a Fortran designator"
                ),
                span,
            )
            .help = Some(format!(
                "reference one element's component, `{base}(i)%...`, in a loop"
            ));
        }
    }
}
