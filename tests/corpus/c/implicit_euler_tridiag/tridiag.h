/* Tridiagonal solver shared by the time steppers. */
#ifndef TRIDIAG_H
#define TRIDIAG_H

/* Implicitness of the diffusion term (1: implicit Euler). */
#define THETA 1.0

typedef double real_t;

/* Solves a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i] for x (Thomas algorithm). */
void tridiag_solve(int n, const real_t a[n], const real_t b[n], const real_t c[n],
                   const real_t d[n], real_t x[n]);

#endif
