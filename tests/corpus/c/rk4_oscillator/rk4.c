/* A damped nonlinear oscillator integrated with RK4: an inline right-hand side writing
   through pointers, 1-D local stage arrays, a time loop, compound assignments. */
#include <math.h>

static inline void rhs(double t, const double *y, double *dy, double omega, double damping)
{
    dy[0] = y[1];
    dy[1] = -omega * omega * sin(y[0]) - damping * y[1] + 0.1 * cos(t);
}

void rk4(int nsteps, double h, double *state, double omega, double damping, double *work)
{
    double k1[2], k2[2], k3[2], k4[2], tmp[2];
    double t = 0.0;
    int s, i;
    for (s = 0; s < nsteps; s++) {
        rhs(t, state, k1, omega, damping);
        for (i = 0; i < 2; i++)
            tmp[i] = state[i] + 0.5 * h * k1[i];
        rhs(t + 0.5 * h, tmp, k2, omega, damping);
        for (i = 0; i < 2; i++)
            tmp[i] = state[i] + 0.5 * h * k2[i];
        rhs(t + 0.5 * h, tmp, k3, omega, damping);
        for (i = 0; i < 2; i++)
            tmp[i] = state[i] + h * k3[i];
        rhs(t + h, tmp, k4, omega, damping);
        for (i = 0; i < 2; i++) {
            state[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
        *work += fabs(state[1]) * h;
        t += h;
    }
}
