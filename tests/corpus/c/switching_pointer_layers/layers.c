/* A small recurrent stack: each layer reads the output of the one before through a
   pointer that first points into the input `x` and then into the state array, as
   ADBench's LSTM steps its layers. */
#include <math.h>

static double squash(double v)
{
    return tanh(v);
}

/* One layer: hidden = squash(w * in + bias), element by element. */
static void layer(int n, const double *w, const double *in, double *hidden)
{
    int i;
    for (i = 0; i < n; i++)
        hidden[i] = squash(w[i] * in[i] + w[n + i]);
}

/* The first element of `a` or of `b` times the last of the other. */
static double edge(int n, const double *a, const double *b, int which)
{
    const double *p = a, *q = b;
    if (which) {
        p = b;
        q = a;
    }
    return p[n - 1] * q[0]; /* two switching pointers: four cases */
}

void recur(int nl, int n, const double *w, const double *x, double *state, double *out)
{
    int k, i;
    const double *prev = x; /* the input first */
    double total = 0.0;
    for (k = 0; k < nl; k++) {
        layer(n, &w[2 * n * k], prev, &state[n * k]);
        prev = state + n * k; /* then the layer just computed */
    }
    const double *walk = prev; /* set from a switching pointer: switches too */
    for (i = 0; i < n; i++) {
        total += 0.5 * *walk++ * prev[i];
    }
    const double *second = prev + 1;
    total += second[0] * x[0];
    *out = total + edge(n, prev, x, nl % 2) + edge(n, x, prev, 1);
}
