/* Two-grid corrections of a nonlinear 1-D Poisson-like problem, repeated over
   successively coarser levels. Each level allocates its coarse residual and correction
   on the heap, with a size computed from the level, smooths the correction with a few
   Gauss-Seidel sweeps (a helper working on the heap buffers), and prolongs it back.
   Levels with enough points also keep a small history of (value, residual) pairs in a
   heap array of rows, allocated and freed inside that branch only. */
#include <stdlib.h>

#define PAIR 2

/* Gauss-Seidel sweeps on e for -e'' + c(e) e = r, with e = 0 at both ends. */
static void smooth(int m, int sweeps, double *e, const double *r, double h2)
{
    for (int k = 0; k < sweeps; k++)
        for (int i = 1; i < m - 1; i++) {
            double c = 1.0 + 0.3 * e[i] * e[i];
            e[i] = (r[i] * h2 + e[i - 1] + e[i + 1]) / (2.0 + c * h2);
        }
}

void multigrid(int n, int nlev, double *u, const double *f, double *res)
{
    int len = n;
    double h = 1.0 / (n - 1);
    int step = 1;
    for (int lev = 0; lev < nlev; lev++) {
        step = 2 * step;
        int m = (n - 1) / step + 1;
        if (m < 3)
            break;
        double *r = malloc(m * sizeof *r);
        double *e = calloc(m, sizeof(double));
        /* coarse residual of u'' = f - u^3 at every step-th point */
        r[0] = 0.0;
        r[m - 1] = 0.0;
        for (int i = 1; i < m - 1; i++) {
            int j = i * step;
            double lap = (u[j - step] - 2.0 * u[j] + u[j + step]) / (step * step * h * h);
            r[i] = f[j] - u[j] * u[j] * u[j] + lap;
        }
        smooth(m, 3, e, r, (step * h) * (step * h));
        if (m > 4) {
            double (*hist)[PAIR] = malloc(m * sizeof *hist);
            for (int i = 0; i < m; i++) {
                hist[i][0] = e[i];
                hist[i][1] = r[i] * e[i];
            }
            for (int i = 1; i < m - 1; i++)
                e[i] = 0.9 * hist[i][0] + 0.05 * (hist[i - 1][1] + hist[i + 1][1]);
            free(hist);
        }
        /* prolongation: linear interpolation of e onto the fine points */
        for (int i = 0; i < m - 1; i++)
            for (int q = 0; q < step; q++) {
                double t = (double) q / step;
                u[i * step + q] += 0.5 * ((1.0 - t) * e[i] + t * e[i + 1]);
            }
        free(e);
        free(r);
        len = m;
    }
    *res = 0.0;
    for (int i = 0; i < n; i++)
        *res += u[i] * u[i] * len;
}
