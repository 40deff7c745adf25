/* A buffer grown by `realloc` inside the loop that fills it, the way C codes collect a
   sequence of unknown length: the capacity doubles whenever the buffer is full. Each
   new term reads the previous one, so the adjoint needs the values of every buffer
   that a `realloc` replaced. The last `realloc` shrinks the buffer to fit. */
#include <math.h>
#include <stdlib.h>

double grow(int n, const double *x)
{
    int cap = 1, m = 1;
    double *w = malloc(cap * sizeof *w);
    w[0] = 1.0;
    for (int i = 0; i < n; i++) {
        if (m == cap) {
            cap *= 2;
            w = realloc(w, cap * sizeof *w);
        }
        w[m] = w[m - 1] * sin(x[i]) + x[i];
        m++;
    }
    w = realloc(w, m * sizeof *w);
    double s = 0.0;
    for (int k = 0; k < m; k++)
        s += w[k] * w[m - 1 - k];
    free(w);
    return s;
}
