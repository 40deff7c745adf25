/* A Lorenz-type system integrated by classical RK4, the integrator's state kept in a
   global struct (`g_rk`) that `rk_init` writes and `rk_step` advances and reads; the
   model parameters in a typedef'd struct passed by `const` pointer; a passive global
   step counter; the global struct has an initializer with nested braces. */
#include <math.h>

#define NEQ 3

typedef struct {
    double sigma;
    double rho;
    double beta;
} lorenz_params;

struct rk_state {
    double y[NEQ];
    double t;
    double h;
};

struct rk_state g_rk = {{1.0, 1.0, 1.0}, 0.0, 0.01};
int g_nsteps_done;

static void rhs(const lorenz_params *p, const double *y, double *dy)
{
    dy[0] = p->sigma * (y[1] - y[0]);
    dy[1] = y[0] * (p->rho - y[2]) - y[1];
    dy[2] = y[0] * y[1] - p->beta * y[2];
}

static void rk_init(const double *y0, double h)
{
    int i;
    for (i = 0; i < NEQ; i++)
        g_rk.y[i] = y0[i];
    g_rk.t = 0.0;
    g_rk.h = h;
    g_nsteps_done = 0;
}

static void rk_step(const lorenz_params *p)
{
    double k1[NEQ], k2[NEQ], k3[NEQ], k4[NEQ], tmp[NEQ];
    double h = g_rk.h;
    int i;
    rhs(p, g_rk.y, k1);
    for (i = 0; i < NEQ; i++)
        tmp[i] = g_rk.y[i] + 0.5 * h * k1[i];
    rhs(p, tmp, k2);
    for (i = 0; i < NEQ; i++)
        tmp[i] = g_rk.y[i] + 0.5 * h * k2[i];
    rhs(p, tmp, k3);
    for (i = 0; i < NEQ; i++)
        tmp[i] = g_rk.y[i] + h * k3[i];
    rhs(p, tmp, k4);
    for (i = 0; i < NEQ; i++)
        g_rk.y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    g_rk.t += h;
    g_nsteps_done++;
}

void integrate(int nsteps, double h, const double *y0, double sigma, double rho,
               double beta, double yend[3], double *path)
{
    lorenz_params p;
    int s, i;
    p.sigma = sigma;
    p.rho = rho;
    p.beta = beta;
    rk_init(y0, h);
    *path = 0.0;
    for (s = 0; s < nsteps; s++) {
        rk_step(&p);
        *path += g_rk.h * fabs(g_rk.y[2]);
    }
    for (i = 0; i < NEQ; i++)
        yend[i] = g_rk.y[i];
}
