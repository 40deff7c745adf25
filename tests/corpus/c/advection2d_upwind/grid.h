/* Grid of the 2-D advection model: sizes, the field type, the limiter and the solver's
   entry points. */
#ifndef GRID_H
#define GRID_H

#include <math.h>

#define NX 9            /* cells per row */
#define CFL_MAX 0.45

typedef double real_t;
typedef real_t row_t[NX]; /* one row of cells */

/* Smooth minmod-like limiter of two slopes. */
static inline real_t limiter(real_t a, real_t b)
{
    return a * b / (sqrt(a * a + b * b) + 1e-3);
}

void fluxes_x(int ny, const row_t *q, real_t (*fx)[NX + 1], real_t speed);
void fluxes_y(int ny, real_t (*q)[NX], row_t *fy, real_t speed);

#endif
