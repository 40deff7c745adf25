/* A gas cell advanced in place through a pointer, with nested parameters. The roots
   name members, not whole structs, as independents and dependents, written as C
   writes them (`c.par.gamma`, `c.w`, `out.rho`). A second root takes the whole cell
   as independent, so the derivative struct keeps every member: the first root must
   take the derivatives of the members it does not name as zero. */
#include <math.h>

#define NW 3

struct params {
    double gamma;
    double scale;
};

struct cell {
    double rho;
    double u;
    double w[NW];
    struct params par;
    int nsub;
};

struct fluxes {
    double rho;
    double u;
};

void advance(struct cell *c, struct fluxes *out, double dt)
{
    int i, k;
    for (k = 0; k < c->nsub; k++) {
        c->rho = c->rho + dt * (c->u * c->w[0] - 0.1 * c->rho * c->rho);
        for (i = 0; i < NW; i++)
            c->w[i] = c->w[i] * exp(-dt * c->par.gamma * c->u) + dt * c->rho / (i + 1);
        c->u = c->u - dt * sin(c->rho) * c->par.gamma * c->par.scale;
    }
    out->rho = c->rho * c->u;
    out->u = c->rho * c->u * c->u + c->par.gamma * c->rho;
}

double energy(const struct cell *c)
{
    double e = 0.5 * c->rho * c->u * c->u + c->par.gamma * c->par.scale;
    int i;
    for (i = 0; i < NW; i++)
        e += c->w[i] * c->w[i];
    return e;
}
