/* Reaction network A -> B -> C, B + B -> A, and the heat it releases. */
#include "model.h"

void reaction_rates(const conc_t c, real_t temp, const real_t k0[NSPEC], conc_t dcdt)
{
    real_t r1 = rate(k0[0], 1.5, temp) * c[0];
    real_t r2 = rate(k0[1], 2.0, temp) * c[1];
    real_t r3 = rate(k0[2], 1.0, temp) * c[1] * c[1];

    dcdt[0] = -r1 + r3;
    dcdt[1] = r1 - r2 - 2.0 * r3;
    dcdt[2] = r2;
}

real_t heat_release(const conc_t dcdt)
{
    /* Exothermic formation of C, endothermic consumption of A. */
    return 0.8 * dcdt[2] - 0.3 * dcdt[0];
}
