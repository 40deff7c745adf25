/* A damped pendulum integrated by a generic explicit Runge-Kutta method read from its
   Butcher tableau: a pointer walks the rows of the tableau (`arow += STAGES`), stage
   derivatives live in a 2-D local array, and the root converts its by-value launch angle
   from degrees in place and halves its by-value step while the swing is fast. */
#include <math.h>

#define STAGES 4
#define PI 3.14159265358979323846

/* Classical RK4: A row-major, then b and c. */
static const double g_over_l = 9.81;

static void rhs(double theta, double omega, double damping, double *dtheta, double *domega)
{
    *dtheta = omega;
    *domega = -g_over_l * sin(theta) - damping * omega;
}

static void rk_step(const double *tableau, double h, double *y, double damping)
{
    double k[STAGES][2];
    const double *arow = tableau; /* row s of A */
    const double *b = tableau + STAGES * STAGES;
    for (int s = 0; s < STAGES; s++) {
        double yt0 = y[0], yt1 = y[1];
        for (int j = 0; j < s; j++) {
            yt0 += h * arow[j] * k[j][0];
            yt1 += h * arow[j] * k[j][1];
        }
        rhs(yt0, yt1, damping, &k[s][0], &k[s][1]);
        arow += STAGES;
    }
    for (int s = 0; s < STAGES; s++) {
        y[0] += h * *(b + s) * k[s][0];
        y[1] += h * b[s] * k[s][1];
    }
}

void swing(double angle_deg, double omega0, double damping, double h, int nsteps,
           double y_end[2], double *energy)
{
    const double tableau[STAGES * STAGES + STAGES] = {
        0.0, 0.0, 0.0, 0.0,
        0.5, 0.0, 0.0, 0.0,
        0.0, 0.5, 0.0, 0.0,
        0.0, 0.0, 1.0, 0.0,
        1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0};
    double y[2];
    angle_deg *= PI / 180.0; /* now in radians */
    y[0] = angle_deg;
    y[1] = omega0;
    for (int n = 0; n < nsteps; n++) {
        if (fabs(y[1]) * h > 0.05)
            h *= 0.5; /* a smaller step while the pendulum swings fast */
        rk_step(tableau, h, y, damping);
    }
    y_end[0] = y[0];
    y_end[1] = y[1];
    *energy = 0.5 * y[1] * y[1] + g_over_l * (1.0 - cos(y[0]));
}
