/* An array of structs passed whole to a function that takes one struct (`struct pt
   *q`, used as `q->m`): the callee works on the first element, twice, so the adjoint
   restores it between the two calls. */
struct pt { double x[2]; double m; };

static void one(struct pt *q)
{
    q->m = q->m * q->x[0] + q->x[1];
    q->x[1] = q->m * q->m;
}

void root(const double a[6], double out[3])
{
    struct pt p[2];
    int i;
    for (i = 0; i < 2; i++) {
        p[i].x[0] = a[3 * i];
        p[i].x[1] = a[3 * i + 1];
        p[i].m = a[3 * i + 2];
    }
    one(p);
    one(p);
    out[0] = p[0].m * p[1].x[1];
    out[1] = p[0].x[1] + p[1].m;
    out[2] = p[1].x[0] * p[0].x[0];
}
