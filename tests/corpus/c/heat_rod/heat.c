/* Explicit finite differences for the heat equation on a rod with fixed ends:
   a time loop over a stencil kernel, a local work array, by-value coefficients. */
#include <math.h>

#define NMAX 64

static const double cfl = 0.2; /* stable for cfl <= 0.5 */

static void stencil(int n, const double *u, double *unew, double r)
{
    unew[0] = u[0];
    unew[n - 1] = u[n - 1];
    for (int i = 1; i < n - 1; i++) {
        unew[i] = u[i] + r * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
    }
}

void heat(int n, int nsteps, double *u, double kappa, double *energy)
{
    double work[NMAX];
    const double dx = 1.0 / (n - 1);
    const double dt = cfl * dx * dx;
    double r = kappa * dt / (dx * dx);
    int step;

    for (step = 0; step < nsteps; ++step) {
        stencil(n, u, work, r);
        for (int i = 0; i < n; i++)
            u[i] = work[i];
    }
    *energy = 0.0;
    for (int i = 0; i < n; i++) {
        *energy += 0.5 * u[i] * u[i] * dx;
    }
}
