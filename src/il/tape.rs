//! Tape operations (seeds/000 §4.3, DESIGN.md §5): the adjoint's forward sweep pushes the
//! values its backward sweep needs and the control flow it took; the backward sweep pops
//! them in reverse order. They are statements of their own ([`super::StmtKind::Tape`]),
//! typed by the runtime stack they use, so that each back-end lowers them as it likes:
//! today both print a call of the bundled runtime ([`Tape::runtime_routine`]), which is
//! the default lowering and what the generated code has always called.

use super::{Expr, ScalarType};

/// What a tape statement does.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TapeOp {
    /// Save the value on top of its stack.
    Push,
    /// Restore the value from the top of its stack and remove it.
    Pop,
    /// Restore the value from the top of its stack and keep it there (repeated access).
    Look,
}

impl TapeOp {
    pub fn name(self) -> &'static str {
        match self {
            TapeOp::Push => "push",
            TapeOp::Pop => "pop",
            TapeOp::Look => "look",
        }
    }
    /// Pops and looks write their operand; pushes only read it.
    pub fn writes(self) -> bool {
        self != TapeOp::Push
    }
}

/// The stack a tape statement uses: the type of the values it holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TapeType {
    /// `real(k)`, k = 4 or 8.
    Real(u8),
    /// `integer(k)`, k = 4 or 8.
    Integer(u8),
    /// `complex(k)`, k = 4 or 8 (each part's kind).
    Complex(u8),
    Boolean,
    /// Fortran `CHARACTER` data of any length (bytes).
    Character,
    Pointer,
    /// Which branch or how many iterations the forward sweep took: a small integer,
    /// pushed by value.
    Control,
    /// The same, for a procedure with a construct of more than 256 ways out: 4 bytes.
    Control4,
}

impl TapeType {
    /// The stack for values of `ty`, if the runtime has one.
    pub fn of(ty: ScalarType) -> Option<TapeType> {
        match ty {
            ScalarType::Real(k @ (4 | 8)) => Some(TapeType::Real(k)),
            ScalarType::Integer(k @ (4 | 8)) => Some(TapeType::Integer(k)),
            ScalarType::Complex(k @ (4 | 8)) => Some(TapeType::Complex(k)),
            ScalarType::Logical => Some(TapeType::Boolean),
            ScalarType::Character => Some(TapeType::Character),
            _ => None,
        }
    }
    /// The runtime's name of the stack: `real8`, `integer4`, `boolean`, `control`.
    pub fn name(self) -> String {
        match self {
            TapeType::Real(k) => format!("real{k}"),
            TapeType::Integer(k) => format!("integer{k}"),
            // Tapenade's names: the bytes of both parts.
            TapeType::Complex(k) => format!("complex{}", 2 * k),
            TapeType::Boolean => "boolean".to_string(),
            TapeType::Character => "character".to_string(),
            TapeType::Pointer => "pointer".to_string(),
            TapeType::Control => "control".to_string(),
            TapeType::Control4 => "control4".to_string(),
        }
    }
    /// A push of this type passes its value, not its address (C).
    pub fn pushed_by_value(self) -> bool {
        matches!(
            self,
            TapeType::Control | TapeType::Control4 | TapeType::Boolean
        )
    }
}

/// One tape statement: `op` on the stack of `ty`, of `value` (a variable, an element or
/// a whole array; for a control push, the branch number), or of the `count` elements
/// starting at `value` when `count` is set.
#[derive(Clone, Debug)]
pub struct Tape {
    pub op: TapeOp,
    pub ty: TapeType,
    pub value: Expr,
    pub count: Option<Box<Expr>>,
}

impl Tape {
    pub fn new(op: TapeOp, ty: TapeType, value: Expr) -> Tape {
        Tape {
            op,
            ty,
            value,
            count: None,
        }
    }
    pub fn array(op: TapeOp, ty: TapeType, value: Expr, count: Expr) -> Tape {
        Tape {
            op,
            ty,
            value,
            count: Some(Box::new(count)),
        }
    }
    /// The bundled runtime's routine in its Fortran interface: `pushreal8`,
    /// `popinteger4array`, `pushcontrol`.
    pub fn runtime_routine(&self) -> String {
        let array = if self.count.is_some() { "array" } else { "" };
        format!("{}{}{array}", self.op.name(), self.ty.name())
    }
    /// The operands of the runtime call: the value, then the count of an array operation.
    pub fn operands(&self) -> Vec<&Expr> {
        std::iter::once(&self.value)
            .chain(self.count.as_deref())
            .collect()
    }
}
