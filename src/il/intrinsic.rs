//! The intrinsic functions the IL knows, which every back-end spells in its language.

/// Intrinsic functions known to every language (each back-end spells them).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Intrinsic {
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Atan2,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Exp,
    Log,
    Log10,
    /// C's `exp2`, `log2`, `cbrt`, `expm1`, `log1p` (the C front-end makes them).
    Exp2,
    Log2,
    Cbrt,
    Expm1,
    Log1p,
    Sqrt,
    /// `hypot(a, b)` = sqrt(a² + b²) without overflow.
    Hypot,
    Erf,
    Erfc,
    /// Fortran `gamma`, C `tgamma`.
    Gamma,
    /// Fortran `log_gamma`, C `lgamma`.
    LogGamma,
    /// ψ(x) = Γ'(x)/Γ(x): no language has it; the runtime's `adgen_digamma` computes it,
    /// for the derivatives of GAMMA and LOG_GAMMA.
    Digamma,
    Abs,
    Max,
    Min,
    Sign,
    Mod,
    /// Conversion to double precision (`DBLE`).
    Dble,
    /// Conversion to real, default kind or the kind given as second argument (`REAL`).
    Real,
    Int,
    Nint,
    Floor,
    /// `merge(a, b, mask)`: `a` where `mask`, else `b`. Made by the differentiator for
    /// the partial derivatives of piecewise intrinsics (ABS, MAX, MIN, SIGN).
    Merge,
    /// `cmplx(x [, y] [, kind])`: the complex number `x + i·y` (default kind unless KIND
    /// is given, as Fortran says).
    Cmplx,
    /// `aimag(z)`: the imaginary part.
    Aimag,
    /// `conjg(z)`: the complex conjugate.
    Conjg,
    /// A complex constant `(re, im)`, printed as the pair it was written as; its kind is
    /// its parts' (`(1d0, 0d0)` is `complex(8)`).
    ComplexPair,
    // Array intrinsics (transformational and inquiry). `prepare::scalarize` rewrites every
    // use of the transformational ones into loops before analysis; the inquiry ones
    // (SIZE, LBOUND, UBOUND) stay as integer-valued calls.
    Sum,
    Product,
    Maxval,
    Minval,
    Maxloc,
    Minloc,
    DotProduct,
    Matmul,
    Transpose,
    Spread,
    Reshape,
    /// `cshift(array, shift [, dim])`: circular shift along one dimension.
    Cshift,
    /// `eoshift(array, shift [, boundary] [, dim])`: end-off shift, filled with
    /// `boundary` (zero by default).
    Eoshift,
    /// `pack(array, mask [, vector])`: the elements of ARRAY where MASK holds, in array
    /// element order (then VECTOR's trailing elements). Scalarized only as the whole
    /// right-hand side of an assignment.
    Pack,
    Size,
    Lbound,
    Ubound,
    Shape,
    /// `modulo(a, p)`: `a - floor(a/p)*p`, elementwise.
    Modulo,
    /// `present(x)`: is the optional dummy `x` given (C: `x != NULL`)? A logical test,
    /// passive, invariant during the call.
    Present,
    /// An intrinsic whose result carries no derivative, kept as written (its spelling is
    /// the expression's): character functions (`len_trim`, `index`, `trim`), bit and
    /// kind functions, numeric constants of a type (`huge(x)`, `epsilon(x)`).
    Passive(PassiveIntrinsic),
}

/// The result of an [`Intrinsic::Passive`], and whether its arguments are only inquired
/// (`len(names)`, `huge(x)`: whole arrays are no array syntax) or taken elementwise.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PassiveIntrinsic {
    pub result: ScalarResult,
    pub inquiry: bool,
    /// A reduction of whole arrays to a scalar (`ANY(x > 0)`, `COUNT(mask)`): its
    /// arguments are read as wholes, never scalarized element by element.
    pub reduction: bool,
}

/// The type of a passive intrinsic's result.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ScalarResult {
    /// Default integer.
    Integer,
    Logical,
    Character,
    /// The type of the first argument (`huge(x)`).
    OfArgument,
}

impl Intrinsic {
    /// Intrinsics whose result is piecewise constant: never active.
    pub fn is_passive(self) -> bool {
        matches!(
            self,
            Intrinsic::Int
                | Intrinsic::Nint
                | Intrinsic::Floor
                | Intrinsic::Maxloc
                | Intrinsic::Minloc
                | Intrinsic::Size
                | Intrinsic::Lbound
                | Intrinsic::Ubound
                | Intrinsic::Shape
                | Intrinsic::Present
                | Intrinsic::Passive(_)
        )
    }
    /// Intrinsics taking or returning whole arrays, never elementwise: `prepare::scalarize`
    /// turns them into loops (all but the integer inquiries).
    pub fn is_array_valued_or_reduction(self) -> bool {
        matches!(
            self,
            Intrinsic::Sum
                | Intrinsic::Product
                | Intrinsic::Maxval
                | Intrinsic::Minval
                | Intrinsic::Maxloc
                | Intrinsic::Minloc
                | Intrinsic::DotProduct
                | Intrinsic::Matmul
                | Intrinsic::Transpose
                | Intrinsic::Spread
                | Intrinsic::Reshape
                | Intrinsic::Cshift
                | Intrinsic::Eoshift
                | Intrinsic::Pack
                | Intrinsic::Shape
        )
    }
}
