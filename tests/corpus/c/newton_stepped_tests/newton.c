/* Newton iterations for the cube roots of a batch of values, with the iteration counter
   and a budget of refinements stepped inside `if` conditions, as C solvers write them:
   `if (++iter >= maxit) break;` and `if (budget-- > 0) ... else ...`. */
#include <math.h>

static double cube_root(double a, double x0, int maxit)
{
    double x = x0;
    int iter = 0;
    for (;;) {
        double f = x * x * x - a;
        x = x - f / (3.0 * x * x);
        if (++iter >= maxit)
            break;
    }
    return x;
}

void roots(int n, const double a[n], double r[n], int budget)
{
    for (int i = 0; i < n; i++) {
        double x0 = 1.0 + 0.5 * a[i];
        if (budget-- > 0) {
            /* a refined start while the budget lasts */
            x0 = cube_root(a[i], x0, 2);
        } else {
            x0 = x0 + 0.0 * budget;
        }
        r[i] = cube_root(a[i], x0, 6);
    }
}
