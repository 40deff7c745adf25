/* A decay chain stepped with explicit Euler in single precision: a float function
   root, a long step counter counted down with --, const locals, a 2-D local rate
   matrix, a block-scoped work array, casts between float and double. */
#include <math.h>

#define NS 3

float decay(long nsteps, float dt, const float *rates, float *amount)
{
    float k[NS][NS];
    const float half = 0.5f;
    int i, j;
    for (i = 0; i < NS; i++)
        for (j = 0; j < NS; j++)
            k[i][j] = 0.0f;
    for (i = 0; i < NS; i++) {
        k[i][i] = -rates[i];
        if (i + 1 < NS)
            k[i + 1][i] = rates[i];
    }
    long left = nsteps;
    while (left > 0) {
        float flow[NS];
        for (i = 0; i < NS; i++) {
            flow[i] = 0.0f;
            for (j = 0; j < NS; j++)
                flow[i] += k[i][j] * amount[j];
        }
        for (i = 0; i < NS; i++)
            amount[i] += dt * flow[i];
        left--;
    }
    return amount[NS - 1] * half + (float)sqrt((double)amount[0]);
}
