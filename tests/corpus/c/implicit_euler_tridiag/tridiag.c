#include <stdlib.h>
#include "tridiag.h"

void tridiag_solve(int n, const real_t a[n], const real_t b[n], const real_t c[n],
                   const real_t d[n], real_t x[n])
{
    /* Modified coefficients, on the heap: one pair per call. */
    real_t *cp = malloc(n * sizeof *cp);
    real_t *dp = malloc(n * sizeof(real_t));

    cp[0] = c[0] / b[0];
    dp[0] = d[0] / b[0];
    for (int i = 1; i < n; i++) {
        real_t m = b[i] - a[i] * cp[i - 1];
        cp[i] = c[i] / m;
        dp[i] = (d[i] - a[i] * dp[i - 1]) / m;
    }
    x[n - 1] = dp[n - 1];
    for (int i = n - 2; i >= 0; i--)
        x[i] = dp[i] - cp[i] * x[i + 1];
    free(dp);
    free(cp);
}
