/* Inviscid Burgers on a periodic grid with the numerical flux picked per run by an
   enumerated scheme: Rusanov adds its dissipation and falls through into the central
   flux, Lax-Friedrichs uses the grid ratio, and an unknown scheme falls back on
   upwinding; each scheme is run and the results compared. */
#include <math.h>

typedef double real_t;

enum flux_scheme { CENTRAL, RUSANOV, LAX_FRIEDRICHS, SCHEME_COUNT };

#define NMAX 48

static real_t flux(int scheme, real_t ul, real_t ur, real_t dx_dt)
{
    real_t f = 0.0;
    switch (scheme) {
    case RUSANOV: {
        real_t smax = fmax(fabs(ul), fabs(ur));
        f = -0.5 * smax * (ur - ul);
    }
        /* fall through */
    case CENTRAL:
        f += 0.25 * (ul * ul + ur * ur);
        break;
    case LAX_FRIEDRICHS:
        f = 0.25 * (ul * ul + ur * ur) - 0.5 * dx_dt * (ur - ul);
        break;
    default:
        f = 0.5 * ul * ul;
    }
    return f;
}

static void step(int n, int scheme, real_t *u, real_t dt, real_t dx)
{
    real_t f[NMAX];
    for (int i = 0; i < n; i++)
        f[i] = flux(scheme, u[i], u[(i + 1) % n], dx / dt);
    for (int i = n - 1; i >= 0; i--)
        u[i] -= dt / dx * (f[i] - f[(i + n - 1) % n]);
}

void burgers_schemes(int n, int nsteps, const real_t *u0, real_t energy[SCHEME_COUNT],
                     real_t *tv)
{
    real_t u[NMAX];
    const real_t dx = 1.0 / n;
    const real_t dt = 0.2 * dx;
    *tv = 0.0;
    for (int scheme = CENTRAL; scheme < SCHEME_COUNT; ++scheme) {
        for (int i = 0; i < n; i++)
            u[i] = u0[i];
        for (int k = 0; k < nsteps; k++)
            step(n, scheme, u, dt, dx);
        energy[scheme] = 0.0;
        for (int i = 0; i < n; i++) {
            energy[scheme] += 0.5 * u[i] * u[i] * dx;
            *tv += fabs(u[(i + 1) % n] - u[i] + 3.0);
        }
    }
}
