/* Kepler's equation E - e sin E = M solved by Newton's method: a while loop with a
   convergence break, fabs, an iteration counter, results through pointers. */
#include <math.h>

static double kepler_residual(double ecc_anom, double ecc, double mean_anom)
{
    return ecc_anom - ecc * sin(ecc_anom) - mean_anom;
}

void kepler(double mean_anom, double ecc, double *ecc_anom, double *radius, int *iters)
{
    double e_k = mean_anom + ecc * sin(mean_anom);
    int k = 0;
    while (k < 50) {
        const double f = kepler_residual(e_k, ecc, mean_anom);
        const double fp = 1.0 - ecc * cos(e_k);
        double delta = f / fp;
        e_k -= delta;
        k++;
        if (fabs(delta) < 1e-14)
            break;
    }
    *ecc_anom = e_k;
    *radius = 1.0 - ecc * cos(e_k);
    *iters = k;
}
