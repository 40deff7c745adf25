/* Power iteration for the dominant eigenpair of a small dense matrix, on BLAS-1 style
   kernels written with pointer parameters that move (`*x++`, `x += incx`), strided
   access, rows passed as `a + i * n`, and a Rayleigh quotient. */
#include <math.h>

#define NMAX 8

/* Dot product with strides, pointers advanced along the vectors. */
static double ddot(int n, const double *x, int incx, const double *y, int incy)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        s += *x * *y;
        x += incx;
        y += incy;
    }
    return s;
}

/* y := alpha x + y, unit strides. */
static void daxpy(int n, double alpha, const double *x, double *y)
{
    for (; n > 0; n--)
        *y++ += alpha * *x++;
}

/* x := alpha x */
static void dscal(int n, double alpha, double *x)
{
    double *end = x + n;
    for (double *p = x; p != end; ++p)
        *p *= alpha;
}

/* y := A x, A row-major n x n, one dot product per row. */
static void matvec(int n, const double *a, const double *x, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] = ddot(n, a + i * n, 1, x, 1);
}

void power_iter(int n, int niter, const double *a, const double *v0, double *lambda,
                double v[NMAX], double *trace_diag)
{
    double w[NMAX];
    for (int i = 0; i < n; i++)
        v[i] = v0[i];
    for (int it = 0; it < niter; it++) {
        matvec(n, a, v, w);
        double norm = sqrt(ddot(n, w, 1, w, 1));
        for (int i = 0; i < n; i++)
            v[i] = 0.0;
        daxpy(n, 1.0 / norm, w, v);
    }
    matvec(n, a, v, w);
    *lambda = ddot(n, v, 1, w, 1) / ddot(n, v, 1, v, 1);
    /* the diagonal of A through a stride of n + 1 */
    *trace_diag = ddot(n, a, n + 1, v, 0);
    dscal(n, 2.0, v);
}
