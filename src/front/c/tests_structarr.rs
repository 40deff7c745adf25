//! Arrays of structs: lowering to the struct-of-arrays view, and the refusals.

use crate::diag::{SourceFile, SourceMap};
use crate::il::{self, ExprKind, StmtKind};

fn lower(text: &str) -> Result<il::File, String> {
    let mut map = SourceMap::default();
    let id = map.add(SourceFile::new("t.c", text));
    let mut next = 0;
    crate::front::lower_source(id, map.get(id), "t.c", &mut next)
        .and_then(super::tests::refusals_now)
        .map_err(|d| crate::Diagnostics(d).render(&map))
}

fn lhs_of(s: &il::Stmt) -> &il::Expr {
    match &s.kind {
        StmtKind::Assign { lhs, .. } => lhs,
        k => panic!("not an assignment: {k:?}"),
    }
}

fn rhs_of(s: &il::Stmt) -> &il::Expr {
    match &s.kind {
        StmtKind::Assign { rhs, .. } => rhs,
        k => panic!("not an assignment: {k:?}"),
    }
}

/// `(name, number of subscripts)` of an element reference.
fn index(e: &il::Expr) -> (String, usize) {
    match &e.kind {
        ExprKind::Index(n, subs) => (n.clone(), subs.len()),
        k => panic!("not an element: {k:?}"),
    }
}

#[test]
fn members_of_arrays_of_structs_are_views_with_the_array_dims_first() {
    let f = lower(
        "struct ends { int a; };\n\
         struct pt { double x[3]; double m; struct ends e; };\n\
         struct pt g[5];\n\
         void f(struct pt *p, int n, double *y) {\n\
           struct pt q[2][4];\n\
           p[1].x[2] = (p + 2)->m;\n\
           q[1][3].m = p->x[0];\n\
           *y = g[4].e.a + q[0][1].x[1];\n\
           q[0][0] = g[1];\n\
         }\n",
    )
    .unwrap();
    let u = f.units.iter().find(|u| u.name == "f").unwrap();
    // Symbols: `p%x` is (0:*, 0:2), `q%m` (0:3, 0:1), `g%e%a` (0:4).
    assert_eq!(u.symbols.get("p").unwrap().rank(), 1);
    assert_eq!(u.symbols.get("p%x").unwrap().rank(), 2);
    assert_eq!(u.symbols.get("p%m").unwrap().rank(), 1);
    assert_eq!(u.symbols.get("q%m").unwrap().rank(), 2);
    assert_eq!(u.symbols.get("q%x").unwrap().rank(), 3);
    assert_eq!(u.symbols.get("g%e%a").unwrap().rank(), 1);
    assert_eq!(index(lhs_of(&u.body[0])), ("p%x".to_string(), 2));
    assert_eq!(index(rhs_of(&u.body[0])), ("p%m".to_string(), 1));
    // `q[1][3]`: IL order (3, 1), column-major.
    let ExprKind::Index(_, subs) = &lhs_of(&u.body[1]).kind else {
        panic!()
    };
    assert!(matches!(&subs[0].kind, ExprKind::Int(v) if v == "3"));
    assert!(matches!(&subs[1].kind, ExprKind::Int(v) if v == "1"));
    // `p->x[0]` is element 0 of `p`.
    assert_eq!(index(rhs_of(&u.body[1])), ("p%x".to_string(), 2));
    // A whole element copy: one assignment per scalar leaf, array members per element.
    let copies: Vec<(String, usize)> = u.body[3..].iter().map(|s| index(lhs_of(s))).collect();
    assert_eq!(
        copies,
        [
            ("q%x".to_string(), 3),
            ("q%x".to_string(), 3),
            ("q%x".to_string(), 3),
            ("q%m".to_string(), 2),
            ("q%e%a".to_string(), 2),
        ]
    );
}

#[test]
fn struct_array_refusals_are_located() {
    let cases: &[(&str, &str)] = &[
        // A local array of structs with an initializer.
        (
            "struct p { double x; };\nvoid f(double *y) {\n  struct p a[2] = {{1.0}, {2.0}};\n  *y = a[0].x;\n}\n",
            "t.c:3:12: error[E0612]",
        ),
        // A global one: its initializer.
        (
            "struct p { double x; };\nstruct p g[2] = {{1.0}, {2.0}};\nvoid f(double *y) { *y = g[0].x; }\n",
            "t.c:2:15: error[E0615]",
        ),
        // An element passed by address.
        (
            "struct p { double x; };\nvoid h(struct p *q) { q->x = 1.0; }\nvoid f(struct p *q, double *y) {\n  h(&q[1]);\n  *y = q[0].x;\n}\n",
            "t.c:4:6: error[E0612]",
        ),
        // A local pointer to an element, passed on as `&q[1]` would be.
        (
            "struct p { double x; };\nvoid h(struct p *q) { q->x = 1.0; }\nvoid f(struct p *q, double *y) {\n  struct p *b = &q[1];\n  h(b);\n  *y = q[0].x;\n}\n",
            "t.c:5:5: error[E0612]",
        ),
        // Too many subscripts on a 1-D array of structs.
        (
            "struct p { double x; };\nvoid f(double *y) {\n  struct p a[2];\n  a[0].x = 1.0;\n  *y = a[1][0].x;\n}\n",
            "t.c:5:8: error[E0612]",
        ),
        // A moving struct pointer.
        (
            "struct p { double x; };\nvoid f(struct p *q, int n, double *y) {\n  q++;\n  *y = q->x;\n}\n",
            "error[E0612]",
        ),
        // An element used whole as a value.
        (
            "struct p { double x; };\nvoid f(struct p *q, double *y) {\n  *y = q[0].x + sin(q[1]);\n}\n",
            "error[E06",
        ),
        // More than 2 dimensions.
        (
            "struct p { double x; };\nvoid f(double *y) {\n  struct p a[2][2][2];\n  a[0][0][0].x = 1.0;\n  *y = 1.0;\n}\n",
            "t.c:3:12: error[E0603]",
        ),
    ];
    for (src, want) in cases {
        let e = lower(src).unwrap_err();
        assert!(e.contains(want), "{src}\nwanted {want}, got:\n{e}");
    }
}

#[test]
fn a_struct_pointer_passed_on_to_an_array_of_structs_is_one() {
    let f = lower(
        "struct pt { double x[2]; double m; };\n\
         static void step(struct pt *p, int n) { p[n - 1].m = p[0].x[1]; }\n\
         static void one(struct pt *q) { q->m = 2.0 * q->m; }\n\
         void multi(struct pt *p, struct pt *q, int n) { step(p, n); one(q); }\n",
    )
    .unwrap();
    let u = f.units.iter().find(|u| u.name == "multi").unwrap();
    assert_eq!(u.symbols.get("p").unwrap().rank(), 1);
    assert_eq!(u.symbols.get("p%x").unwrap().rank(), 2);
    // Used as `q->m` only (and passed to a function that does the same): one struct.
    assert_eq!(u.symbols.get("q").unwrap().rank(), 0);
    let one = f.units.iter().find(|u| u.name == "one").unwrap();
    assert_eq!(one.symbols.get("q%m").unwrap().rank(), 0);
}
