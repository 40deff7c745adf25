/* C names are case-sensitive: `c` and `C`, `x` and `X`, `Scale` and `scale` are
   different names, and the derivative code keeps each as written. A local `Yd` stands
   where the derivative of `Y` would be named. */

static double scale(double v)
{
    return v * v;
}

static double Scale(double c, double C)
{
    (void)c;
    return 2.0 * C + scale(C);
}

void Model(int N, const double *X, const double *x, double *Y)
{
    double Yd = 0.0, yd = 1.0;
    int n = N - 1;
    for (int i = 0; i < N; i++) {
        double xi = x[i], Xi = X[i];
        Yd += Xi * xi;
        yd *= 1.0 + 0.1 * Xi;
        Y[i] = Scale(xi, Xi) + xi * Yd;
    }
    Y[n] += yd * x[0];
}
