/* A function whose result is a local named as the function, as C translated from
   Fortran keeps it (AS 243's `double betain(...) { double betain; ... return betain; }`):
   the local hides the function inside it. */

static double series(double x, int n)
{
    double series = 1.0;
    double term = 1.0;
    for (int k = 1; k <= n; k++) {
        term = term * x / k;
        series = series + term;
    }
    return series;
}

void model(const double *x, double *y)
{
    y[0] = series(x[0], 8) * x[1];
    y[1] = series(x[1] * x[0], 5) - series(x[2], 3);
}
