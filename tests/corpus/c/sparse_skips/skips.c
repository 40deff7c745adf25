/* A weighted sum over an index list with skips and an early stop: `continue` and
   `break` in a counted loop, a while loop with continue, a stride-2 loop, %, a
   halving loop with continue. */
#include <math.h>

void skips(int n, const int *idx, const double *x, double *total, double *peak)
{
    int i;
    *total = 0.0;
    *peak = -1.0e30;
    for (i = 0; i < n; i++) {
        const int k = idx[i];
        if (k < 0)
            continue;
        if (k >= n)
            break;
        *total += x[k] * exp(-0.1 * i);
        *peak = fmax(*peak, x[k] * x[k]);
    }
    int j = 0;
    while (j < n) {
        j++;
        if (j % 3 == 0)
            continue;
        *total += 0.01 * sin(x[j - 1]);
    }
    for (i = 0; i < n; i += 2)
        *total -= 0.001 * x[i] * x[n - 1 - i];
    /* halving steps: not a counted loop, and its continue must reach k /= 2 */
    for (int k = n - 1; k > 0; k /= 2) {
        if (k % 2 == 0)
            continue;
        *total += 0.05 * x[k] * x[k];
    }
}
