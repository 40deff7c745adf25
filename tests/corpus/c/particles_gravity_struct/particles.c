/* A small particle system: `struct particle` with array members for position and
   velocity, a global gravity vector and drag coefficient set by an initialization
   function, particles passed by pointer to the force and update kernels, a struct local
   copied whole, and a global energy accumulator written by one function and read by
   another. */
#include <math.h>

#define NP 4

struct particle {
    double x[3];
    double v[3];
    double m;
    int id;
};

double g_gravity[3];
double g_drag;
double g_energy;

static void set_environment(double gz, double drag)
{
    g_gravity[0] = 0.0;
    g_gravity[1] = 0.1 * gz;
    g_gravity[2] = -gz;
    g_drag = drag;
    g_energy = 0.0;
}

/* Quadratic drag plus gravity, integrated with one explicit Euler step. */
static void advance(struct particle *p, double dt)
{
    double speed = sqrt(p->v[0] * p->v[0] + p->v[1] * p->v[1] + p->v[2] * p->v[2]);
    int k;
    for (k = 0; k < 3; k++) {
        double acc = g_gravity[k] - g_drag / p->m * speed * p->v[k];
        p->v[k] += dt * acc;
        p->x[k] += dt * p->v[k];
    }
}

static void account(const struct particle *p)
{
    double ke = 0.0;
    int k;
    for (k = 0; k < 3; k++)
        ke += 0.5 * p->m * p->v[k] * p->v[k];
    g_energy += ke - p->m * g_gravity[2] * p->x[2];
}

void simulate(int nsteps, double dt, const double *x0, const double *v0, double gz,
              double drag, double pos[3 * NP], double *energy)
{
    struct particle ps;
    struct particle saved;
    int i, k, s;
    set_environment(gz, drag);
    for (i = 0; i < NP; i++) {
        for (k = 0; k < 3; k++) {
            ps.x[k] = x0[3 * i + k];
            ps.v[k] = v0[3 * i + k];
        }
        ps.m = 1.0 + 0.25 * i;
        ps.id = i;
        for (s = 0; s < nsteps; s++)
            advance(&ps, dt);
        saved = ps;
        account(&saved);
        for (k = 0; k < 3; k++)
            pos[3 * i + k] = saved.x[k];
    }
    *energy = g_energy;
}
