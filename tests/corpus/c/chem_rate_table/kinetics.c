/* A reaction network A -> B -> C, A + B -> D with Arrhenius rates: the rate table is a
   global array written by `init_rates` from the (active) temperature and activation
   energies, and read by the right-hand side; a global 2-D stoichiometry table filled by
   `init_stoich`; heats of reaction in a `static const` table; a passive global call
   counter; explicit Euler in time. */
#include <math.h>

#define NSPEC 4
#define NREAC 3

double g_rates[NREAC];
double g_stoich[NREAC][NSPEC];
long g_rhs_calls;
static const double heat_of_reaction[NREAC] = {50.0, -4.0, 20.0};

static void init_stoich(void)
{
    int r, s;
    for (r = 0; r < NREAC; r++)
        for (s = 0; s < NSPEC; s++)
            g_stoich[r][s] = 0.0;
    g_stoich[0][0] = -1.0;
    g_stoich[0][1] = 1.0;
    g_stoich[1][1] = -1.0;
    g_stoich[1][2] = 1.0;
    g_stoich[2][0] = -1.0;
    g_stoich[2][1] = -1.0;
    g_stoich[2][3] = 1.0;
}

static void init_rates(double temp, const double *ea, const double *pre)
{
    int r;
    for (r = 0; r < NREAC; r++)
        g_rates[r] = pre[r] * exp(-ea[r] / temp);
}

static void rhs(const double *c, double *dc)
{
    double w[NREAC];
    int r, s;
    w[0] = g_rates[0] * c[0];
    w[1] = g_rates[1] * c[1];
    w[2] = g_rates[2] * c[0] * c[1];
    for (s = 0; s < NSPEC; s++) {
        dc[s] = 0.0;
        for (r = 0; r < NREAC; r++)
            dc[s] += g_stoich[r][s] * w[r];
    }
    g_rhs_calls++;
}

void react(int nsteps, double dt, double temp, const double *ea, const double *pre,
           double conc[4], double *heat)
{
    double dc[NSPEC];
    int s, k;
    g_rhs_calls = 0;
    init_stoich();
    init_rates(temp, ea, pre);
    *heat = 0.0;
    for (s = 0; s < nsteps; s++) {
        rhs(conc, dc);
        for (k = 0; k < NSPEC; k++)
            conc[k] += dt * dc[k];
        *heat += dt * (heat_of_reaction[0] * g_rates[0] * conc[0]
                       + heat_of_reaction[1] * g_rates[1] * conc[1]
                       + heat_of_reaction[2] * g_rates[2] * conc[0] * conc[1]);
    }
}
