/* A log-prior with a passive normalizing constant in an upper-case local `C`, as ADBench's
   GMM objective writes it: the adjoint never reads C, declares it and silences it with
   `(void)C;`, spelled as the source spells it (it was `(void)c;`, which gcc rejects). */
#include <math.h>

double prior(int p, double gamma, const double *q)
{
    double out = 0.0;
    for (int i = 0; i < p; i++)
        out += q[i] * q[i];
    double C = p * (log(gamma) - 0.5 * log(2.0));
    return out - 2.0 * C;
}
