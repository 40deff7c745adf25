/* A matrix as Numerical Recipes in C and many C codes pass it: `double **a`, an array
   of row pointers indexed `a[i][j]`, each row its own memory; a row `a[i]` passed to a
   function taking `double *`, the matrix passed on whole. */
#include <math.h>

static double dot(int n, const double *u, const double *v)
{
    double s = 0.0;
    for (int k = 0; k < n; k++)
        s += u[k] * v[k];
    return s;
}

static void residual(int n, double **a, const double *x, const double *b, double *r)
{
    for (int i = 0; i < n; i++)
        r[i] = dot(n, a[i], x) - b[i];
}

/* The outer product of the residual with itself, damped, into the rows of `m`. */
static void outer(int n, const double *r, double **m)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            m[i][j] = r[i] * r[j] / (1.0 + m[i][j] * m[i][j]);
}

/* Least-squares misfit of a x = b with a damped matrix: the rows of `a` are read only;
   `m` is read and overwritten twice, so the adjoint saves it whole. */
void misfit(int n, double **a, const double *x, const double *b, double *r, double *f,
            double **m)
{
    residual(n, a, x, b, r);
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += r[i] * r[i] + 0.1 * a[i][i] * sin(a[i][(i + 1) % n] * x[i]);
    *f = 0.5 * s;
    outer(n, r, m);
    outer(n, x, m);
    m[0][n - 1] += *f;
}
