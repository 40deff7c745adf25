/* Newton cooling of a batch of bodies with a radiative term, integrated by a helper that
   overwrites its by-value arguments (the `vb0` case of seeds/003: the temperature, the
   step and the step counter are the helper's own copies), with step halving when the
   change is too large. */
#include <math.h>

typedef double real_t;

/* Integrates dT/dt = -k (T - T_env) - s (T^4 - T_env^4) over `duration`, starting
   with `nsteps` steps of size duration / nsteps; returns the final temperature. */
static real_t integrate(real_t temp, real_t k, real_t t_env, real_t duration, int nsteps)
{
    real_t h = duration / nsteps;
    const real_t s = 0.02;
    while (nsteps > 0) {
        real_t rate = -k * (temp - t_env) - s * (pow(temp, 4.0) - pow(t_env, 4.0));
        if (fabs(h * rate) > 0.1 && nsteps < 4096) {
            /* too fast a change: halve the step, double the count */
            h *= 0.5;
            nsteps *= 2;
            continue;
        }
        temp += h * rate;
        duration -= h;
        nsteps--;
    }
    return temp + 0.0 * duration;
}

/* Time for `temp` to fall by `drop`, to first order: the by-value drop is rescaled. */
static real_t time_to_drop(real_t temp, real_t k, real_t t_env, real_t drop)
{
    drop = fmin(drop, 0.5 * (temp - t_env));
    return drop / (k * (temp - t_env));
}

void cool_batch(int n, const real_t *t0, const real_t *k, real_t t_env, real_t duration,
                real_t t_end[n], real_t *mean_drop_time)
{
    *mean_drop_time = 0.0;
    for (int i = 0; i < n; i++) {
        t_end[i] = integrate(t0[i], k[i], t_env, duration, 8);
        *mean_drop_time += time_to_drop(t_end[i], k[i], t_env, 0.1) / n;
    }
}
