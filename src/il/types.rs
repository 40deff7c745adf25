//! Types: the spelling kept for output ([`TypeSpec`]) and the meaning used by analyses
//! ([`ScalarType`]).

use super::Expr;

/// The base type as spelled in a declaration.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BaseType {
    Integer,
    Real,
    /// `DOUBLE PRECISION`.
    DoublePrecision,
    Logical,
    Character,
    /// `TYPE(name)`: the name is [`TypeSpec::type_name`].
    Derived,
    /// `COMPLEX`, `COMPLEX(8)`, `COMPLEX*16`.
    Complex,
    /// `DOUBLE COMPLEX`.
    DoubleComplex,
}

/// A type as written: base, kind selector (`real(8)`, `real(kind=dp)`), `*len` form
/// (`real*8`). Derivative declarations copy the spelling of their primal's.
#[derive(Clone, Debug)]
pub struct TypeSpec {
    pub base: BaseType,
    /// Kind selector expression, if any.
    pub kind: Option<Expr>,
    /// True when written `KIND=`.
    pub kind_keyword: bool,
    /// `REAL*8`: the star length.
    pub star: Option<u32>,
    /// For CHARACTER: the length as written (`len=*`, `10`), kept verbatim.
    pub char_len: Option<String>,
    /// For `TYPE(name)`: the derived type's name.
    pub type_name: Option<String>,
    /// Written `CLASS(name)`: a polymorphic dummy, read as `TYPE(name)` (no type of an
    /// accepted program extends another) and printed back as written.
    pub polymorphic: bool,
}

impl TypeSpec {
    pub fn simple(base: BaseType) -> TypeSpec {
        TypeSpec {
            base,
            kind: None,
            kind_keyword: false,
            star: None,
            char_len: None,
            type_name: None,
            polymorphic: false,
        }
    }
    /// `real(kind)` with a literal kind: used for variables the differentiator creates.
    pub fn of(scalar: ScalarType) -> TypeSpec {
        match scalar {
            ScalarType::Integer(4) => TypeSpec::simple(BaseType::Integer),
            ScalarType::Real(8) => TypeSpec {
                kind: Some(Expr::int(8)),
                ..TypeSpec::simple(BaseType::Real)
            },
            ScalarType::Real(k) => TypeSpec {
                kind: (k != 4).then(|| Expr::int(k as i64)),
                ..TypeSpec::simple(BaseType::Real)
            },
            ScalarType::Integer(k) => TypeSpec {
                kind: Some(Expr::int(k as i64)),
                ..TypeSpec::simple(BaseType::Integer)
            },
            ScalarType::Complex(k) => TypeSpec {
                kind: (k != 4).then(|| Expr::int(k as i64)),
                ..TypeSpec::simple(BaseType::Complex)
            },
            ScalarType::Logical => TypeSpec::simple(BaseType::Logical),
            ScalarType::Character => TypeSpec::simple(BaseType::Character),
            // The name is not in the scalar type: callers keep the declared spec.
            ScalarType::Derived => TypeSpec::simple(BaseType::Derived),
        }
    }
}

/// The meaning of a scalar type. Sizes are in bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ScalarType {
    Integer(u8),
    Real(u8),
    /// A complex number, by the kind of each of its two parts (`complex(8)`: 8).
    Complex(u8),
    Logical,
    Character,
    /// A derived-type variable: its components are named by paths (`s%x`) in the
    /// symbol table, with their own types. It carries derivatives through its real
    /// components.
    Derived,
}

impl ScalarType {
    /// Reals carry derivatives, and derived-type variables through their real components.
    pub fn is_differentiable(self) -> bool {
        matches!(
            self,
            ScalarType::Real(_) | ScalarType::Complex(_) | ScalarType::Derived
        )
    }
    /// A real or complex scalar: a value with a derivative of its own (a component
    /// of a derivative type, unlike a nested derived type's).
    pub fn carries_values(self) -> bool {
        matches!(self, ScalarType::Real(_) | ScalarType::Complex(_))
    }
    pub fn is_complex(self) -> bool {
        matches!(self, ScalarType::Complex(_))
    }
    pub fn is_numeric(self) -> bool {
        matches!(
            self,
            ScalarType::Real(_) | ScalarType::Complex(_) | ScalarType::Integer(_)
        )
    }
    /// The type as a reader names it: `real(8)`, `integer(2)`, `character`.
    pub fn describe(self) -> String {
        match self {
            ScalarType::Integer(k) => format!("integer({k})"),
            ScalarType::Real(k) => format!("real({k})"),
            ScalarType::Complex(k) => format!("complex({k})"),
            ScalarType::Logical => "logical".to_string(),
            ScalarType::Character => "character".to_string(),
            ScalarType::Derived => "derived type".to_string(),
        }
    }
}

/// How names are typed where an expression is typed: the lookups of variables and of
/// function results, and the kind of a real that nothing fixes (Fortran's default REAL
/// is 4 bytes, C's `double` 8).
pub struct TypeRules<'a> {
    pub variable: &'a dyn Fn(&str) -> ScalarType,
    pub function: &'a dyn Fn(&str) -> ScalarType,
    pub default_real: u8,
}

/// The type of an expression: literals by their kind, names by the rules' lookups,
/// intrinsics and operators by the usual promotions.
pub fn expr_type(expr: &Expr, rules: &TypeRules) -> ScalarType {
    use super::{BinOp, ExprKind, Intrinsic, UnOp};
    let ty = |e: &Expr| expr_type(e, rules);
    match &expr.kind {
        ExprKind::Int(text) => match text.rsplit_once('_') {
            Some((_, "8")) => ScalarType::Integer(8),
            _ => ScalarType::Integer(4),
        },
        ExprKind::Real(lit) => ScalarType::Real(lit.kind),
        ExprKind::Logical(_) => ScalarType::Logical,
        ExprKind::Str(_) => ScalarType::Character,
        ExprKind::Var(n) | ExprKind::Index(n, _) => (rules.variable)(n),
        ExprKind::Call(n, _) => (rules.function)(n),
        ExprKind::Intrinsic { op, args, spelling } => {
            let arg = |i: usize| {
                args.get(i)
                    .map(|a| ty(&a.value))
                    .unwrap_or(ScalarType::Real(rules.default_real))
            };
            let real_of = |t: ScalarType| match t {
                ScalarType::Real(k) | ScalarType::Complex(k) => ScalarType::Real(k),
                _ => ScalarType::Real(rules.default_real),
            };
            match op {
                Intrinsic::Dble => ScalarType::Real(8),
                Intrinsic::Real => match args.get(1).map(|a| &a.value.kind) {
                    Some(ExprKind::Int(k)) => ScalarType::Real(k.parse().unwrap_or(4)),
                    Some(_) => ScalarType::Real(8),
                    None => real_of(arg(0)),
                },
                Intrinsic::Int
                | Intrinsic::Nint
                | Intrinsic::Floor
                | Intrinsic::Maxloc
                | Intrinsic::Minloc
                | Intrinsic::Size
                | Intrinsic::Lbound
                | Intrinsic::Ubound
                | Intrinsic::Shape => ScalarType::Integer(4),
                Intrinsic::Present => ScalarType::Logical,
                Intrinsic::Passive(p) => match p.result {
                    crate::il::ScalarResult::Integer => ScalarType::Integer(4),
                    crate::il::ScalarResult::Logical => ScalarType::Logical,
                    crate::il::ScalarResult::Character => ScalarType::Character,
                    crate::il::ScalarResult::OfArgument => arg(0),
                },
                Intrinsic::DotProduct | Intrinsic::Matmul => promote(arg(0), arg(1)),
                Intrinsic::Sum
                | Intrinsic::Product
                | Intrinsic::Maxval
                | Intrinsic::Minval
                | Intrinsic::Transpose
                | Intrinsic::Spread
                | Intrinsic::Reshape
                | Intrinsic::Cshift
                | Intrinsic::Eoshift
                | Intrinsic::Pack => arg(0),
                Intrinsic::Modulo => promote(arg(0), arg(1)),
                Intrinsic::Abs | Intrinsic::Aimag if arg(0).is_complex() => real_of(arg(0)),
                Intrinsic::Conjg => arg(0),
                Intrinsic::Cmplx => match args
                    .iter()
                    .find(|a| {
                        a.keyword
                            .as_deref()
                            .is_some_and(|k| k.eq_ignore_ascii_case("kind"))
                    })
                    .or(args.get(2))
                    .map(|a| &a.value.kind)
                {
                    Some(ExprKind::Int(k)) => ScalarType::Complex(k.parse().unwrap_or(4)),
                    Some(_) => ScalarType::Complex(8),
                    None if spelling
                        .as_deref()
                        .is_some_and(|s| s.eq_ignore_ascii_case("dcmplx")) =>
                    {
                        ScalarType::Complex(8)
                    }
                    None => ScalarType::Complex(rules.default_real),
                },
                Intrinsic::ComplexPair => match promote(arg(0), arg(1)) {
                    ScalarType::Real(k) => ScalarType::Complex(k),
                    _ => ScalarType::Complex(rules.default_real),
                },
                Intrinsic::Max
                | Intrinsic::Min
                | Intrinsic::Mod
                | Intrinsic::Sign
                | Intrinsic::Abs => (0..args.len())
                    .map(arg)
                    .fold(ScalarType::Integer(4), promote),
                Intrinsic::Merge => promote(arg(0), arg(1)),
                // Elementwise functions of a COMPLEX are COMPLEX (`exp(z)`).
                _ if arg(0).is_complex() => arg(0),
                _ => real_of(arg(0)),
            }
        }
        ExprKind::Range { .. } => ScalarType::Integer(4),
        ExprKind::Substring { .. } => ScalarType::Character,
        ExprKind::ImpliedDo(d) => d
            .items
            .iter()
            .map(ty)
            .reduce(promote)
            .unwrap_or(ScalarType::Real(rules.default_real)),
        ExprKind::ArrayCtor(items) => items
            .iter()
            .map(ty)
            .reduce(promote)
            .unwrap_or(ScalarType::Real(rules.default_real)),
        ExprKind::Unary(UnOp::Not, _) => ScalarType::Logical,
        ExprKind::Unary(_, e) | ExprKind::Paren(e) => ty(e),
        ExprKind::Binary(op, a, b) => match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Pow => promote(ty(a), ty(b)),
            BinOp::Concat => ScalarType::Character,
            _ => ScalarType::Logical,
        },
    }
}

/// The type of an arithmetic operation on operands of types `a` and `b`.
pub fn promote(a: ScalarType, b: ScalarType) -> ScalarType {
    match (a, b) {
        (ScalarType::Complex(x), ScalarType::Complex(y)) => ScalarType::Complex(x.max(y)),
        (ScalarType::Complex(x), ScalarType::Real(y))
        | (ScalarType::Real(y), ScalarType::Complex(x)) => ScalarType::Complex(x.max(y)),
        (ScalarType::Complex(x), _) | (_, ScalarType::Complex(x)) => ScalarType::Complex(x),
        (ScalarType::Real(x), ScalarType::Real(y)) => ScalarType::Real(x.max(y)),
        (ScalarType::Real(x), _) | (_, ScalarType::Real(x)) => ScalarType::Real(x),
        (ScalarType::Integer(x), ScalarType::Integer(y)) => ScalarType::Integer(x.max(y)),
        (x, _) => x,
    }
}

/// What an integer variable with [`super::Attr::Association`] stands for.
#[derive(Clone, Debug)]
pub struct Association {
    /// The pointer, as declared.
    pub pointer: String,
    /// Its possible targets, as declared; value k stands for `candidates[k - 1]`.
    pub candidates: Vec<String>,
    /// The pointer's declaration in its module (its entity alone), which the module
    /// printed again has in place of the integer's.
    pub declaration: Box<super::Decl>,
}
