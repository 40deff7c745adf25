/* The library: the three functions and their derivatives as a user writes them, with
   the signatures adgen declares (INTERFACE.md §3). */
#include <math.h>

void lib_sqaxpy(int n, double a, const double *x, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] += a * x[i] * x[i];
}

void lib_sqaxpy_d(int n, double a, double ad, const double *x, const double *xd, double *y,
                  double *yd)
{
    for (int i = 0; i < n; i++) {
        yd[i] += ad * x[i] * x[i] + 2.0 * a * x[i] * xd[i];
        y[i] += a * x[i] * x[i];
    }
}

/* Called with the inputs as they were before the call: takes the adjoints after it and
   leaves those before it. */
void lib_sqaxpy_b(int n, double a, double *ab, const double *x, double *xb, double *y,
                  double *yb)
{
    (void)y;
    for (int i = 0; i < n; i++) {
        *ab += x[i] * x[i] * yb[i];
        xb[i] += 2.0 * a * x[i] * yb[i];
    }
}

double lib_wnorm(int n, const double *x)
{
    double s = 1.0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return sqrt(s);
}

/* Named in ad.toml: returns the derivative and stores the value in its last argument. */
double wnorm_tangent(int n, const double *x, const double *xd, double *w)
{
    double s = 0.0;
    *w = lib_wnorm(n, x);
    for (int i = 0; i < n; i++)
        s += x[i] * xd[i];
    return s / *w;
}

void wnorm_gradient(int n, const double *x, double *xb, double *wb)
{
    double w = lib_wnorm(n, x);
    for (int i = 0; i < n; i++)
        xb[i] += x[i] / w * *wb;
}

double Lib_soft(double v)
{
    return log(1.0 + exp(v));
}

double Lib_soft_d(double v, double vd, double *r)
{
    *r = Lib_soft(v);
    return vd / (1.0 + exp(-v));
}

void Lib_soft_b(double v, double *vb, double *rb)
{
    *vb += *rb / (1.0 + exp(-v));
}
