/* A packed lower-triangular update indexed the way f2c output and bit-twiddling C do:
   `(m << 1)`, `k >> 1`, parity by `i & 1`, `i ^ 1` to pair neighbours, `~i` and `|`.
   Features: integer shift and bitwise operators in subscripts, loop bounds and
   conditions, and as compound assignments (`mask <<= 1`, `mask |= 1`, `mask &= 15`,
   `mask ^= 5`, `mask >>= 1`): passive integer expressions kept as the operators. */
#include <math.h>

void packed_update(int m, double *a, const double *x, double *y)
{
    int i, j, k, len, mask;
    len = (m * ((m << 1) - m + 1)) >> 1;
    for (k = 0; k < len; k++)
        a[k] = a[k] * (1.0 + 0.1 * (k & 3)) + x[k % m] * x[(k >> 1) % m];
    for (i = 0; i < m; i++) {
        j = i ^ 1;
        if (j >= m)
            j = i;
        if ((i & 1) == 0)
            y[i] = a[i] * sin(x[j]);
        else
            y[i] = a[(i | 2) % len] * cos(x[j]) + x[i] * x[i];
        y[i] += (double)(~i & 7) * a[len - 1 - i];
    }
    mask = 1;
    for (i = 0; i < m; i++) {
        mask <<= 1;
        mask |= 1;
        mask &= 15;
        mask ^= 5;
        y[i] *= 1.0 + 0.01 * mask;
        mask >>= 1;
    }
}
