/* A relaxation calling three library functions adgen has no source for: declared by
   their prototypes, described by black-box tables in ad.toml, with the derivatives a
   user writes (lib.c, linked, not a source). */
double lib_wnorm(int n, const double *x);
void lib_sqaxpy(int n, double a, const double *x, double *y);
double Lib_soft(double v);

void relax(int n, double alpha, const double *x, double *y, double *cost)
{
    int k, i;
    for (k = 0; k < 3; k++) {
        lib_sqaxpy(n, alpha, x, y);
        for (i = 0; i < n; i++)
            y[i] = Lib_soft(y[i]) + 0.1 * y[i];
    }
    *cost = lib_wnorm(n, y) * alpha;
}
