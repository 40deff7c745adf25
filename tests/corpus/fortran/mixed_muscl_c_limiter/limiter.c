/* Limiter and flux of a MUSCL scheme, called from Fortran: states by value. */
#include <math.h>

/* A smooth van Albada slope: the mean of a and b weighted towards the smaller one. */
double van_albada(double a, double b)
{
    const double eps = 1.0e-6;
    return (a * (b * b + eps) + b * (a * a + eps)) / (a * a + b * b + 2.0 * eps);
}

/* Rusanov flux of Burgers' equation with a smoothed wave speed; the by-value states are
 * overwritten by their physical fluxes. */
void rusanov_flux(double ul, double ur, double *f)
{
    const double speed = sqrt(0.25 * (ul + ur) * (ul + ur) + 1.0e-3);
    const double jump = ur - ul;
    ul = 0.5 * ul * ul;
    ur = 0.5 * ur * ur;
    *f = 0.5 * (ul + ur) - 0.5 * speed * jump;
}
