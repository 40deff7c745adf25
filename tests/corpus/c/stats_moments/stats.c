/* Robust moments of a sample: functions nested in calls, results through pointers, an
   if / else-if / else chain, ?:, *=, /=, pre-increment, pow with an integer power, fmin. */
#include <math.h>

static double mean(int n, const double *x)
{
    double s = 0.0;
    for (int i = 0; i < n; ++i)
        s += x[i];
    return s / (double)n;
}

static double central(int n, const double *x, double mu, int p)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += pow(x[i] - mu, p);
    return s / (double)n;
}

void moments(int n, const double *x, double clip, double *var, double *skew, double *score)
{
    const double mu = mean(n, x);
    *var = central(n, x, mu, 2);
    *skew = central(n, x, mu, 3) / pow(*var, 1.5);
    double s = 1.0;
    int outliers = 0;
    for (int i = 0; i < n; i++) {
        const double z = (x[i] - mu) / sqrt(*var);
        if (z > clip) {
            ++outliers;
            s *= 1.0 + 0.1 * fmin(z - clip, 1.0);
        } else if (z < -clip) {
            ++outliers;
            s /= 1.0 + 0.1 * fmin(-clip - z, 1.0);
        } else {
            s *= outliers > 2 ? 1.0 : 1.0 + 0.01 * z * z;
        }
    }
    *score = log(s) + mu;
}
