/* Batch reactor integrated by explicit midpoint steps; the temperature rises with the
   heat released. The root and the physics live in different files and share model.h. */
#include "model.h"

void reactor(int nsteps, conc_t c, const real_t k0[NSPEC], real_t *temp, real_t *yield)
{
    conc_t mid, k1, k2;
    real_t dt = 0.02;

    for (int s = 0; s < nsteps; s++) {
        reaction_rates(c, *temp, k0, k1);
        for (int j = 0; j < NSPEC; j++)
            mid[j] = c[j] + 0.5 * dt * k1[j];
        reaction_rates(mid, *temp + 0.5 * dt * heat_release(k1), k0, k2);
        for (int j = 0; j < NSPEC; j++)
            c[j] += dt * k2[j];
        *temp += dt * heat_release(k2);
    }
    *yield = c[2] / (c[0] + c[1] + c[2]);
}
