/* A smoother that calls three library functions adgen has no source for, declared by
   their prototypes alone and used passively. Features: calls by prototype (the
   generated code declares them and passes each argument as the prototype says:
   `lib_index(i, n)`, not `lib_index(&i, &n)`), a real result from int arguments
   (`lib_weight`), a passive local table filled through a pointer (`lib_perm`), the
   table used as subscripts of an active array. Only int arguments: with every
   optimization off, any real argument would be active, and adgen rightly refuses an
   active call of a function without source (E0503). */
#include <math.h>

int lib_index(int i, int n);
double lib_weight(int k);
void lib_perm(int n, int *perm);

void smooth(int n, const double *u, double *v, double t)
{
    int perm[16];
    int i;
    lib_perm(n, perm);
    for (i = 0; i < n; i++)
        v[i] = u[perm[i]] * u[i] * lib_weight(lib_index(i, n)) + t * sin(u[i]);
}
