/* Planets stepped through local pointers to the elements of an array of structs, as the
   Benchmarks Game's n-body writes it: `struct planet *b = &bodies[i]`, `b->vx -= ...`. */
#include <math.h>

#define NP 4

struct planet {
    double x, y;
    double vx, vy;
    double mass;
};

static void kick(int n, struct planet *bodies, double dt)
{
    int i, j;
    for (i = 0; i < n; i++) {
        struct planet *b = &(bodies[i]);
        for (j = i + 1; j < n; j++) {
            struct planet *b2 = bodies + j; /* pointer arithmetic form */
            double dx = b->x - b2->x;
            double dy = b->y - (*b2).y;
            double d2 = dx * dx + dy * dy + 0.01;
            double mag = dt / (d2 * sqrt(d2));
            b->vx -= dx * b2->mass * mag;
            b->vy -= dy * b2->mass * mag;
            b2->vx += dx * b->mass * mag;
            b2->vy += dy * b->mass * mag;
        }
    }
}

static void drift(int n, struct planet *bodies, double dt)
{
    struct planet *b = bodies; /* the first element, then stepped */
    int i;
    for (i = 0; i < n; i++) {
        b->x += dt * b->vx;
        b[0].y += dt * b[0].vy;
        b++;
    }
}

/* Kinetic energy of the first two planets, through one pointer indexed. */
static double pair_energy(struct planet *bodies)
{
    struct planet *p = &bodies[0];
    return 0.5 * (p[0].mass * (p[0].vx * p[0].vx + p[0].vy * p[0].vy)
                  + p[1].mass * (p[1].vx * p[1].vx + p[1].vy * p[1].vy));
}

void steps(const double xy0[2 * NP], const double v0[2 * NP], const double mass[NP], double dt,
           int nsteps, double pos[2 * NP], double *e)
{
    int i, k;
    struct planet sys[NP];
    struct planet local[2];
    struct planet *q = local;
    for (i = 0; i < NP; i++) {
        struct planet *b = &sys[i];
        b->x = xy0[2 * i];
        b->y = xy0[2 * i + 1];
        b->vx = v0[2 * i];
        b->vy = v0[2 * i + 1];
        b->mass = mass[i];
    }
    for (k = 0; k < nsteps; k++) {
        kick(NP, sys, dt);
        drift(NP, sys, dt);
    }
    for (i = 0; i < NP; i++) {
        pos[2 * i] = sys[i].x;
        pos[2 * i + 1] = sys[i].y;
    }
    *q = sys[NP - 1]; /* a whole element through a pointer */
    q[1] = sys[0];
    *e = pair_energy(sys) + q->x * local[1].y;
}

/* Not reached from the root: its `char **` parameter must not block it. */
int report(int argc, char **argv)
{
    (void)argv;
    return argc;
}
