/* Streaming smoother of a sensor signal: a moving average over a ring buffer whose write
   pointer wraps around (`if (head == end) head = buf;`), a `for` with two counters
   (`i++, xp++`), an exponential smoother in a do-while, and the lag-one
   autocorrelation of the result. */
#include <math.h>

#define WINDOW 4

void ring_smooth(int n, const double *x, double alpha, double y[n], double *autocorr)
{
    double buf[WINDOW];
    double *head = buf;
    const double *end = buf + WINDOW;
    double sum = 0.0;
    const double *xp;
    int i;
    for (i = 0; i < WINDOW; i++)
        buf[i] = x[0];
    sum = WINDOW * x[0];
    for (i = 0, xp = x; i < n; i++, xp++) {
        sum += *xp - *head; /* the oldest sample leaves, the new one enters */
        *head++ = *xp;
        if (head == end)
            head = buf;
        y[i] = sum / WINDOW;
    }
    /* exponential smoothing on top, in place, at least one pass */
    double level = y[0];
    double *yp = y;
    int k = 0;
    do {
        level = alpha * *yp + (1.0 - alpha) * level;
        *yp++ = level;
        k++;
    } while (k < n);
    double m = 0.0, c0 = 0.0, c1 = 0.0;
    for (i = 0; i < n; i++)
        m += y[i] / n;
    for (i = 0; i < n - 1; i++) {
        c0 += (y[i] - m) * (y[i] - m);
        c1 += (y[i] - m) * (y[i + 1] - m);
    }
    *autocorr = c1 / c0;
}
