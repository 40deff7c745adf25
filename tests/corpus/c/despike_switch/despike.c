/* Quality control of a sensor series before smoothing: each sample carries a flag
   (switch in a loop: `continue` skips bad samples, fall-through merges the clipped and
   the estimated cases, `break` ends the others), then a weighted three-point smoother
   over the accepted samples and a least-squares trend. */
#include <math.h>

enum qc_flag { QC_GOOD = 0, QC_SUSPECT = 1, QC_CLIPPED = 2, QC_ESTIMATED = 3, QC_BAD = 9 };

void despike(int n, const int *flag, const double *x, double y[n], double *trend,
             double *kept)
{
    double w[64];
    *kept = 0.0;
    for (int i = 0; i < n; i++) {
        y[i] = x[i];
        w[i] = 0.0;
        switch (flag[i]) {
        case QC_BAD:
            y[i] = 0.0;
            continue;
        case QC_CLIPPED:
            /* clipped at the sensor's range: soften the value first */
            y[i] = 2.0 * tanh(0.5 * x[i]);
            /* fall through */
        case QC_ESTIMATED:
            w[i] = 0.5;
            break;
        case QC_SUSPECT:
            w[i] = 0.25;
            break;
        default:
            w[i] = 1.0;
        }
        *kept += w[i];
    }
    /* weighted three-point smoother, ends unchanged */
    double prev = y[0];
    for (int i = 1; i < n - 1; i++) {
        double wsum = w[i - 1] + 2.0 * w[i] + w[i + 1];
        if (wsum <= 0.0)
            continue;
        double s = (w[i - 1] * prev + 2.0 * w[i] * y[i] + w[i + 1] * y[i + 1]) / wsum;
        prev = y[i];
        y[i] = s;
    }
    /* least-squares slope of the weighted series */
    double sw = 0.0, st = 0.0, sy = 0.0, stt = 0.0, sty = 0.0;
    for (int i = 0; i < n; i++) {
        double t = (double) i;
        sw += w[i];
        st += w[i] * t;
        sy += w[i] * y[i];
        stt += w[i] * t * t;
        sty += w[i] * t * y[i];
    }
    *trend = (sw * sty - st * sy) / (sw * stt - st * st);
}
