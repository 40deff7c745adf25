/* A chain of masses joined by springs, in 2-D: nested structs (`struct chain` holds
   coordinate arrays and a `struct material` that holds a `struct damping`), the chain a
   local of the root passed by pointer through three levels of calls, `(*c).x` and
   `c->mat.damp.c1` forms, a member array of a nested struct, a struct initialized by
   a positional and a designated member, a whole nested struct assigned, a `const`
   pointer to the material, velocity Verlet steps. */
#include <math.h>

#define NM 6

struct damping {
    double c1;
    double c2;
};

struct material {
    double stiffness[NM - 1];
    double rest;
    struct damping damp;
};

struct chain {
    double x[NM], y[NM];
    double vx[NM], vy[NM];
    double fx[NM], fy[NM];
    double mass;
    struct material mat;
};

static void spring_force(const struct material *m, int i, double dx, double dy,
                         double *fx, double *fy)
{
    double len = sqrt(dx * dx + dy * dy);
    double f = m->stiffness[i] * (len - m->rest) / len;
    *fx = f * dx;
    *fy = f * dy;
}

static void forces(struct chain *c)
{
    int i;
    double fx, fy;
    for (i = 0; i < NM; i++) {
        c->fx[i] = -c->mat.damp.c1 * c->vx[i] - c->mat.damp.c2 * c->vx[i] * fabs(c->vx[i]);
        c->fy[i] = -c->mat.damp.c1 * c->vy[i] - c->mat.damp.c2 * c->vy[i] * fabs(c->vy[i])
                   - 9.81 * c->mass;
    }
    for (i = 0; i < NM - 1; i++) {
        spring_force(&c->mat, i, (*c).x[i + 1] - (*c).x[i], c->y[i + 1] - c->y[i], &fx, &fy);
        c->fx[i] += fx;
        c->fy[i] += fy;
        c->fx[i + 1] -= fx;
        c->fy[i + 1] -= fy;
    }
    c->fx[0] = 0.0;
    c->fy[0] = 0.0;
}

static void verlet(struct chain *c, double dt)
{
    int i;
    for (i = 0; i < NM; i++) {
        c->vx[i] += 0.5 * dt * c->fx[i] / c->mass;
        c->vy[i] += 0.5 * dt * c->fy[i] / c->mass;
        c->x[i] += dt * c->vx[i];
        c->y[i] += dt * c->vy[i];
    }
    forces(c);
    for (i = 0; i < NM; i++) {
        c->vx[i] += 0.5 * dt * c->fx[i] / c->mass;
        c->vy[i] += 0.5 * dt * c->fy[i] / c->mass;
    }
}

void hang(int nsteps, double dt, const double *k, double rest, double c1, double c2,
          double mass, double tip[2], double *energy)
{
    struct chain c;
    struct damping d = {c1, .c2 = c2};
    int i, s;
    for (i = 0; i < NM; i++) {
        c.x[i] = i * 1.1 * rest;
        c.y[i] = -0.1 * i;
        c.vx[i] = 0.0;
        c.vy[i] = 0.0;
    }
    for (i = 0; i < NM - 1; i++)
        c.mat.stiffness[i] = k[i];
    c.mat.rest = rest;
    c.mat.damp = d;
    c.mass = mass;
    forces(&c);
    for (s = 0; s < nsteps; s++)
        verlet(&c, dt);
    tip[0] = c.x[NM - 1];
    tip[1] = c.y[NM - 1];
    *energy = 0.0;
    for (i = 0; i < NM; i++)
        *energy += 0.5 * c.mass * (c.vx[i] * c.vx[i] + c.vy[i] * c.vy[i]);
}
