/* Log-likelihood terms built from math.h's special functions: the Student-t and gamma
   log-densities (lgamma, tgamma, log1p), a normal CDF through erfc, and the rest of C99's
   differentiable functions (expm1, exp2, log2, cbrt, asinh, acosh, atanh, hypot, fma,
   fdim, copysign). ceil, trunc and round steer an integer weight: piecewise
   constant, kept as written, no derivative. */
#include <math.h>

double loglik(int n, const double *x, double nu, double shape, double rate)
{
    double total = 0.0;
    for (int i = 0; i < n; i++) {
        const double z = x[i];
        /* Student t with nu degrees of freedom */
        total += lgamma(0.5 * (nu + 1.0)) - lgamma(0.5 * nu) - 0.5 * log(nu * 3.141592653589793)
                 - 0.5 * (nu + 1.0) * log1p(z * z / nu);
        /* gamma density of |z| + 1 */
        const double g = fabs(z) + 1.0;
        total += shape * log(rate) - log(tgamma(shape)) + (shape - 1.0) * log(g) - rate * g;
        /* normal CDF */
        total += log(0.5 * erfc(-z / sqrt(2.0)));
        total += erf(0.3 * z) + expm1(0.1 * z) + exp2(0.2 * z) + log2(g) + cbrt(z + 3.0);
        total += asinh(z) + acosh(g + 1.0) + atanh(0.5 * tanh(z));
        total += hypot(z, nu) + fma(z, shape, rate) + fdim(z, 0.1) + copysign(z, rate - 1.0);
        const double k = ceil(z) + trunc(2.0 * z) + round(z);
        total += k * z;
    }
    return total;
}
