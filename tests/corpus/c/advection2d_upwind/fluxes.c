/* Upwind fluxes with limited slopes, periodic in x, zero inflow in y. */
#include "grid.h"

void fluxes_x(int ny, const row_t *q, real_t (*fx)[NX + 1], real_t speed)
{
    for (int i = 0; i < ny; i++) {
        const real_t *row = q[i];
        for (int j = 0; j <= NX; j++) {
            int jl = (j + NX - 1) % NX;
            int jll = (j + NX - 2) % NX;
            int jr = j % NX;
            real_t slope = limiter(row[jl] - row[jll], row[jr] - row[jl]);
            fx[i][j] = speed * (row[jl] + 0.5 * slope);
        }
    }
}

void fluxes_y(int ny, real_t (*q)[NX], row_t *fy, real_t speed)
{
    for (int j = 0; j < NX; j++)
        fy[0][j] = 0.0;
    for (int i = 1; i < ny; i++) {
        real_t *below = q[i - 1];
        for (int j = 0; j < NX; j++)
            fy[i][j] = speed * below[j];
    }
}
