/* One damped gradient-descent step on a regularized Rosenbrock-like cost: the cost
   function fills its gradient only when the caller asks for it (`grad` may be NULL), the
   line search calls it without a gradient, the step with one, and a smoothing penalty
   adds its own gradient only when given a buffer. */
#include <math.h>
#include <stddef.h>

#define N 6

static double penalty(const double *x, int n, double lam, double grad[N])
{
    double p = 0.0;
    int i;
    for (i = 0; i + 1 < n; i++) {
        double d = x[i + 1] - x[i];
        p += lam * d * d;
        if (grad) {
            grad[i] -= 2.0 * lam * d;
            grad[i + 1] += 2.0 * lam * d;
        }
    }
    return p;
}

static double cost(const double *x, int n, double a, double grad[N])
{
    double f = 0.0;
    int i;
    if (grad != NULL) {
        for (i = 0; i < n; i++)
            grad[i] = 0.0;
    }
    for (i = 0; i + 1 < n; i++) {
        double u = a - x[i];
        double v = x[i + 1] - x[i] * x[i];
        f += u * u + 10.0 * v * v;
        if (grad != NULL) {
            grad[i] += -2.0 * u - 40.0 * v * x[i];
            grad[i + 1] += 20.0 * v;
        }
    }
    return f + penalty(x, n, 0.1, grad);
}

/* The cost along the direction d, at step t: no gradient needed. */
static double along(const double *x, const double *d, int n, double a, double t)
{
    double y[N];
    int i;
    for (i = 0; i < n; i++)
        y[i] = x[i] - t * d[i];
    return cost(y, n, a, NULL);
}

void descend(int n, const double x0[N], double a, double x1[N], double *f1)
{
    double g[N];
    double f0, fa, fb, t;
    int i;
    f0 = cost(x0, n, a, g);
    fa = along(x0, g, n, a, 0.001);
    fb = along(x0, g, n, a, 0.002);
    /* A step from the parabola through the three values. */
    t = 0.001 * (3.0 * f0 - 4.0 * fa + fb) / (2.0 * (f0 - 2.0 * fa + fb) + 1.0e-3 * f0);
    for (i = 0; i < n; i++)
        x1[i] = x0[i] - t * g[i];
    *f1 = cost(x1, n, a, NULL);
}
