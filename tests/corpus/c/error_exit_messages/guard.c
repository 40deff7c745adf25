/* Argument checks that report and exit, as C libraries write them
   (`fprintf(stderr, ...); exit(1);`), progress messages, `abs` of an int, and a function
   declared and defined with `( )`. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

double tiny ( ); /* no parameters said, as jburkardt's headers write */

static double mirror_sum(int n, const double *x)
{
    double s = 0.0;
    if (n < 1) {
        fprintf(stderr, "\n");
        fprintf(stderr, "MIRROR_SUM - Fatal error!\n  N = %d < 1\n", n);
        exit(1);
    }
    for (int i = 0; i < n; i++) {
        s += x[i] * x[abs(n - 1 - 2 * i) % n] + tiny ( ) * x[i];
    }
    return s;
}

void smooth(int n, int steps, double *u, double *energy)
{
    if (steps < 0) {
        fprintf(stderr, "SMOOTH - Fatal error!\n  STEPS = %d\n", steps);
        exit(2);
    }
    for (int k = 0; k < steps; k++) {
        for (int i = 1; i < n - 1; i++) {
            u[i] = u[i] + 0.25 * (u[i - 1] - 2.0 * u[i] + u[i + 1]) + 0.1 * sin(u[i]);
        }
        fprintf(stderr, "  step %d of %d\n", k + 1, steps);
    }
    *energy = mirror_sum(n, u);
}

double tiny ( )
{
    return 1.0e-3;
}
