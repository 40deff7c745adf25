/* Array members of elements of an array of structs passed to a kernel that takes a
   plain array (`scale(p[i].v, 3, s)`, the member's first element like `a(i)` passed
   as an array): the adjoint saves the members of every element around each call. */
struct pt { double v[3]; double m; };

static void scale(double *a, int n, double s)
{
    int k;
    for (k = 0; k < n; k++)
        a[k] = a[k] * a[k] * s;
}

void root(const double a[6], double s, double out[2])
{
    struct pt p[2];
    int i, k;
    for (i = 0; i < 2; i++) {
        for (k = 0; k < 3; k++)
            p[i].v[k] = a[3 * i + k];
        p[i].m = a[i];
    }
    for (i = 0; i < 2; i++)
        scale(p[i].v, 3, s);
    scale(p[1].v, 3, s);
    out[0] = p[0].v[2] + p[1].v[0] * p[1].v[1];
    out[1] = p[1].m + p[0].v[0];
}
