/* Output arrays through plain pointers, as C numerical code writes them. `square` writes
   every element of y and never reads it: no size is needed. `smooth` accumulates into
   acc (read before written) and rescales y in place through a helper whose call the
   adjoint re-runs: adgen must zero accb and save y and v, so ad.toml gives their sizes. */
#include <math.h>

void square(int n, const double *x, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] * x[i];
}

static void rescale(int n, double *v, double s)
{
    for (int i = 0; i < n; i++)
        v[i] = s * sin(v[i]);
}

void smooth(int n, const double *x, double *y, double *acc)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] * x[i] + 1.0;
    rescale(n, y, 0.5);
    rescale(n, y, 0.7);
    for (int i = 0; i < n; i++)
        acc[i] += y[i] * x[i];
}
