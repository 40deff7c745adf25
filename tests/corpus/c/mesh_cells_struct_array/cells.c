/* A 1-D finite-volume mesh held as an array of cell structs (state, face flux, passive
   neighbour index). The time loop passes the cells on through a driver that only
   forwards them (`struct cell c[n]`, an explicit extent), so the adjoint saves the
   members of every cell around each sweep; the flux kernel reaches a neighbour through
   its stored index, `c[c[i].right].u`. */
#include <math.h>

#define NC 6

struct cell {
    double u;
    double flux;
    double width;
    int right;
};

static void fluxes(struct cell *c, int n, double speed)
{
    int i;
    for (i = 0; i < n; i++) {
        double ul = c[i].u;
        double ur = c[c[i].right].u;
        /* A smooth upwind-like flux with a little nonlinear diffusion. */
        c[i].flux = speed * 0.5 * (ul + ur) - 0.1 * (ur - ul) * sqrt(1.0 + ul * ul);
    }
}

static void update(struct cell *c, int n, double dt)
{
    int i;
    for (i = 1; i < n; i++)
        c[i].u -= dt / c[i].width * (c[i].flux - c[i - 1].flux);
    c[0].u -= dt / c[0].width * (c[0].flux - c[n - 1].flux);
}

static void sweeps(int n, struct cell c[n], double speed, double dt, int nsteps)
{
    int s;
    for (s = 0; s < nsteps; s++) {
        fluxes(c, n, speed);
        update(c, n, dt);
    }
}

void advect(const double u0[NC], const double width[NC], double speed, double dt,
            int nsteps, double u[NC], double *mass)
{
    struct cell c[NC];
    int i;
    for (i = 0; i < NC; i++) {
        c[i].u = u0[i];
        c[i].flux = 0.0;
        c[i].width = width[i];
        c[i].right = (i + 1) % NC;
    }
    sweeps(NC, c, speed, dt, nsteps);
    *mass = 0.0;
    for (i = 0; i < NC; i++) {
        u[i] = c[i].u;
        *mass += c[i].width * c[i].u * c[i].u;
    }
}
