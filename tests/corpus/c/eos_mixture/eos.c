/* Pressure and sound speed of a row of cells, each with its own equation of state
   chosen by an integer code: a switch with fall-through (the stiffened gas adds its
   stiffening to the ideal-gas pressure), a block-scoped case, a GNU case range and a
   default; typedefs of scalars and of an array. */
#include <math.h>

typedef double real_t;
typedef int eos_code;
typedef real_t state3[3];

#define NCELL 16

static const real_t gamma_gas = 1.4;
static const real_t p_inf = 0.25; /* stiffening pressure of the liquid */

/* Pressure from density and specific internal energy. */
static real_t pressure(eos_code code, real_t rho, real_t e)
{
    real_t p = 0.0;
    switch (code) {
    case 2: /* stiffened gas: (g - 1) rho e - g p_inf */
        p = -gamma_gas * p_inf;
        /* fall through */
    case 0:
    case 1: /* ideal gas */
        p += (gamma_gas - 1.0) * rho * e;
        break;
    case 3: { /* Tait liquid, isentropic */
        const real_t rho0 = 0.9;
        p = 0.3 * (pow(rho / rho0, 7.0) - 1.0) + 0.1 * e;
        break;
    }
    case 4 ... 6: /* polytropic family, exponent from the code */
        p = 0.5 * pow(rho, 1.0 + 0.25 * (real_t) code) * sqrt(e);
        break;
    default: /* a floor for unknown materials */
        p = fmax(0.05 * rho * e, 1e-4);
    }
    return p;
}

void eos_row(int n, const eos_code *code, const real_t *rho, const real_t *e,
             real_t p[NCELL], real_t *mean_c)
{
    state3 sum;
    sum[0] = 0.0;
    sum[1] = 0.0;
    sum[2] = 0.0;
    for (int i = 0; i < n; i++) {
        p[i] = pressure(code[i], rho[i], e[i]);
        /* sound speed from a one-sided difference of p in rho */
        real_t dp = pressure(code[i], rho[i] * 1.01, e[i]) - p[i];
        real_t c2 = dp / (0.01 * rho[i]);
        sum[0] += sqrt(fabs(c2) + 1e-3);
        sum[1] += rho[i];
        sum[2] += (real_t) 1;
    }
    *mean_c = sum[0] / sum[2] * (sum[1] / sum[2]);
}
