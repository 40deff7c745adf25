/* Nonlinear 1-D diffusion on a mesh held in a typedef'd struct of fixed arrays, with a
   nested boundary-condition struct; the mesh is a local of the root, passed by pointer
   to the flux, boundary and update kernels; a member array is passed to a function
   taking `const double *`; struct initializers with nested braces; the boundary struct
   is assigned whole. */
#include <math.h>

#define NX 24

struct boundary {
    double left;
    double right;
};

typedef struct {
    int n;
    double dx;
    double u[NX];
    double flux[NX + 1];
    struct boundary bc;
} mesh_t;

static double total(int n, const double *v, double dx)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        s += v[i] * dx;
    return s;
}

static void fluxes(mesh_t *m, double nu)
{
    int i;
    m->flux[0] = -nu * (m->u[0] - m->bc.left) / (0.5 * m->dx);
    for (i = 1; i < m->n; i++) {
        double k = nu * (1.0 + 0.5 * (m->u[i] * m->u[i] + m->u[i - 1] * m->u[i - 1]));
        m->flux[i] = -k * (m->u[i] - m->u[i - 1]) / m->dx;
    }
    m->flux[m->n] = -nu * (m->bc.right - m->u[m->n - 1]) / (0.5 * m->dx);
}

static void update(mesh_t *m, double dt)
{
    int i;
    for (i = 0; i < m->n; i++)
        m->u[i] -= dt / m->dx * (m->flux[i + 1] - m->flux[i]);
}

void diffuse(int nsteps, double dt, double nu, const double *u0, double left,
             double right, double u[NX], double *mass)
{
    mesh_t mesh = {NX, 1.0 / NX, {0.0}, {0.0}, {0.0, 0.0}};
    struct boundary bc = {left, right};
    int i, s;
    mesh.bc = bc;
    for (i = 0; i < NX; i++)
        mesh.u[i] = u0[i];
    for (s = 0; s < nsteps; s++) {
        fluxes(&mesh, nu);
        update(&mesh, dt);
    }
    for (i = 0; i < NX; i++)
        u[i] = mesh.u[i];
    *mass = total(mesh.n, mesh.u, mesh.dx);
}
