/* Implicit diffusion steps with Dirichlet ends: the interior tridiagonal system is solved
   by the Thomas algorithm on sub-arrays (`u + 1`, `&rhs[1]`), with the forward sweep
   written through pointers (`*(c + i)`, `*(d + i - 1)`) and the back substitution by a
   pointer walking down. */
#include <math.h>

#define NMAX 40

/* Solves a_i x_{i-1} + b_i x_i + c_i x_{i+1} = d_i, i = 0..n-1; c and d are overwritten. */
static void thomas(int n, const double *a, const double *b, double *c, double *d, double *x)
{
    *c = *c / *b;
    *d = *d / *b;
    for (int i = 1; i < n; i++) {
        double m = 1.0 / (*(b + i) - *(a + i) * *(c + i - 1));
        *(c + i) *= m;
        *(d + i) = (*(d + i) - *(a + i) * *(d + i - 1)) * m;
    }
    double *xp = x + n - 1;
    *xp = d[n - 1];
    for (int i = n - 2; i >= 0; i--) {
        xp--;
        *xp = d[i] - c[i] * xp[1];
    }
}

void implicit_diffusion(int n, int nsteps, double u[n], const double *kappa, double *flux_out)
{
    double a[NMAX], b[NMAX], c[NMAX], rhs[NMAX];
    const double dt = 0.05;
    for (int step = 0; step < nsteps; step++) {
        for (int i = 1; i < n - 1; i++) {
            double kl = 0.5 * (kappa[i - 1] + kappa[i]);
            double kr = 0.5 * (kappa[i] + kappa[i + 1]);
            a[i] = -dt * kl;
            b[i] = 1.0 + dt * (kl + kr);
            c[i] = -dt * kr;
            rhs[i] = u[i];
        }
        /* boundary values move to the right-hand side */
        rhs[1] -= a[1] * u[0];
        rhs[n - 2] -= c[n - 2] * u[n - 1];
        thomas(n - 2, a + 1, b + 1, &c[1], &rhs[1], u + 1);
    }
    *flux_out = kappa[n - 1] * (u[n - 1] - u[n - 2]) - kappa[0] * (u[1] - u[0]);
}
