/* A damped fixed-point iteration x = cos(a x) + 2b in a do-while loop: `continue`
   inside it goes to the test, a convergence test with && and fabs, scalar results
   through pointers read back with *x. */
#include <math.h>

void fixed_point(double a, double b, double *x, double *energy)
{
    double xold;
    int k = 0;
    do {
        xold = *x;
        *x = 0.5 * (*x) + 0.5 * cos(a * (*x)) + b;
        k++;
        if (k < 5)
            continue; /* no damping in the first iterations */
        *x = 0.9 * (*x) + 0.1 * xold;
    } while (fabs(*x - xold) > 1e-13 && k < 500);
    *energy = (*x) * (*x) + a * b;
}
