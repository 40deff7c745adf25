/* A Euclidean norm accumulated in scaled form, the way MINPACK's enorm guards against
   overflow: the components are first multiplied by a huge factor, and each is divided by
   the running maximum instead of being squared. The derivative of xmax/xa with respect
   to xa must not square xa (1e320 overflows to infinity and the derivative would be
   silently lost); the same for a tiny factor, where the square underflows. */
#include <math.h>

static double scaled(int n, const double *x, double factor)
{
    double xmax = 0.0, s = 0.0;
    for (int i = 0; i < n; i++) {
        const double xa = fabs(x[i]) * factor;
        if (xa > xmax) {
            s = 1.0 + s * (xmax / xa) * (xmax / xa);
            xmax = xa;
        } else if (xa != 0.0) {
            s += (xa / xmax) * (xa / xmax);
        }
    }
    return xmax * sqrt(s) / factor;
}

double norms(int n, const double *x)
{
    return scaled(n, x, 1e160) + 2.0 * scaled(n, x, 1e-160);
}
