/* Assembles a small diagonally dominant system in a local 2-D array and solves it by
   Gaussian elimination without pivoting, then back substitution with a reverse loop. */
#include <math.h>

#define N 5

void gauss(const double *coef, const double *rhs, double sol[N])
{
    double a[N][N];
    double b[N];
    int i, j, k;
    for (i = 0; i < N; i++) {
        for (j = 0; j < N; j++) {
            a[i][j] = (i == j) ? 4.0 + coef[i] : 0.3 * coef[(i + j) % N] / (1.0 + (double)(i > j ? i - j : j - i));
        }
        b[i] = rhs[i];
    }
    for (k = 0; k < N - 1; k++) {
        for (i = k + 1; i < N; i++) {
            const double factor = a[i][k] / a[k][k];
            for (j = k; j < N; j++)
                a[i][j] -= factor * a[k][j];
            b[i] -= factor * b[k];
        }
    }
    for (i = N - 1; i >= 0; i--) {
        double s = b[i];
        for (j = i + 1; j < N; j++)
            s -= a[i][j] * sol[j];
        sol[i] = s / a[i][i];
    }
}
