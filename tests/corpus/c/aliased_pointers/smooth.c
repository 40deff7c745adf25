/* In-place smoothing through a kernel that takes its input and output as two
 * pointers: the caller passes the same array for both (legal C), and for the
 * relaxation weight, one element of it twice. */

static void relax(int n, const double *in, double *out, double w)
{
    for (int i = 1; i < n; i++)
        out[i] = out[i] + w * in[i - 1] * in[i];
}

static void scale2(const double *a, double *b)
{
    *b = *b * (1.0 + *a);
}

void smooth(int n, double *u, double *e)
{
    for (int k = 0; k < 3; k++)
        relax(n, u, u, 0.1);
    scale2(&u[0], &u[0]);
    *e = 0.0;
    for (int i = 0; i < n; i++)
        *e = *e + u[i] * u[i];
}
