/* Three cells exchanging mass: `struct cell` mixes members that carry derivatives
   (density, momentum) with real members that never do (a cell centre computed from the
   integer index, a real update counter, a capacity set from a constant) and an int; the
   global `struct params` holds one active coefficient (copied from an independent) and
   two constants. The derivative structs `cell_d`/`cell_b` and `params_d`/`params_b` hold
   only the active members (tests/active_fields.rs checks the generated text). Cells are
   passed by pointer, copied whole, and read through a function. */
#include <math.h>

#define NC 3

struct params {
    double visc;
    double cfl;
    double gamma;
};

struct cell {
    double rho;
    double mom;
    double xc;
    double nupd;
    double cap;
    int id;
};

struct params g_par;

static void set_params(double visc)
{
    g_par.visc = visc;
    g_par.cfl = 0.4;
    g_par.gamma = 1.4;
}

static void init_cell(struct cell *c, int i, double rho0, double u0)
{
    c->id = i;
    c->xc = (i + 0.5) / NC;
    c->rho = rho0 * (1.0 + 0.1 * sin(6.0 * c->xc));
    c->mom = c->rho * u0;
    c->nupd = 0.0;
    c->cap = 2.0 + c->xc;
}

static double pressure(const struct cell *c)
{
    double u = c->mom / c->rho;
    return (g_par.gamma - 1.0) * c->rho * (1.0 + 0.5 * u * u) / c->cap;
}

static void relax(struct cell *a, struct cell *b, double dt)
{
    double pa = pressure(a);
    double pb = pressure(b);
    double flux = g_par.visc * (b->rho - a->rho) + g_par.cfl * (pb - pa);
    a->rho += dt * flux;
    b->rho -= dt * flux;
    a->mom *= 1.0 - dt * g_par.visc * a->xc;
    a->nupd += 1.0;
    b->nupd = b->nupd + 1.0;
}

void evolve(int nsteps, double dt, double rho0, double u0, double visc, double *mass,
            double *work)
{
    struct cell a, b, c, saved;
    int s;
    set_params(visc);
    init_cell(&a, 0, rho0, u0);
    init_cell(&b, 1, rho0, u0);
    init_cell(&c, 2, rho0, u0);
    for (s = 0; s < nsteps; s++) {
        relax(&a, &b, dt);
        relax(&b, &c, dt);
        relax(&c, &a, dt);
    }
    saved = c;
    *mass = a.rho + b.rho + saved.rho;
    *work = a.mom * b.mom + pressure(&saved) + saved.xc * a.rho / (1.0 + a.nupd);
}
