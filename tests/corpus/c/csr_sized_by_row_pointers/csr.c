/* A compressed-row matrix passed by pointers: the number of nonzeros is
   rowptr[n], which the manifest gives as the size of val and col
   ([sizes.relax] val = "rowptr[n]"). */

static void rows(int n, const int *rowptr, const int *col, double *val, const double *d) {
    for (int i = 0; i < n; i++) {
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
            val[k] = val[k] * d[i] + 0.1 * val[k] * val[k] * d[col[k]];
        }
    }
}

/* The second call overwrites what the first one's adjoint re-reads: val is
   saved whole before the first, which needs its size. */
void relax(int n, const int *rowptr, const int *col, double *val, const double *d) {
    rows(n, rowptr, col, val, d);
    rows(n, rowptr, col, val, d);
}
