/* A smoothed absolute value whose smoothing comes from <float.h>: DBL_EPSILON and FLT_EPSILON
   expand (with gcc) to `((double)2.2204460492503131e-16L)`-like casts of long double
   constants, as MINPACK's dpmpar.c uses them. */
#include <float.h>
#include <math.h>

double smooth_l1(int n, const double *x)
{
    const double eps = sqrt(DBL_EPSILON) + (double)FLT_EPSILON;
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += sqrt(x[i] * x[i] + eps);
    return s;
}
