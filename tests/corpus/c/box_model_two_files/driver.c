/* The root of the box model, in a file of its own: prototypes of the other file's
   functions, a local `struct stats` filled by a helper through a pointer. */
#include <math.h>

#define NB 5

struct stats {
    double mean;
    double spread;
};

void set_forcing(double amp, double mix);
void box_step(double *t, double dt);

static void summarize(const double *t, struct stats *s)
{
    int i;
    s->mean = 0.0;
    for (i = 0; i < NB; i++)
        s->mean += t[i] / NB;
    s->spread = 0.0;
    for (i = 0; i < NB; i++)
        s->spread += (t[i] - s->mean) * (t[i] - s->mean);
    s->spread = sqrt(s->spread / NB);
}

void run_boxes(int nsteps, double dt, double amp, double mix, const double *t0,
               double t[5], double *score)
{
    struct stats st;
    int i, s;
    set_forcing(amp, mix);
    for (i = 0; i < NB; i++)
        t[i] = t0[i];
    for (s = 0; s < nsteps; s++)
        box_step(t, dt);
    summarize(t, &st);
    *score = st.mean + 0.5 * st.spread;
}
