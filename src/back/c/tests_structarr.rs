//! Arrays of structs printed back: the view's subscripts split at the rank of the array
//! of structs (`p%x(i, k)` → `p[i].x[k]`).

use crate::diag::{SourceFile, SourceMap};
use crate::il;

#[test]
fn members_of_array_elements_print_as_c() {
    let src = "struct ends { int a; };\n\
               struct pt { double x[3]; double m; struct ends e; };\n\
               struct pt g[5];\n\
               void f(struct pt *p, int n, double *y) {\n\
                 struct pt q[2][4];\n\
                 p[1].x[2] = (p + 2)->m;\n\
                 q[1][3].m = p->x[0];\n\
                 *y = g[4].e.a + q[0][1].x[1] + n;\n\
               }\n";
    let mut map = SourceMap::default();
    let id = map.add(SourceFile::new("t.c", src));
    let mut next = 0;
    let file = crate::front::lower_source(id, map.get(id), "t.c", &mut next).unwrap();
    let program = il::Program {
        files: vec![file.clone()],
    };
    let text = super::write_file(&file, &program, &[]);
    for want in [
        "struct pt g[5];",
        "void f(struct pt *p, int n, double *y)",
        "struct pt q[2][4]",
        "p[1].x[2] = p[2].m;",
        "q[1][3].m = p[0].x[0];",
        "g[4].e.a + q[0][1].x[1]",
    ] {
        assert!(text.contains(want), "{want} not in:\n{text}");
    }
}
