#include <math.h>
#include "lsq.h"

/* Solves a x = b for a symmetric positive definite a (row-major, m x m): a is overwritten
   by its Cholesky factor L, then L z = b and L^T x = z. */
void cholesky_solve(int m, real_t *a, const real_t *b, real_t *x)
{
    for (int j = 0; j < m; j++) {
        real_t s = a[j * m + j];
        for (int k = 0; k < j; k++)
            s -= a[j * m + k] * a[j * m + k];
        real_t d = sqrt(s);
        a[j * m + j] = d;
        for (int i = j + 1; i < m; i++) {
            real_t t = a[i * m + j];
            for (int k = 0; k < j; k++)
                t -= a[i * m + k] * a[j * m + k];
            a[i * m + j] = t / d;
        }
    }
    for (int i = 0; i < m; i++) {
        real_t t = b[i];
        for (int k = 0; k < i; k++)
            t -= a[i * m + k] * x[k];
        x[i] = t / a[i * m + i];
    }
    for (int i = m - 1; i >= 0; i--) {
        real_t t = x[i];
        for (int k = i + 1; k < m; k++)
            t -= a[k * m + i] * x[k];
        x[i] = t / a[i * m + i];
    }
}
