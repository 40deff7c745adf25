/* Implicit (backward Euler) nonlinear heat equation on a rod with Dirichlet ends.
   Each time step allocates its tridiagonal system on the heap: the number of interior
   unknowns is computed from the input (cells that are not fixed by the boundary), and
   the buffers are freed at the end of the step. The conductivity is lagged: it is
   computed from the previous temperatures, so each step is one linear solve. */
#include <stdlib.h>

/* Thomas algorithm on the m unknowns: sub-diagonal a, diagonal b, super-diagonal c,
   right-hand side d; the solution overwrites d. cp is scratch. */
static void thomas(int m, const double *a, const double *b, const double *c, double *d,
                   double *cp)
{
    cp[0] = c[0] / b[0];
    d[0] = d[0] / b[0];
    for (int i = 1; i < m; i++) {
        double den = b[i] - a[i] * cp[i - 1];
        cp[i] = c[i] / den;
        d[i] = (d[i] - a[i] * d[i - 1]) / den;
    }
    for (int i = m - 2; i >= 0; i--)
        d[i] -= cp[i] * d[i + 1];
}

void heat_implicit(int n, int nsteps, double u[n], double kappa, double dt, double *heat)
{
    int nfixed = 1;
    if (u[0] > 1.4)
        nfixed = 2; /* a hot end pins one more cell */
    for (int s = 0; s < nsteps; s++) {
        int m = n - nfixed - 1; /* interior unknowns, computed */
        double *a = malloc(m * sizeof *a);
        double *b = malloc(m * sizeof *b);
        double *c = malloc(m * sizeof(double));
        double *d = malloc(m * sizeof *d);
        double *cp = calloc(m, sizeof *cp);
        for (int i = 0; i < m; i++) {
            int j = i + nfixed;
            double kl = kappa * (1.0 + 0.2 * (u[j - 1] + u[j]));
            double kr = kappa * (1.0 + 0.2 * (u[j] + u[j + 1]));
            a[i] = -dt * kl;
            c[i] = -dt * kr;
            b[i] = 1.0 + dt * (kl + kr);
            d[i] = u[j];
        }
        /* the fixed ends enter the right-hand side */
        d[0] -= a[0] * u[nfixed - 1];
        d[m - 1] -= c[m - 1] * u[n - 1];
        thomas(m, a, b, c, d, cp);
        for (int i = 0; i < m; i++)
            u[i + nfixed] = d[i];
        free(cp);
        free(d);
        free(c);
        free(b);
        free(a);
    }
    *heat = 0.0;
    for (int i = 0; i < n; i++)
        *heat += u[i] * u[i];
}
