/* Nonlinear 1-D diffusion on a periodic ring, explicit in time. The work arrays are
   allocated on the heap with sizes taken from the arguments and freed before return:
   the ghost-cell copy `w` is freed before the energy is computed, the fluxes after. The
   allocations are checked the usual way. */
#include <stdlib.h>
#include <math.h>

/* Conductivity grows with the temperature. */
static double conductivity(double kappa, double t)
{
    return kappa * (1.0 + 0.1 * t * t);
}

/* One explicit step: ghost cells, fluxes at the n + 1 faces, update. */
static void step(int n, double u[n], double w[], double flux[], double kappa, double dt)
{
    w[0] = u[n - 1];
    for (int i = 0; i < n; i++)
        w[i + 1] = u[i];
    w[n + 1] = u[0];
    for (int i = 0; i <= n; i++) {
        double tf = 0.5 * (w[i] + w[i + 1]);
        flux[i] = conductivity(kappa, tf) * (w[i + 1] - w[i]);
    }
    for (int i = 0; i < n; i++)
        u[i] += dt * (flux[i + 1] - flux[i]);
}

void diffuse(int n, int nsteps, double u[n], double kappa, double *energy)
{
    int nghost = n + 2;
    double *w = malloc(nghost * sizeof(double));
    double *flux = (double *) malloc(sizeof(double) * (n + 1));
    double dt = 0.2;

    if (w == NULL || !flux) {
        free(w);
        free(flux);
        *energy = -1.0;
        return;
    }

    for (int s = 0; s < nsteps; s++)
        step(n, u, w, flux, kappa, dt);
    free(w);

    /* Energy and the dissipation measured by the last fluxes. */
    *energy = 0.0;
    for (int i = 0; i < n; i++)
        *energy += u[i] * u[i] + dt * flux[i] * flux[i];
    free(flux);
}
