/* A work buffer resized by `realloc`, as C codes size a buffer once they know what it
   holds: allocated for the worst case, shrunk to fit the selected values, then grown to
   add a tail. Each `realloc` keeps the elements both sizes have. */
#include <stdlib.h>

void select_weights(int n, const double *x, double *y)
{
    int cap = 2 * n;
    double *w = malloc(cap * sizeof *w);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (x[i] > 0.3)
            w[m++] = x[i] * x[i];
    w = realloc(w, (m + 1) * sizeof *w);
    w[m] = 1.0;
    w = realloc(w, (m + 3) * sizeof(double));
    w[m + 1] = w[0] * x[n - 1];
    w[m + 2] = w[m] + w[m - 1];
    for (int i = 0; i < n; i++)
        y[i] = w[i % (m + 3)] * x[i];
    free(w);
}
