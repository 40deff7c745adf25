/* Coefficient tables in `static` locals, as C numerical code keeps them (AS 241's
   `static double a[8] = {...};`): read only, passed to a function that reads them, they
   hold the same values at every call. */

static double poly(int n, double c[], double x)
{
    double v = c[n - 1];
    for (int i = n - 2; 0 <= i; i--)
        v = v * x + c[i];
    return v;
}

void approx(int n, const double *x, double *y)
{
    static double a[4] = {1.0, -0.5, 0.25, -0.125};
    static double b[3] = {2.0, 0.75, 0.1};
    static double scale = 1.5;
    for (int i = 0; i < n; i++)
        y[i] = scale * poly(4, a, x[i]) / poly(3, b, x[i] * x[i]) + a[3] * x[i];
}
