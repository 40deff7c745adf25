/* Implicit midpoint steps of a stiff scalar ODE per cell, each step solved by a secant
   iteration written as `do { ... } while (--iter > 0 && fabs(dx) > tol)`: a step in the
   left operand of `&&` in a do-while condition, plus a by-value iteration budget. */
#include <math.h>

/* f(y) = -lambda (y - cos t) - y^3 */
static double rate(double y, double t, double lambda)
{
    return -lambda * (y - cos(t)) - y * y * y;
}

/* Solves y1 = y0 + h f((y0 + y1) / 2, t + h / 2) for y1, from the explicit guess. */
static double midpoint_step(double y0, double t, double h, double lambda, int iter)
{
    const double tol = 1e-13;
    double ya = y0 + h * rate(y0, t, lambda);
    double yb = ya + 1e-3;
    double ga = ya - y0 - h * rate(0.5 * (y0 + ya), t + 0.5 * h, lambda);
    double dx;
    do {
        double gb = yb - y0 - h * rate(0.5 * (y0 + yb), t + 0.5 * h, lambda);
        dx = -gb * (yb - ya) / (gb - ga);
        ya = yb;
        ga = gb;
        yb += dx;
    } while (--iter > 0 && fabs(dx) > tol);
    return yb;
}

void stiff_cells(int n, int nsteps, const double *y0, const double *lambda, double h,
                 double y_end[n], double *mean)
{
    *mean = 0.0;
    for (int i = 0; i < n; i++) {
        double y = y0[i];
        double t = 0.0;
        int step = nsteps;
        while (step-- > 0) {
            y = midpoint_step(y, t, h, lambda[i], 30);
            t += h;
        }
        y_end[i] = y;
        *mean += y / n;
    }
}
