/* Assignments inside conditions, as C codes test and keep a value at once: the implicit
   scaling loop of a Crout LU (`if ((temp = fabs(a[i][j])) > big) big = temp;`), a
   compound assignment tested (`if ((s += ...) > cap)`) and a halving loop
   (`while ((r *= 0.5) > tol)`). */
#include <math.h>

void scale(int n, const double *a, double *w, double *y)
{
    double big, temp, dum, s = 0.0, r = 1.0;
    for (int i = 0; i < n; i++) {
        big = 0.0;
        for (int j = 0; j < n; j++)
            if ((temp = fabs(a[i * n + j])) > big) big = temp;
        w[i] = 1.0 / big;
        if ((dum = w[i] * a[i * n + i]) >= 0.5)
            y[i] = dum * big;
        else
            y[i] = temp - dum;
        if ((s += a[i * n + i] * w[i]) > 1.5)
            y[i] += s;
    }
    while ((r *= 0.5) > 0.05 * s)
        y[0] = y[0] * r + w[n - 1];
}
