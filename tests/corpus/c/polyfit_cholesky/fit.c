/* Fits a polynomial of NCOEF coefficients to weighted samples (t, y) by the normal
   equations and returns the weighted misfit. The normal matrix and right-hand side are
   calloc'ed (they are accumulated into), the basis row malloc'ed; the sizes come from
   `m`, a local initialized once from a constant of the header. */
#include <stdlib.h>
#include "lsq.h"

real_t polyfit(int n, const real_t t[n], const real_t y[n], const real_t w[n],
               real_t coef[NCOEF])
{
    int m = NCOEF;
    real_t *ata = calloc(m * m, sizeof *ata);
    real_t *atb = calloc(m, sizeof(real_t));
    real_t *basis = malloc(m * sizeof *basis);
    real_t misfit = 0.0;

    for (int i = 0; i < n; i++) {
        basis[0] = 1.0;
        for (int k = 1; k < m; k++)
            basis[k] = basis[k - 1] * t[i];
        for (int k = 0; k < m; k++) {
            atb[k] += w[i] * basis[k] * y[i];
            for (int l = 0; l < m; l++)
                ata[k * m + l] += w[i] * basis[k] * basis[l];
        }
    }
    free(basis);
    cholesky_solve(m, ata, atb, coef);
    free(atb);
    free(ata);

    for (int i = 0; i < n; i++) {
        real_t r = y[i] - horner(m, coef, t[i]);
        misfit += w[i] * r * r;
    }
    return misfit;
}
