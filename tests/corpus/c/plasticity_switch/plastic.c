/* One-dimensional return mapping for a bar of elements with different material models
   selected by a switch: a case leaves early with a `break` inside an `if` (elastic
   trial state), hardening models fall through into the perfectly plastic return, and a
   damage model scales the stress; driven through a loading history. */
#include <math.h>

typedef double real_t;

enum material { ELASTIC, PERFECT, LINEAR_HARDENING, SATURATION, DAMAGE };

/* Returns the stress of an element for the strain increment; updates the plastic
   strain *ep and the accumulated plastic strain *alpha. */
static real_t stress_update(int model, real_t e_mod, real_t sy, real_t eps, real_t *ep,
                            real_t *alpha)
{
    real_t sig = e_mod * (eps - *ep);
    real_t yield = sy;
    switch (model) {
    case ELASTIC:
        break;
    case SATURATION:
        /* Voce hardening: the yield stress saturates */
        yield = sy + 0.3 * sy * (1.0 - exp(-5.0 * *alpha));
        /* fall through */
    case LINEAR_HARDENING:
        if (model == LINEAR_HARDENING)
            yield = sy + 0.1 * e_mod * *alpha;
        /* fall through */
    case PERFECT: {
        real_t f = fabs(sig) - yield;
        if (f <= 0.0)
            break; /* elastic trial state: nothing to return */
        real_t h = model == LINEAR_HARDENING ? 0.1 * e_mod : 0.0;
        real_t dgamma = f / (e_mod + h);
        real_t dir = sig > 0.0 ? 1.0 : -1.0;
        *ep += dgamma * dir;
        *alpha += dgamma;
        sig -= e_mod * dgamma * dir;
        break;
    }
    case DAMAGE:
        sig *= 1.0 - 0.5 * tanh(fabs(eps));
        break;
    default:
        sig = 0.0;
    }
    return sig;
}

void bar_history(int n, int nload, const int *model, const real_t *e_mod, const real_t *sy,
                 real_t peak, real_t *work, real_t sig_end[n])
{
    real_t ep[32], alpha[32];
    for (int i = 0; i < n; i++) {
        ep[i] = 0.0;
        alpha[i] = 0.0;
    }
    *work = 0.0;
    for (int step = 1; step <= nload; step++) {
        /* load up to `peak`, then unload to half of it */
        real_t eps = step <= nload / 2 ? peak * step / (nload / 2)
                                       : peak * (1.5 - (real_t) step / nload);
        for (int i = 0; i < n; i++) {
            real_t eps_i = eps * (1.0 + 0.1 * i);
            sig_end[i] = stress_update(model[i], e_mod[i], sy[i], eps_i, &ep[i], &alpha[i]);
            *work += sig_end[i] * eps_i / nload;
        }
    }
}
