/* The usual C idiom for a result of unknown length: the buffer starts as NULL and
   every `realloc` grows it (`realloc(NULL, n)` is `malloc(n)`). Here it gathers the
   products of neighbours above a threshold, then the output is a weighted sum of what
   it gathered. A second buffer is started by `realloc(NULL, ...)` itself. */
#include <stddef.h>
#include <stdlib.h>

void gather(int n, const double *x, double *y)
{
    double *kept = NULL;
    int count = 0, cap = 0;
    for (int i = 0; i + 1 < n; i++) {
        double p = x[i] * x[i + 1];
        if (p > 0.4) {
            if (count == cap) {
                cap = cap ? 2 * cap : 2;
                kept = realloc(kept, cap * sizeof *kept);
            }
            kept[count++] = p;
        }
    }
    double *scale = realloc(NULL, 2 * sizeof *scale);
    scale[0] = x[0];
    scale[1] = x[n - 1] * x[n - 1];
    for (int i = 0; i < n; i++) {
        y[i] = 0.0;
        for (int k = 0; k < count; k++)
            y[i] += kept[k] * kept[(k + i) % count] * scale[k % 2];
    }
    free(scale);
    free(kept);
}
