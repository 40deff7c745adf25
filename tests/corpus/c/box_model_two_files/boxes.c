/* A chain of ocean boxes: the forcing and mixing coefficient are globals of this file,
   set by `set_forcing` and read by `box_step`, which another file's root calls through
   prototypes (its derivatives then reach this file's globals and their derivatives by
   `extern` declarations). */
#include <math.h>

#define NB 5

double g_forcing[NB];
double g_mix;

void set_forcing(double amp, double mix)
{
    int i;
    for (i = 0; i < NB; i++)
        g_forcing[i] = amp * sin(0.7 * (i + 1));
    g_mix = mix;
}

void box_step(double *t, double dt)
{
    double flux[NB + 1];
    int i;
    flux[0] = 0.0;
    flux[NB] = 0.0;
    for (i = 1; i < NB; i++)
        flux[i] = g_mix * (t[i - 1] - t[i]) * (1.0 + 0.1 * fabs(t[i - 1] - t[i]));
    for (i = 0; i < NB; i++)
        t[i] += dt * (flux[i] - flux[i + 1] + g_forcing[i] - 0.05 * t[i]);
}
