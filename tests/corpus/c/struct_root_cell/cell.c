/* A gas cell relaxed in place through a pointer, its fluxes returned through a second
   pointer; a by-value parameter struct scales the relaxation. Features: struct root
   parameters (pointer independent and dependent, pointer output-only dependent,
   by-value independent), nested struct member, array member, an int member read from
   check.toml, a member set from an int (no derivative: the varied-fields analysis drops
   it), the struct definitions in a header. */
#include <math.h>
#include "cell.h"

void relax(struct cell *c, struct fluxes *flux, struct params pv, double dt)
{
    int i, k;
    for (k = 0; k < c->nsub; k++) {
        c->rho = c->rho + dt * (c->u * c->w[0] - 0.1 * c->rho * c->rho);
        for (i = 0; i < NW; i++)
            c->w[i] = c->w[i] * exp(-dt * c->par.gamma * c->u * pv.gamma) + dt * c->rho / (i + 1);
        c->u = c->u - dt * sin(c->rho) * c->par.gamma * pv.scale;
    }
    flux->rho = c->rho * c->u;
    flux->u = c->rho * c->u * c->u + c->par.gamma * c->rho;
    for (i = 0; i < NW; i++)
        flux->w[i] = c->w[i] * c->u;
    flux->gamma = c->par.gamma * c->par.scale;
    flux->count = (double)c->nsub;
    c->age = (double)k;
}
