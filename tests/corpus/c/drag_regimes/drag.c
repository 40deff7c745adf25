/* Drag on a sphere with piecewise regimes chosen by the Reynolds number: an
   else-if chain, ?:, fmax/fmin, pow, hypot, atan2, tanh, log10, sqrt. */
#include <math.h>

static const double pi = 3.141592653589793;
const float stokes_limit = 1.0f;

static double drag_coefficient(double re)
{
    double cd;
    if (re < stokes_limit) {
        cd = 24.0 / re;
    } else if (re < 1000.0) {
        cd = 24.0 / re * (1.0 + 0.15 * pow(re, 0.687));
    } else if (re < 2.0e5) {
        cd = 0.44;
    } else {
        cd = 0.1 + 0.34 * tanh(log10(re) - 5.3);
    }
    return cd;
}

void drag(int n, const double *vx, const double *vy, const double *diam, double rho,
          double mu, double force[n], double angle[n])
{
    for (int i = 0; i < n; i++) {
        const double speed = hypot(vx[i], vy[i]);
        const double re = fmax(rho * speed * diam[i] / mu, 1e-3);
        const double area = 0.25 * pi * diam[i] * diam[i];
        double cd = drag_coefficient(re);
        cd = re > 5.0e4 ? fmin(cd, 0.5) : cd;
        force[i] = 0.5 * rho * cd * area * speed * speed;
        angle[i] = atan2(vy[i], vx[i]) + sqrt(cd) * 0.01;
    }
}
