/* Stokes settling of a few spheres with a Reynolds-number correction, reading the model
   constants another file defines (through `extern` declarations in model.h), and
   accumulating the drag work in a global of that file. */
#include <math.h>
#include "model.h"

static double velocity(double rho_p, double radius)
{
    double vs = 2.0 / 9.0 * (rho_p - g_rho_fluid) * g_grav * radius * radius / g_visc;
    double re = g_rho_fluid * vs * 2.0 * radius / g_visc;
    return vs / (1.0 + 0.15 * pow(re, 0.687));
}

static void step(int i, double rho_p, double dt, double *depth)
{
    double v = velocity(rho_p, g_radius[i]);
    *depth += dt * v;
    g_drag_work += 6.0 * 3.14159265358979 * g_visc * g_radius[i] * v * v * dt;
}

void settle(int nsteps, double dt, const double *rho_p, const double *r, double visc,
            double rho_fluid, double depth[NP], double *work)
{
    int i, s;
    set_model(visc, rho_fluid);
    set_radii(r);
    for (i = 0; i < NP; i++)
        depth[i] = 0.0;
    for (s = 0; s < nsteps; s++)
        for (i = 0; i < NP; i++)
            step(i, rho_p[i], dt, &depth[i]);
    *work = g_drag_work;
}
