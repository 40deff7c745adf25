/* Weighted polynomial least squares: shared size, type, evaluation and solver. */
#ifndef LSQ_H
#define LSQ_H

#define NCOEF 3

typedef double real_t;

/* p(t) = c[0] + c[1] t + ... + c[m-1] t^(m-1), by Horner's rule. */
static inline real_t horner(int m, const real_t *c, real_t t)
{
    real_t p = c[m - 1];
    for (int k = m - 2; k >= 0; k--)
        p = p * t + c[k];
    return p;
}

void cholesky_solve(int m, real_t *a, const real_t *b, real_t *x);

#endif
