/* Finite-volume advection of a tracer on an ny x NX grid. The fluxes live in heap
   arrays of rows sized by the argument ny (the x-fluxes have NX + 1 faces per row);
   the time step is limited by CFL_MAX from grid.h. */
#include <stdlib.h>
#include "grid.h"

void advect(int ny, int nsteps, real_t q[ny][NX], real_t u, real_t v, real_t *total,
            real_t *spread)
{
    real_t (*fx)[NX + 1] = malloc(ny * sizeof *fx);
    row_t *fy = calloc(ny + 1, sizeof *fy);
    real_t dt = CFL_MAX / (fabs(u) + fabs(v) + 1.0);

    if (!fx || fy == NULL) {
        free(fx);
        free(fy);
        return;
    }
    for (int s = 0; s < nsteps; s++) {
        fluxes_x(ny, q, fx, u);
        fluxes_y(ny, q, fy, v);
        for (int i = 0; i < ny; i++) {
            real_t *cell = q[i];
            for (int j = 0; j < NX; j++)
                cell[j] -= dt * (fx[i][j + 1] - fx[i][j] + fy[i + 1][j] - fy[i][j]);
        }
    }
    free(fx);
    free(fy);

    *total = 0.0;
    *spread = 0.0;
    for (int i = 0; i < ny; i++)
        for (int j = 0; j < NX; j++) {
            *total += q[i][j];
            *spread += q[i][j] * q[i][j];
        }
}
