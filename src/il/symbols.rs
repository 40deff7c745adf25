//! Symbol tables: what every name used in a unit is (seeds/000 §3.2).

use std::collections::BTreeMap;

use super::{DimSpec, ScalarType, TypeSpec, key};
use crate::diag::Span;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Intent {
    In,
    Out,
    InOut,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// A variable (dummy argument, local, or function result).
    Variable,
    /// A named constant (`PARAMETER`).
    Constant,
    /// An external or intrinsic procedure referenced by this unit. For functions, `ty`
    /// is the result type.
    Procedure,
}

/// A global variable: `name` as declared in `module`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GlobalRef {
    pub module: String,
    pub name: String,
}

impl GlobalRef {
    /// Case-insensitive identity.
    pub fn key(&self) -> (String, String) {
        (key(&self.module), key(&self.name))
    }
}

#[derive(Clone, Debug)]
pub struct Symbol {
    /// As spelled where it was declared (or first used, when implicitly typed).
    pub name: String,
    pub kind: SymbolKind,
    pub ty: ScalarType,
    /// The spelling to use when declaring a variable of the same type.
    pub type_spec: TypeSpec,
    /// Array dimensions; empty for scalars.
    pub dims: Vec<DimSpec>,
    pub intent: Option<Intent>,
    /// Position among the dummy arguments.
    pub arg_index: Option<usize>,
    /// This is the function's result variable.
    pub is_result: bool,
    /// Typed by an implicit rule, not by a declaration.
    pub implicit: bool,
    pub span: Span,
    /// A module variable (or constant, or module procedure) seen here by use or host
    /// association: the module and the name it has there. Such a variable is not local
    /// storage of the unit; its zone is the program's global one.
    pub global: Option<super::GlobalRef>,
    /// Declared POINTER in the source, and read as ALLOCATABLE: an array that owns its
    /// memory (a Fortran 90 component, module variable or dummy). Code that tests its
    /// allocation asks ASSOCIATED, as the declaration the compiler sees requires.
    pub pointer: bool,
}

impl Symbol {
    /// A local variable made by a transformation (a loop index, an accumulator).
    pub fn local(name: &str, ty: ScalarType, type_spec: TypeSpec, dims: Vec<DimSpec>) -> Symbol {
        Symbol {
            name: name.to_string(),
            kind: SymbolKind::Variable,
            ty,
            type_spec,
            dims,
            intent: None,
            arg_index: None,
            is_result: false,
            implicit: false,
            span: Span::default(),
            global: None,
            pointer: false,
        }
    }
    pub fn is_array(&self) -> bool {
        !self.dims.is_empty()
    }
    pub fn rank(&self) -> usize {
        self.dims.len()
    }
    pub fn is_dummy(&self) -> bool {
        self.arg_index.is_some()
    }
    /// A local ALLOCATABLE array (deferred shape, neither dummy nor global): kept
    /// allocatable in derivative code.
    pub fn is_local_allocatable(&self) -> bool {
        !self.is_dummy()
            && self.global.is_none()
            && !self.dims.is_empty()
            && self
                .dims
                .iter()
                .any(|d| matches!(d.upper, super::Bound::Colon))
    }
    pub fn is_variable(&self) -> bool {
        self.kind == SymbolKind::Variable
    }
    /// A variable that belongs to a module (this unit's host or a used module), not to
    /// a COMMON block: its derivative is a derivative module variable.
    pub fn is_module_variable(&self) -> bool {
        self.is_variable()
            && self
                .global
                .as_ref()
                .is_some_and(|g| !g.module.starts_with('/'))
    }
}

/// The names of one unit, in declaration order, looked up case-insensitively.
#[derive(Clone, Debug, Default)]
pub struct SymbolTable {
    symbols: Vec<Symbol>,
    by_key: BTreeMap<String, usize>,
    /// The ALLOCATABLE dummies (and components of dummy structures) this procedure
    /// allocates for its caller, or frees and allocates again, by key
    /// (`prepare::scalarize::for_caller`).
    argument_allocations: BTreeMap<String, super::lifetime::ArgumentAllocation>,
    /// The module arrays whose allocation this procedure changes, itself or through the
    /// procedures it calls, by global key (`il::lifetime::global_allocations`).
    global_allocations: BTreeMap<(String, String), super::lifetime::ArgumentAllocation>,
    /// The module arrays (keys of their names here) this procedure allocates or frees
    /// with its own statements: kept allocatable, as locals are.
    heap_globals: std::collections::BTreeSet<String>,
}

impl SymbolTable {
    /// Adds a symbol; a second symbol with the same key replaces the first.
    pub fn insert(&mut self, symbol: Symbol) {
        let k = key(&symbol.name);
        match self.by_key.get(&k) {
            Some(&i) => self.symbols[i] = symbol,
            None => {
                self.by_key.insert(k, self.symbols.len());
                self.symbols.push(symbol);
            }
        }
    }
    pub fn get(&self, name: &str) -> Option<&Symbol> {
        self.by_key
            .get(crate::il::key_ref(name).as_ref())
            .map(|&i| &self.symbols[i])
    }
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Symbol> {
        let i = *self.by_key.get(crate::il::key_ref(name).as_ref())?;
        Some(&mut self.symbols[i])
    }
    pub fn contains(&self, name: &str) -> bool {
        self.by_key.contains_key(crate::il::key_ref(name).as_ref())
    }
    /// Symbols in declaration order.
    pub fn iter(&self) -> impl Iterator<Item = &Symbol> {
        self.symbols.iter()
    }
    /// The components of derived-type variable `name`, at every depth (`s%x`, `s%p`,
    /// `s%p%k`): the symbols named by a path under it.
    pub fn components_of<'t>(&'t self, name: &str) -> impl Iterator<Item = &'t Symbol> + 't {
        let prefix = format!("{}%", key(name));
        self.symbols
            .iter()
            .filter(move |s| key(&s.name).starts_with(&prefix))
    }
    /// An ALLOCATABLE array this unit allocates and frees itself: a local (not a dummy,
    /// a module's or a COMMON's) or an ALLOCATABLE component of a local structure
    /// (`f%h` of `type(field) :: f`); or a dummy (or a dummy's component) the procedure
    /// allocates for its caller; or a module array the procedure allocates or frees
    /// (`is_heap_global`). The other components of a dummy structure are the caller's.
    pub fn is_kept_allocatable(&self, name: &str) -> bool {
        let Some(sym) = self.get(name) else {
            return false;
        };
        if self.argument_allocation(name).is_some() {
            return true;
        }
        if self
            .heap_globals
            .contains(crate::il::key_ref(name).as_ref())
        {
            return true;
        }
        let base = name.split('%').next().unwrap_or(name);
        sym.is_local_allocatable()
            && self
                .get(base)
                .is_some_and(|b| !b.is_dummy() && b.global.is_none() && !b.is_result)
    }
    /// Records that this procedure allocates its dummy `name` (or the component `name`
    /// of a dummy structure) for its caller, or frees and allocates it again: it is
    /// then kept allocatable, as a local.
    pub fn mark_argument_allocation(
        &mut self,
        name: &str,
        what: super::lifetime::ArgumentAllocation,
    ) {
        self.argument_allocations.insert(key(name), what);
    }
    /// What this procedure does with the allocation of its dummy `name`, if anything.
    pub fn argument_allocation(&self, name: &str) -> Option<super::lifetime::ArgumentAllocation> {
        self.argument_allocations
            .get(crate::il::key_ref(name).as_ref())
            .copied()
    }
    /// Records what this procedure does with the allocation of module arrays, itself or
    /// through its callees (by global key), and which of them its own statements
    /// allocate or free (by their names here).
    pub fn mark_global_allocations(
        &mut self,
        changes: Vec<((String, String), super::lifetime::ArgumentAllocation)>,
        direct: impl IntoIterator<Item = String>,
    ) {
        self.global_allocations = changes.into_iter().collect();
        self.heap_globals = direct.into_iter().map(|n| key(&n)).collect();
    }
    /// What this procedure does with the allocation of module arrays, itself or through
    /// the procedures it calls, by global key (module, name).
    pub fn global_allocations(
        &self,
    ) -> impl Iterator<Item = (&(String, String), super::lifetime::ArgumentAllocation)> {
        self.global_allocations.iter().map(|(k, w)| (k, *w))
    }
    /// Whether `name` is a module array this procedure allocates or frees with its own
    /// statements.
    pub fn is_heap_global(&self, name: &str) -> bool {
        self.heap_globals
            .contains(crate::il::key_ref(name).as_ref())
    }
    /// Whether this procedure allocates its dummy `name` for its caller (which passes
    /// it unallocated).
    pub fn is_allocated_argument(&self, name: &str) -> bool {
        self.argument_allocation(name) == Some(super::lifetime::ArgumentAllocation::Allocates)
    }
    /// Symbols in declaration order, to amend (names must not change).
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Symbol> {
        self.symbols.iter_mut()
    }
    pub fn len(&self) -> usize {
        self.symbols.len()
    }
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }
}
