/* MUSCL finite-volume advection on a periodic grid, run once per slope limiter and
   compared: the limiter is picked by a switch inside the reconstruction loop (smooth
   limiters only, so the derivative exists everywhere), a pointer walks the face
   fluxes, and the update goes through the flux array shifted by one (`flux + 1`). */
#include <math.h>

typedef double real_t;

#define NMAX 64
#define NLIMITERS 4

/* Slope of cell i from its left and right differences. */
static real_t slope(int limiter, real_t dl, real_t dr)
{
    real_t s;
    switch (limiter) {
    case 0: /* centred: no limiting */
        s = 0.5 * (dl + dr);
        break;
    case 1: /* van Albada */
        s = (dl * dr * (dl + dr)) / (dl * dl + dr * dr + 1e-8);
        break;
    case 2: /* upwind-biased, then falls into the smoothing of case 3 */
        dr = dl;
        /* fall through */
    case 3: /* harmonic-like smooth blend */
        s = 2.0 * dl * dr / (fabs(dl) + fabs(dr) + 1e-3) * tanh(10.0 * dl * dr);
        break;
    default:
        s = 0.0;
    }
    return s;
}

/* Face fluxes of a positive velocity: upwind value plus half the slope. */
static void faces(int n, int limiter, const real_t *u, real_t *flux, real_t a)
{
    real_t *f = flux;
    for (int i = 0; i < n; i++) {
        int im = (i + n - 1) % n;
        int ip = (i + 1) % n;
        real_t s = slope(limiter, u[i] - u[im], u[ip] - u[i]);
        *f++ = a * (u[i] + 0.5 * s);
    }
}

/* u_i -= c (F_{i+1/2} - F_{i-1/2}); `right` is the flux array shifted by one. */
static void update(int n, real_t *u, const real_t *left, const real_t *right, real_t c)
{
    for (int i = 0; i < n; i++)
        u[i] -= c * (right[i] - left[i]);
}

void muscl_compare(int n, int nsteps, const real_t *u0, real_t a, real_t *spread,
                   real_t mass[NLIMITERS])
{
    real_t u[NMAX];
    real_t flux[NMAX + 1];
    real_t first[NMAX];
    const real_t c = 0.4;
    *spread = 0.0;
    for (int limiter = 0; limiter < NLIMITERS; limiter++) {
        for (int i = 0; i < n; i++)
            u[i] = u0[i];
        for (int step = 0; step < nsteps; step++) {
            /* flux[i + 1] is the face i + 1/2; flux[0] the periodic copy of flux[n] */
            faces(n, limiter, u, flux + 1, a);
            flux[0] = flux[n];
            update(n, u, flux, flux + 1, c);
        }
        mass[limiter] = 0.0;
        for (int i = 0; i < n; i++)
            mass[limiter] += u[i] / n;
        if (limiter == 0) {
            for (int i = 0; i < n; i++)
                first[i] = u[i];
        } else {
            for (int i = 0; i < n; i++)
                *spread += (u[i] - first[i]) * (u[i] - first[i]);
        }
    }
}
