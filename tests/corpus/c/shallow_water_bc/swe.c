/* One-dimensional shallow-water equations (h, hu) with a Lax-Friedrichs flux; the ghost
   cells at each end follow a boundary type chosen by a switch (wall, outflow,
   prescribed inflow that falls through into the wall's depth), and the time step is
   a by-value parameter the solver shrinks to respect the CFL limit. */
#include <math.h>

typedef double real_t;

enum boundary { WALL, OUTFLOW, INFLOW };

#define NMAX 40
static const real_t grav = 9.81;

/* Fills ghost cell g from its inner neighbour i. */
static void ghost(int type, real_t h[NMAX + 2], real_t hu[NMAX + 2], int g, int i,
                  real_t inflow)
{
    switch (type) {
    case INFLOW:
        hu[g] = inflow * h[i];
        h[g] = h[i];
        break;
    case WALL:
        hu[g] = -hu[i];
        /* fall through */
    default: /* OUTFLOW: zero gradient of the depth */
        h[g] = h[i];
        if (type == OUTFLOW)
            hu[g] = hu[i];
    }
}

/* Advances the interior cells 1..n by `t_end` with steps no larger than `dt`. */
static void advance(int n, real_t h[NMAX + 2], real_t hu[NMAX + 2], real_t dx, real_t dt,
                    real_t t_end, int left, int right, real_t inflow)
{
    real_t fh[NMAX + 1], fq[NMAX + 1];
    real_t t = 0.0;
    while (t < t_end - 1e-12) {
        real_t smax = 0.0;
        for (int i = 1; i <= n; i++)
            smax = fmax(smax, fabs(hu[i] / h[i]) + sqrt(grav * h[i]));
        if (dt * smax > 0.8 * dx)
            dt = 0.8 * dx / smax; /* CFL: the caller's step is only an upper bound */
        dt = fmin(dt, t_end - t);
        ghost(left, h, hu, 0, 1, inflow);
        ghost(right, h, hu, n + 1, n, inflow);
        for (int i = 0; i <= n; i++) {
            real_t ul = hu[i] / h[i], ur = hu[i + 1] / h[i + 1];
            real_t ql = hu[i] * ul + 0.5 * grav * h[i] * h[i];
            real_t qr = hu[i + 1] * ur + 0.5 * grav * h[i + 1] * h[i + 1];
            fh[i] = 0.5 * (hu[i] + hu[i + 1]) - 0.5 * dx / dt * (h[i + 1] - h[i]);
            fq[i] = 0.5 * (ql + qr) - 0.5 * dx / dt * (hu[i + 1] - hu[i]);
        }
        for (int i = 1; i <= n; i++) {
            h[i] -= dt / dx * (fh[i] - fh[i - 1]);
            hu[i] -= dt / dx * (fq[i] - fq[i - 1]);
        }
        t += dt;
    }
}

void dam_break(int n, const real_t *h0, real_t inflow, real_t h_out[n], real_t *momentum)
{
    real_t h[NMAX + 2], hu[NMAX + 2];
    for (int i = 1; i <= n; i++) {
        h[i] = h0[i - 1];
        hu[i] = 0.0;
    }
    advance(n, h, hu, 1.0 / n, 0.05, 0.08, INFLOW, WALL, inflow);
    advance(n, h, hu, 1.0 / n, 0.05, 0.04, OUTFLOW, OUTFLOW, inflow);
    *momentum = 0.0;
    for (int i = 1; i <= n; i++) {
        h_out[i - 1] = h[i];
        *momentum += hu[i] / n;
    }
}
