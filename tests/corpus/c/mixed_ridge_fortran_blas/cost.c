/* Ridge-regression cost of a small nonlinear model r = gain A tanh(w) - b, written in C on
 * top of BLAS-like kernels written in Fortran with BIND(C): a C root differentiated
 * through Fortran callees. */
#include <math.h>

#define MMAX 32

/* Fortran kernels (kernels.f90). */
void gemv_tanh_acc(int m, int n, double alpha, const double *a, const double *x, double *y);
double dot(int n, const double *x, const double *y);
void scale(int n, double alpha, double *x);

double ridge_cost(int m, int n, const double *a, const double w[n], const double b[m],
                  double gain, double lambda)
{
    double r[MMAX];
    double fit, reg;
    int i;
    for (i = 0; i < m; i++)
        r[i] = -b[i];
    gemv_tanh_acc(m, n, gain, a, w, r);
    scale(m, 1.0 / sqrt((double)m), r);
    fit = dot(m, r, r);
    reg = dot(n, w, w);
    return 0.5 * fit + 0.5 * lambda * reg + log(1.0 + lambda * reg);
}
