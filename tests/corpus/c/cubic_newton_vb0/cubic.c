/* Real root of a depressed cubic x^3 + p x + q = 0 per cell, by Newton's method from a
   Cardano-style guess; the solver overwrites its by-value guess and coefficients
   (scaled to a monic form), and the root is then used in a pressure-like law. */
#include <math.h>

static double newton_root(double x, double p, double q, double scale, int maxit)
{
    /* work on the scaled cubic (x/scale)^3 + ... : rescale the coefficients in place */
    p /= scale * scale;
    q /= scale * scale * scale;
    x /= scale;
    for (int it = 0; it < maxit; it++) {
        double f = x * x * x + p * x + q;
        double fp = 3.0 * x * x + p;
        double dx = f / fp;
        x -= dx;
        if (fabs(dx) < 1e-15)
            break;
    }
    return x * scale;
}

void cubic_cells(int n, const double *p, const double *q, double roots[n], double *energy)
{
    *energy = 0.0;
    for (int i = 0; i < n; i++) {
        /* p > 0: a single real root; start from -q/p, close to it for small q */
        double guess = -q[i] / (p[i] + 1.0);
        roots[i] = newton_root(guess, p[i], q[i], 2.0, 40);
        *energy += 0.5 * roots[i] * roots[i] * p[i] + atan2(q[i], p[i]);
    }
}
