/* Weighted statistics of a sample: mean, variance, a robust spread, and the
   correlation of two series, written with float and double typedefs, `(real_t)` and
   `(int)` casts, a moving pointer over the weights and a switch choosing the
   normalization of the variance. */
#include <math.h>

typedef double real_t;
typedef float weight_t;

enum { POPULATION = 0, SAMPLE = 1, RELIABILITY = 2 };

static real_t weighted_mean(int n, const real_t *x, const weight_t *w, real_t *wsum)
{
    real_t s = 0.0;
    const weight_t *wp = w;
    *wsum = 0.0;
    for (int i = 0; i < n; i++) {
        s += (real_t) *wp * x[i];
        *wsum += (real_t) *wp++;
    }
    return s / *wsum;
}

static real_t weighted_var(int n, const real_t *x, const weight_t *w, int kind)
{
    real_t wsum, w2 = 0.0, ss = 0.0;
    real_t mu = weighted_mean(n, x, w, &wsum);
    for (int i = 0; i < n; i++) {
        real_t d = x[i] - mu;
        ss += (real_t) w[i] * d * d;
        w2 += (real_t) w[i] * (real_t) w[i];
    }
    real_t denom;
    switch (kind) {
    case POPULATION:
        denom = wsum;
        break;
    case SAMPLE:
        denom = wsum - 1.0;
        break;
    case RELIABILITY:
        denom = wsum - w2 / wsum;
        break;
    default:
        denom = (real_t) n;
        break;
    }
    return ss / denom;
}

void weighted_stats(int n, const real_t *x, const real_t *y, const weight_t w[n],
                    real_t var3[3], real_t *corr, real_t *spread)
{
    real_t wsum;
    for (int kind = POPULATION; kind <= RELIABILITY; kind++)
        var3[kind] = weighted_var(n, x, w, kind);
    real_t mx = weighted_mean(n, x, w, &wsum);
    real_t my = weighted_mean(n, y, w, &wsum);
    real_t sxy = 0.0, syy = 0.0;
    for (int i = 0; i < n; i++) {
        sxy += (real_t) w[i] * (x[i] - mx) * (y[i] - my);
        syy += (real_t) w[i] * (y[i] - my) * (y[i] - my);
    }
    *corr = sxy / sqrt(var3[POPULATION] * wsum * syy);
    /* spread: mean absolute deviation about the median-ish middle element */
    int mid = (int) (0.5 * n);
    *spread = 0.0;
    for (int i = 0; i < n; i++)
        *spread += fabs(x[i] - x[mid] + 10.0) / n;
}
