/* The library the model links (not a source of adgen's). */
int lib_index(int i, int n)
{
    return (3 * i + 1) % n;
}

double lib_weight(int k)
{
    return 1.0 / (1.0 + 0.5 * k);
}

void lib_perm(int n, int *perm)
{
    int i;
    for (i = 0; i < n; i++)
        perm[i] = n - 1 - i;
}
