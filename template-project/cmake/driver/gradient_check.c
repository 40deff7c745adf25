/* Checks the adjoint that adgen generates for src/rosenbrock.f90: its gradient against
 * central finite differences and against the tangent (the dot-product test).
 * Exit status 0 when both agree, 1 otherwise; `ctest` runs it. */
#include <math.h>
#include <stdio.h>

/* gfortran's convention: lower-case name + `_`, every argument by reference. adgen's
 * derivatives follow each differentiated argument by its derivative. */
void rosenbrock_(const int *n, const double *x, double *f);
void rosenbrock_d_(const int *n, const double *x, const double *xd, double *f, double *fd);
void rosenbrock_b_(const int *n, double *x, double *xb, double *f, double *fb);

#define N 6

static double cost(const double *x) {
    int n = N;
    double f = 0.0;
    rosenbrock_(&n, x, &f);
    return f;
}

int main(void) {
    int n = N, failures = 0;
    double x[N], xb[N] = {0}, f = 0.0, fb = 1.0;
    for (int i = 0; i < N; i++) x[i] = 0.3 + 0.15 * i - 0.05 * (i % 2);

    double x_copy[N];
    for (int i = 0; i < N; i++) x_copy[i] = x[i];
    rosenbrock_b_(&n, x_copy, xb, &f, &fb);

    /* Adjoint against central finite differences. */
    const double h = 1e-6;
    for (int i = 0; i < N; i++) {
        double xp[N], xm[N];
        for (int k = 0; k < N; k++) xp[k] = xm[k] = x[k];
        xp[i] += h;
        xm[i] -= h;
        double fd = (cost(xp) - cost(xm)) / (2.0 * h);
        int ok = fabs(xb[i] - fd) <= 1e-6 * fmax(1.0, fabs(fd));
        printf("df/dx[%d]  adjoint %+.12e  finite differences %+.12e  %s\n", i, xb[i], fd,
               ok ? "ok" : "MISMATCH");
        failures += !ok;
    }

    /* Tangent against adjoint: fd . 1 direction = gradient . direction. */
    double xd[N], fdot = 0.0, dot = 0.0;
    for (int i = 0; i < N; i++) {
        xd[i] = (double)((i * 7) % 5 - 2) / 3.0;
        dot += xb[i] * xd[i];
    }
    rosenbrock_d_(&n, x, xd, &f, &fdot);
    int ok = fabs(fdot - dot) <= 1e-10 * fmax(fabs(fdot), fabs(dot));
    printf("tangent %+.15e  adjoint . direction %+.15e  %s\n", fdot, dot,
           ok ? "ok" : "MISMATCH");
    failures += !ok;

    printf(failures ? "FAILED\n" : "gradient check passed\n");
    return failures ? 1 : 0;
}
