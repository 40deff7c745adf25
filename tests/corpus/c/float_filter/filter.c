/* A single-precision recursive filter with a forward and a backward pass: float
   and double mixed, casts, float literals, ++/--, *=, /=, -=, a reverse loop. */
#include <math.h>

void smooth(int n, float *signal, float alpha, double *rms)
{
    float prev = signal[0];
    int i;
    for (i = 1; i < n; ++i) {
        float cur = signal[i];
        signal[i] = alpha * cur + (1.0f - alpha) * prev;
        prev = signal[i];
    }
    /* backward pass: zero phase */
    prev = signal[n - 1];
    for (i = n - 2; i >= 0; i--) {
        signal[i] = alpha * signal[i] + (1.0f - alpha) * prev;
        prev = signal[i];
    }
    double acc = 0.0;
    i = 0;
    while (i < n) {
        double v = (double)signal[i];
        acc += v * v;
        i++;
    }
    acc /= (double)n;
    *rms = sqrt(acc);
    float gain = (float)(*rms) + 1.0f;
    for (i = 0; i < n; i++)
        signal[i] *= gain;
    signal[(int)(0.5 * n)] -= 0.25f * alpha;
}
