/* Comparisons used as numbers, as C allows and LINPACK's C translation writes
   (`swapk = ( 0 < ipvt[k-1] );`): each is the int 1 or 0. */

static int positive(double v)
{
    return v > 0.0; /* an int function returning a comparison */
}

void weigh(int n, const int *ip, const double *x, double *y)
{
    int count = 0;
    for (int k = 0; k < n; k++) {
        int pos = (0 < ip[k]);
        count += (x[k] > 0.6) && pos;
        y[k] = x[k] * (1 + (ip[k] < 0)) + count * x[0] * x[k];
    }
    y[0] += (double)(count >= 2) * x[1] + positive(x[2] - 0.7) * x[2] * x[2];
}
