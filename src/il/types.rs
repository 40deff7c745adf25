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
}

impl TypeSpec {
    pub fn simple(base: BaseType) -> TypeSpec {
        TypeSpec {
            base,
            kind: None,
            kind_keyword: false,
            star: None,
            char_len: None,
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
            ScalarType::Logical => TypeSpec::simple(BaseType::Logical),
            ScalarType::Character => TypeSpec::simple(BaseType::Character),
        }
    }
}

/// The meaning of a scalar type. Sizes are in bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ScalarType {
    Integer(u8),
    Real(u8),
    Logical,
    Character,
}

impl ScalarType {
    /// Only reals carry derivatives.
    pub fn is_differentiable(self) -> bool {
        matches!(self, ScalarType::Real(_))
    }
    pub fn is_numeric(self) -> bool {
        matches!(self, ScalarType::Real(_) | ScalarType::Integer(_))
    }
}
