/* Functions calling functions: static helpers returning values used inside larger
   expressions, by-value arguments that are expressions, a function in a loop, and a
   double-returning root. */
#include <math.h>

static double softplus(double z)
{
    return log(1.0 + exp(z));
}

static double layer(int m, const double *w, const double *in, double b)
{
    double z = b;
    for (int j = 0; j < m; j++)
        z += w[j] * in[j];
    return softplus(z);
}

static void normalize(int m, double *v)
{
    double s = 0.0;
    for (int j = 0; j < m; j++)
        s += v[j] * v[j];
    s = sqrt(s);
    for (int j = 0; j < m; j++)
        v[j] /= s;
}

double network(int m, const double *w1, const double *w2, const double *input, double scale)
{
    double hidden[4];
    double in[4];
    for (int j = 0; j < m; j++)
        in[j] = input[j];
    normalize(m, in);
    for (int k = 0; k < 4; k++)
        hidden[k] = layer(m, &w1[k * m], in, 0.1 * k);
    return scale * layer(4, w2, hidden, softplus(2.0 * scale) - 1.0) + 0.5 * softplus(hidden[0] * scale);
}
