/* A Burgers-like flux with a smooth viscosity term. */
#include <math.h>

double flux(double u, double speed)
{
    return speed * u + 0.5 * u * u - 0.01 * tanh(u);
}

void apply_flux(int n, const double *u, double *f, double speed)
{
    for (int i = 0; i < n; i++)
        f[i] = flux(u[i], speed);
}
