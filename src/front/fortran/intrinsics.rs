//! Fortran intrinsic names: those mapped to [`Intrinsic`], those only allowed in constant
//! expressions of declarations, and those known but not supported yet.

use crate::il::Intrinsic;

/// An intrinsic function adgen lowers: the IL operation and the accepted argument counts.
pub struct IntrinsicInfo {
    pub op: Intrinsic,
    pub min_args: usize,
    pub max_args: usize,
}

/// Looks up a generic or specific intrinsic name (case-insensitive).
pub fn lookup(name: &str) -> Option<IntrinsicInfo> {
    use Intrinsic::*;
    let lower = name.to_ascii_lowercase();
    let (op, min_args, max_args) = match lower.as_str() {
        "sin" | "dsin" => (Sin, 1, 1),
        "cos" | "dcos" => (Cos, 1, 1),
        "tan" | "dtan" => (Tan, 1, 1),
        "asin" | "dasin" => (Asin, 1, 1),
        "acos" | "dacos" => (Acos, 1, 1),
        "atan" | "datan" => (Atan, 1, 2),
        "atan2" | "datan2" => (Atan2, 2, 2),
        "sinh" | "dsinh" => (Sinh, 1, 1),
        "cosh" | "dcosh" => (Cosh, 1, 1),
        "tanh" | "dtanh" => (Tanh, 1, 1),
        "asinh" | "dasinh" => (Asinh, 1, 1),
        "acosh" | "dacosh" => (Acosh, 1, 1),
        "atanh" | "datanh" => (Atanh, 1, 1),
        "hypot" => (Hypot, 2, 2),
        "erf" | "derf" => (Erf, 1, 1),
        "erfc" | "derfc" => (Erfc, 1, 1),
        "gamma" | "dgamma" => (Gamma, 1, 1),
        "log_gamma" | "lgamma" | "algama" | "dlgama" => (LogGamma, 1, 1),
        "exp" | "dexp" => (Exp, 1, 1),
        "log" | "alog" | "dlog" => (Log, 1, 1),
        "log10" | "alog10" | "dlog10" => (Log10, 1, 1),
        "sqrt" | "dsqrt" => (Sqrt, 1, 1),
        "abs" | "dabs" | "iabs" => (Abs, 1, 1),
        "max" | "dmax1" | "amax1" | "max0" | "amax0" | "max1" => (Max, 2, usize::MAX),
        "min" | "dmin1" | "amin1" | "min0" | "amin0" | "min1" => (Min, 2, usize::MAX),
        "sign" | "dsign" | "isign" => (Sign, 2, 2),
        "mod" | "amod" | "dmod" => (Mod, 2, 2),
        "dble" | "dfloat" => (Dble, 1, 1),
        "real" | "float" | "sngl" => (Real, 1, 2),
        "int" | "ifix" | "idint" => (Int, 1, 2),
        "nint" | "idnint" => (Nint, 1, 2),
        "floor" => (Floor, 1, 2),
        // Array intrinsics: `prepare::scalarize` rewrites them into loops.
        "sum" => (Sum, 1, 3),
        "product" => (Product, 1, 3),
        "maxval" => (Maxval, 1, 3),
        "minval" => (Minval, 1, 3),
        "maxloc" => (Maxloc, 1, 3),
        "minloc" => (Minloc, 1, 3),
        "dot_product" => (DotProduct, 2, 2),
        "matmul" => (Matmul, 2, 2),
        "transpose" => (Transpose, 1, 1),
        "spread" => (Spread, 3, 3),
        "reshape" => (Reshape, 2, 2),
        "cshift" => (Cshift, 2, 3),
        "pack" => (Pack, 2, 3),
        "eoshift" => (Eoshift, 2, 4),
        "merge" => (Merge, 3, 3),
        "size" => (Size, 1, 2),
        "lbound" => (Lbound, 1, 2),
        "ubound" => (Ubound, 1, 2),
        "shape" => (Shape, 1, 1),
        "modulo" => (Modulo, 2, 2),
        "present" => (Present, 1, 1),
        // COMPLEX: the generic names, and the specific ones of FORTRAN 77 and its
        // common extensions (`dcmplx`, `dimag`, `dconjg`, `cdabs`, ...).
        "cmplx" | "dcmplx" => (Cmplx, 1, 3),
        // `imag`, `imagpart` and `realpart`: GNU Fortran's extensions.
        "aimag" | "dimag" | "imag" | "imagpart" => (Aimag, 1, 1),
        "realpart" => (Real, 1, 1),
        "conjg" | "dconjg" => (Conjg, 1, 1),
        "cabs" | "cdabs" | "zabs" => (Abs, 1, 1),
        "cexp" | "cdexp" | "zexp" => (Exp, 1, 1),
        "clog" | "cdlog" | "zlog" => (Log, 1, 1),
        "csqrt" | "cdsqrt" | "zsqrt" => (Sqrt, 1, 1),
        "csin" | "cdsin" | "zsin" => (Sin, 1, 1),
        "ccos" | "cdcos" | "zcos" => (Cos, 1, 1),
        _ => return passive(&lower),
    };
    Some(IntrinsicInfo {
        op,
        min_args,
        max_args,
    })
}

/// Intrinsics whose result carries no derivative ([`Intrinsic::Passive`]): character,
/// bit, kind and numeric-model functions, and the logical reductions ANY, ALL and COUNT
/// of whole arrays (without DIM).
fn passive(lower: &str) -> Option<IntrinsicInfo> {
    use crate::il::ScalarResult::{Character, Integer, Logical, OfArgument};
    if let "any" | "all" | "count" = lower {
        let result = if lower == "count" { Integer } else { Logical };
        return Some(IntrinsicInfo {
            op: Intrinsic::Passive(crate::il::PassiveIntrinsic {
                result,
                inquiry: false,
                reduction: true,
            }),
            min_args: 1,
            // COUNT(MASK, DIM, KIND)
            max_args: if lower == "count" { 3 } else { 2 },
        });
    }
    let (result, inquiry, min_args, max_args) = match lower {
        "len" => (Integer, true, 1, 2),
        "len_trim" => (Integer, false, 1, 2),
        "index" | "scan" | "verify" => (Integer, false, 2, 4),
        "ichar" | "iachar" => (Integer, false, 1, 2),
        "iand" | "ior" | "ieor" => (Integer, false, 2, 2),
        "not" => (Integer, false, 1, 1),
        "ishft" => (Integer, false, 2, 2),
        "ishftc" => (Integer, false, 2, 3),
        "ibset" | "ibclr" => (Integer, false, 2, 2),
        "ibits" => (Integer, false, 3, 3),
        "ceiling" => (Integer, false, 1, 2),
        "exponent" => (Integer, false, 1, 1),
        "kind" | "bit_size" | "digits" | "radix" | "range" | "precision" | "maxexponent"
        | "minexponent" => (Integer, true, 1, 1),
        "selected_int_kind" => (Integer, true, 1, 1),
        "selected_real_kind" => (Integer, true, 0, 3),
        "btest" => (Logical, false, 2, 2),
        // IEEE_ARITHMETIC's classification functions.
        "ieee_is_nan" | "ieee_is_finite" | "ieee_is_normal" | "ieee_is_negative" => {
            (Logical, false, 1, 1)
        }
        "ieee_unordered" => (Logical, false, 2, 2),
        "command_argument_count" => (Integer, false, 0, 0),
        "lge" | "lgt" | "lle" | "llt" => (Logical, false, 2, 2),
        "allocated" => (Logical, true, 1, 1),
        "trim" | "adjustl" | "adjustr" => (Character, false, 1, 1),
        "char" | "achar" => (Character, false, 1, 2),
        "repeat" => (Character, false, 2, 2),
        "new_line" => (Character, true, 1, 1),
        "huge" | "tiny" | "epsilon" => (OfArgument, true, 1, 1),
        // The gap between neighbouring numbers at the argument: piecewise constant.
        "spacing" => (OfArgument, false, 1, 1),
        // Truncation and rounding to a whole number of the argument's type: piecewise
        // constant, so no derivative (as INT, NINT and FLOOR).
        "aint" | "anint" | "dint" | "dnint" => (OfArgument, false, 1, 2),
        _ => return None,
    };
    Some(IntrinsicInfo {
        op: Intrinsic::Passive(crate::il::PassiveIntrinsic {
            result,
            inquiry,
            reduction: false,
        }),
        min_args,
        max_args,
    })
}

/// Inquiry intrinsics evaluated at compile time in declarations (`kind(1.0d0)`).
pub fn is_constant_inquiry(name: &str) -> bool {
    matches!(
        name.to_ascii_lowercase().as_str(),
        "kind" | "selected_real_kind" | "selected_int_kind"
    )
}

/// Other standard intrinsic procedures: a reference to one is refused rather than taken
/// for a user function.
pub fn is_other_intrinsic(name: &str) -> bool {
    matches!(
        name.to_ascii_lowercase().as_str(),
        "aimag"
            | "achar"
            | "adjustl"
            | "adjustr"
            | "allocated"
            | "associated"
            | "bit_size"
            | "btest"
            | "ceiling"
            | "char"
            | "cmplx"
            | "conjg"
            | "cshift"
            | "dim"
            | "dprod"
            | "eoshift"
            | "epsilon"
            | "exponent"
            | "fraction"
            | "huge"
            | "iachar"
            | "iand"
            | "ibclr"
            | "ibits"
            | "ibset"
            | "ichar"
            | "ieor"
            | "index"
            | "ior"
            | "ishft"
            | "ishftc"
            | "kind"
            | "len"
            | "len_trim"
            | "lge"
            | "lgt"
            | "lle"
            | "llt"
            | "logical"
            | "merge"
            | "nearest"
            | "norm2"
            | "not"
            | "present"
            | "radix"
            | "repeat"
            | "scale"
            | "scan"
            | "selected_int_kind"
            | "selected_real_kind"
            | "spacing"
            | "tiny"
            | "transfer"
            | "trim"
            | "unpack"
            | "verify"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generic_and_specific_names() {
        assert_eq!(lookup("DSQRT").map(|i| i.op), Some(Intrinsic::Sqrt));
        assert_eq!(lookup("Max").map(|i| i.op), Some(Intrinsic::Max));
        assert_eq!(lookup("SUM").map(|i| i.op), Some(Intrinsic::Sum));
        assert!(is_other_intrinsic("UNPACK"));
        assert_eq!(lookup("pack").map(|i| i.op), Some(Intrinsic::Pack));
    }
}
