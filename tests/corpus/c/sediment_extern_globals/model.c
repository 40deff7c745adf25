/* The definitions of the shared globals, and the functions that set them. */
#include "model.h"

double g_visc = 1.0e-3;
double g_rho_fluid = 1000.0;
double g_grav = 9.81;
double g_drag_work;
double g_radius[NP];

void set_model(double visc, double rho_fluid)
{
    g_visc = visc;
    g_rho_fluid = rho_fluid;
    g_drag_work = 0.0;
}

void set_radii(const double *r)
{
    int i;
    for (i = 0; i < NP; i++)
        g_radius[i] = r[i];
}
