/* A softened 2-D N-body integrator: the bodies are an array of structs holding active
   positions and velocities, a passive mass and an id; the force routine accumulates an
   optional work counter only when the caller passes a buffer (NULL on even steps), and
   the kinetic energy takes a body by value and changes its copy. */
#include <math.h>
#include <stddef.h>
#define N 5

struct body { double x[2]; double v[2]; double m; int id; };

static double kinetic(struct body b)
{
    b.v[0] = b.v[0] * b.m;   /* changes its copy */
    return 0.5 * (b.v[0] * b.v[0] / b.m + b.v[1] * b.v[1] * b.m);
}

static void forces(const struct body *p, int n, double f[][2], double *work)
{
    for (int i = 0; i < n; i++) {
        f[i][0] = 0.0;
        f[i][1] = 0.0;
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double dx = p[j].x[0] - p[i].x[0];
            double dy = p[j].x[1] - p[i].x[1];
            double r2 = dx * dx + dy * dy + 0.1;
            double s = p[i].m * p[j].m / (r2 * sqrt(r2));
            f[i][0] += s * dx; f[i][1] += s * dy;
            f[j][0] -= s * dx; f[j][1] -= s * dy;
            if (work != NULL) work[i] += s;
        }
}

void evolve(const double x0[2 * N], const double v0[2 * N], double dt, int nsteps,
            double xout[2 * N], double *ekin)
{
    struct body p[N];
    double f[N][2];
    double w[N];
    for (int i = 0; i < N; i++) {
        p[i].x[0] = x0[2 * i]; p[i].x[1] = x0[2 * i + 1];
        p[i].v[0] = v0[2 * i]; p[i].v[1] = v0[2 * i + 1];
        p[i].m = 1.0 + 0.1 * i;
        p[i].id = i;
        w[i] = 0.0;
    }
    for (int s = 0; s < nsteps; s++) {
        if (s % 2 == 0) forces(p, N, f, NULL); else forces(p, N, f, w);
        for (int i = 0; i < N; i++) {
            const double *acc = f[i];
            p[i].v[0] += dt * acc[0] / p[i].m;
            p[i].v[1] += dt * acc[1] / p[i].m;
            p[i].x[0] += dt * p[i].v[0];
            p[i].x[1] += dt * p[i].v[1];
        }
    }
    *ekin = 0.0;
    for (int i = 0; i < N; i++) {
        struct body b = p[i];
        *ekin += kinetic(b) + 1e-3 * w[i];
        xout[2 * i] = p[i].x[0];
        xout[2 * i + 1] = p[i].x[1];
    }
}
