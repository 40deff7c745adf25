/* Nonlinear 2-D heat equation on an ny x NX grid with a variable conductivity: the
   sweep takes its fields as pointers to rows (`double (*u)[NX]`) and walks them through
   row pointers (`u[i - 1]`, `u[i]`, `u[i + 1]`); the new interior values go to a 2-D
   work array on the heap, `double (*buf)[NX]`, one row at a time through `buf[i]`. */
#include <stdlib.h>
#include <math.h>

#define NX 10

/* Sum of squares of one row. */
static double row_energy(int n, const double *row)
{
    double s = 0.0;
    for (int j = 0; j < n; j++)
        s += row[j] * row[j];
    return s;
}

/* One explicit step of the interior, with a cubic sink. */
static void sweep(int ny, double (*u)[NX], double (*kappa)[NX], double (*buf)[NX], double dt)
{
    for (int i = 1; i < ny - 1; i++) {
        const double *up = u[i - 1];
        const double *mid = u[i];
        const double *down = u[i + 1];
        double *out = buf[i];
        for (int j = 1; j < NX - 1; j++) {
            double lap = up[j] + down[j] + mid[j - 1] + mid[j + 1] - 4.0 * mid[j];
            out[j] = mid[j] + dt * kappa[i][j] * lap - dt * 0.1 * mid[j] * mid[j] * mid[j];
        }
    }
    for (int i = 1; i < ny - 1; i++) {
        double *row = u[i];
        for (int j = 1; j < NX - 1; j++)
            row[j] = buf[i][j];
    }
}

void heat2d(int ny, int nsteps, double u[ny][NX], double kappa[ny][NX], double *energy)
{
    double (*buf)[NX] = calloc(ny, sizeof *buf);

    for (int s = 0; s < nsteps; s++)
        sweep(ny, u, kappa, buf, 0.05);
    free(buf);

    *energy = 0.0;
    for (int i = 0; i < ny; i++)
        *energy += row_energy(NX, u[i]) + 0.5 * row_energy(NX, &kappa[i][0]) * u[i][NX / 2];
}
