/* Right-hand side of a reaction-diffusion chain: decay k[i] y[i]^2, diffusion to the
 * neighbours (no flux at the ends) and a weak nonlinear source. */
#include <math.h>

void chain_rhs(int n, const double k[n], const double y[n], double f[n])
{
    int i;
    for (i = 0; i < n; i++) {
        double left = i > 0 ? y[i - 1] : y[i];
        double right = i < n - 1 ? y[i + 1] : y[i];
        f[i] = -k[i] * y[i] * y[i] + 0.8 * (left - 2.0 * y[i] + right) + 0.1 * sin(y[i]);
    }
}

double chain_energy(int n, const double y[n])
{
    double e = 0.0;
    int i;
    for (i = 0; i < n; i++)
        e += 0.5 * y[i] * y[i] + 0.25 * log(1.0 + y[i] * y[i]);
    return e;
}
