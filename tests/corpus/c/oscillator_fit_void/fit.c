/* Least-squares misfit of a damped oscillator, in the callback style of C optimization
   libraries: the objective receives arguments it does not use (a verbosity flag, a work
   size) and silences them with (void) casts, as real code does; a bare expression
   statement and a void cast of an increment are there too. */
#include <math.h>

static double response(double t, const double p[3])
{
    return p[0] * exp(-p[1] * t) * cos(p[2] * t);
}

double misfit(int n, const double p[3], const double tobs[n], const double yobs[n],
              int verbose, int nwork)
{
    (void)verbose;
    (void)nwork;
    double s = 0.0;
    int used = 0;
    for (int i = 0; i < n; ++i) {
        double r = response(tobs[i], p) - yobs[i];
        (void)(r * r); /* a leftover of debugging: no effect */
        s += r * r;
        (void)used++;
    }
    return 0.5 * s / used;
}
