/* Implicit Euler for the reaction-diffusion equation u_t = D u_xx - k u^2 + f(x) with
   zero Dirichlet ends; the reaction is linearized about the previous step. The three
   diagonals are calloc'ed once, the right-hand side malloc'ed and freed before the
   mass is computed. */
#include <stdlib.h>
#include <math.h>
#include "tridiag.h"

void implicit_euler(int n, int nsteps, real_t u[n], real_t diff, real_t k, real_t *mass)
{
    real_t *a = calloc(n, sizeof *a);
    real_t *b = calloc(n, sizeof *b);
    real_t *c = calloc(n, sizeof(real_t));
    real_t *rhs = malloc(n * sizeof *rhs);
    real_t h = 1.0 / (n + 1);
    real_t dt = 0.01;
    real_t r = THETA * dt * diff / (h * h);

    for (int s = 0; s < nsteps; s++) {
        for (int i = 0; i < n; i++) {
            a[i] = (i > 0) ? -r : 0.0;
            c[i] = (i < n - 1) ? -r : 0.0;
            b[i] = 1.0 + 2.0 * r + dt * k * u[i];
            rhs[i] = u[i] + dt * sin(3.0 * h * (i + 1));
        }
        tridiag_solve(n, a, b, c, rhs, u);
    }
    free(rhs);

    *mass = 0.0;
    for (int i = 0; i < n; i++)
        *mass += h * u[i] * u[i];
    free(a);
    free(b);
    free(c);
}
