/* N-body: an array of particle structs. */
#include <math.h>

#define NP 4

struct particle {
    double x[3];
    double v[3];
    double m;
    int id;
};

struct particle g_store[NP];

static void forces(struct particle *p, int n, double *f, double soft)
{
    int i, j, k;
    for (i = 0; i < n; i++)
        for (k = 0; k < 3; k++)
            f[3 * i + k] = 0.0;
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            double d[3];
            double r2 = soft;
            if (i == j)
                continue;
            for (k = 0; k < 3; k++) {
                d[k] = p[j].x[k] - p[i].x[k];
                r2 += d[k] * d[k];
            }
            for (k = 0; k < 3; k++)
                f[3 * i + k] += p[i].m * p[j].m * d[k] / (r2 * sqrt(r2));
        }
    }
}

static void kick(struct particle *p, int n, const double *f, double dt)
{
    int i, k;
    for (i = 0; i < n; i++) {
        for (k = 0; k < 3; k++) {
            (p + i)->v[k] += dt * f[3 * i + k] / p[i].m;
            p[i].x[k] += dt * p[i].v[k];
        }
    }
}

void simulate(const double x0[3 * NP], const double v0[3 * NP], const double mass[NP], double dt,
              int nsteps, double pos[3 * NP], double *energy)
{
    struct particle p[NP];
    double f[3 * NP];
    int i, k, s;
    for (i = 0; i < NP; i++) {
        p[i].id = i;
        p[i].m = mass[i];
        for (k = 0; k < 3; k++) {
            p[i].x[k] = x0[3 * i + k];
            p[i].v[k] = v0[3 * i + k];
        }
    }
    for (s = 0; s < nsteps; s++) {
        forces(p, NP, f, 0.1);
        kick(p, NP, f, dt);
    }
    g_store[0] = p[NP - 1];
    *energy = 0.0;
    for (i = 0; i < NP; i++) {
        for (k = 0; k < 3; k++) {
            pos[3 * i + k] = p[i].x[k];
            *energy += 0.5 * p[i].m * p[i].v[k] * p[i].v[k];
        }
    }
    *energy += g_store[0].x[0];
}
