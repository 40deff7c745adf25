/* Shared declarations of the batch reactor model: species count, types, the rate law
   (a static inline helper every file may use) and the physics entry points. */
#ifndef MODEL_H
#define MODEL_H

#include <math.h>

#define NSPEC 3

typedef double real_t;
typedef real_t conc_t[NSPEC]; /* concentrations of A, B, C */

/* Arrhenius-like rate constant. */
static inline real_t rate(real_t k0, real_t ea, real_t temp)
{
    return k0 * exp(-ea / temp);
}

void reaction_rates(const conc_t c, real_t temp, const real_t k0[NSPEC], conc_t dcdt);
real_t heat_release(const conc_t dcdt);

#endif
