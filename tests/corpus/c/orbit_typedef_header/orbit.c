/* Symplectic Euler steps of a body in a softened central field. Features: a root whose
   pointer parameters have typedef'd anonymous struct types defined in a user header
   (the generated header must include it, not define the types again), an int member
   read from check.toml, an output scalar through a pointer. */
#include <math.h>
#include "orbit.h"

static double radius(const body_t *b, double soft)
{
    double r2 = soft * soft;
    int i;
    for (i = 0; i < NB; i++)
        r2 += b->pos[i] * b->pos[i];
    return sqrt(r2);
}

void advance(body_t *b, const field_t *f, double dt, double *energy)
{
    int i, k;
    double r, v2;
    for (k = 0; k < b->nsteps; k++) {
        r = radius(b, f->soft);
        for (i = 0; i < NB; i++)
            b->vel[i] -= dt * f->mu * b->pos[i] / (r * r * r);
        for (i = 0; i < NB; i++)
            b->pos[i] += dt * b->vel[i];
    }
    v2 = 0.0;
    for (i = 0; i < NB; i++)
        v2 += b->vel[i] * b->vel[i];
    *energy = 0.5 * v2 - f->mu / radius(b, f->soft);
}
