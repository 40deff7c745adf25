/* Steps and calls where only some evaluations run them: in a branch of `?:`
   (`x[i] > 0.5 ? x[k++] * gain(x[i]) : ...`, only the branch taken steps `k` and calls
   `gain`) and in a `for` condition (`++j < n`, run at each test). */

static double gain(double v)
{
    return 1.0 + 0.5 * v * v;
}

void pack(int n, const double *x, double *y, double *z)
{
    int k = 0, m = 0;
    for (int i = 0; i < n; i++)
        y[i] = x[i] > 0.5 ? x[k++] * gain(x[i]) : 0.25 * x[i];
    int j = -1;
    for (double s = 0.0; ++j < n; s += y[j])
        z[j] = s + (j % 2 ? gain(y[j]) : y[m++]);
    z[0] += (k + m) * x[n - 1];
}
