/* Polynomial and Chebyshev series evaluation with pointers walking the coefficient
   arrays backwards (`*--p`, `p--`), compared against each other on a grid: Horner's
   rule, Clenshaw's recurrence, and the coefficients of the derivative polynomial
   written through a moving output pointer. */
#include <math.h>

typedef double coef_t;

#define NGRID 9

/* sum_k c[k] x^k, from the last coefficient down. */
static double horner(int n, const coef_t *c, double x)
{
    const coef_t *p = c + n; /* one past the last coefficient */
    double s = 0.0;
    while (p > c)
        s = s * x + *--p;
    return s;
}

/* sum_k c[k] T_k(t), t in [-1, 1], by Clenshaw's recurrence. */
static double clenshaw(int n, const coef_t *c, double t)
{
    double b1 = 0.0, b2 = 0.0;
    const coef_t *p = &c[n - 1];
    for (int k = n - 1; k >= 1; k--) {
        double b0 = *p-- + 2.0 * t * b1 - b2;
        b2 = b1;
        b1 = b0;
    }
    return *p + t * b1 - b2;
}

/* dc[k] = (k + 1) c[k + 1]: the derivative's coefficients. */
static void derivative(int n, const coef_t *c, coef_t *dc)
{
    const coef_t *src = c + 1;
    for (int k = 1; k < n; k++)
        *dc++ = (coef_t) k * *src++;
}

void poly_fit_error(int n, const coef_t *c, double *misfit, double *slope_sum,
                    double values[NGRID])
{
    coef_t dc[16];
    derivative(n, c, dc);
    *misfit = 0.0;
    *slope_sum = 0.0;
    for (int j = 0; j < NGRID; j++) {
        double t = -1.0 + 2.0 * j / (NGRID - 1);
        double ph = horner(n, c, t);
        double pc = clenshaw(n, c, t);
        values[j] = ph;
        *misfit += (ph - pc) * (ph - pc);
        *slope_sum += horner(n - 1, dc, t) * cos(t);
    }
}
