/* A planar orbit integrated by leapfrog: `struct state` (position and velocity members)
   is passed by value to the energy function, which reads it, and to the kick function,
   which changes its own copy (the caller's state stays as it was) and returns a value
   from it; the model parameters go by `const` pointer. */
#include <math.h>

struct params {
    double mu;
    double j2;
};

struct state {
    double r[2];
    double v[2];
};

/* Specific orbital energy of the state. */
static double energy(struct state s, const struct params *p)
{
    double rad = sqrt(s.r[0] * s.r[0] + s.r[1] * s.r[1]);
    double kin = 0.5 * (s.v[0] * s.v[0] + s.v[1] * s.v[1]);
    return kin - p->mu / rad - p->j2 / (rad * rad * rad);
}

/* The speed after a trial kick of the state's own copy. */
static double kicked_speed(struct state s, const struct params *p, double h)
{
    double rad = sqrt(s.r[0] * s.r[0] + s.r[1] * s.r[1]);
    double f = p->mu / (rad * rad * rad);
    int k;
    for (k = 0; k < 2; k++)
        s.v[k] -= h * f * s.r[k];
    return sqrt(s.v[0] * s.v[0] + s.v[1] * s.v[1]);
}

static void step(struct state *s, const struct params *p, double h)
{
    double rad = sqrt(s->r[0] * s->r[0] + s->r[1] * s->r[1]);
    double f = p->mu / (rad * rad * rad) + 3.0 * p->j2 / (rad * rad * rad * rad * rad);
    int k;
    for (k = 0; k < 2; k++)
        s->v[k] -= 0.5 * h * f * s->r[k];
    for (k = 0; k < 2; k++)
        s->r[k] += h * s->v[k];
    rad = sqrt(s->r[0] * s->r[0] + s->r[1] * s->r[1]);
    f = p->mu / (rad * rad * rad) + 3.0 * p->j2 / (rad * rad * rad * rad * rad);
    for (k = 0; k < 2; k++)
        s->v[k] -= 0.5 * h * f * s->r[k];
}

void orbit(int nsteps, double h, const double *x0, double mu, double *e, double *speed)
{
    struct state s;
    struct params p;
    double e_sum = 0.0;
    int i;
    p.mu = mu;
    p.j2 = 0.01 * mu;
    s.r[0] = x0[0];
    s.r[1] = x0[1];
    s.v[0] = x0[2];
    s.v[1] = x0[3];
    for (i = 0; i < nsteps; i++) {
        step(&s, &p, h);
        e_sum += energy(s, &p);
    }
    *e = e_sum / nsteps;
    *speed = kicked_speed(s, &p, h) + s.v[0];
}
