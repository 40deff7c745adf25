/* Single-precision signal chain: a FIR low-pass with the taps and the delay line walked by
   pointers in opposite directions (`*h++ * *xp--`), then a biquad IIR section whose
   state lives in a small array typedef; `sample_t` is a float typedef. */
#include <math.h>

typedef float sample_t;
typedef sample_t biquad_state[2];

#define NTAPS 5

/* y[i] = sum_k h[k] x[i - k], zero history before the first sample. */
static void fir(int n, const sample_t *x, const sample_t *h, sample_t *y)
{
    for (int i = 0; i < n; i++) {
        const sample_t *hp = h;
        const sample_t *xp = x + i;
        sample_t acc = 0.0f;
        int taps = i + 1 < NTAPS ? i + 1 : NTAPS;
        for (int k = 0; k < taps; k++)
            acc += *hp++ * *xp--;
        y[i] = acc;
    }
}

/* Direct form II transposed biquad, in place. */
static void biquad(int n, sample_t *y, const sample_t *b, const sample_t *a, biquad_state s)
{
    sample_t *p = y;
    for (sample_t *end = y + n; p < end; p++) {
        sample_t in = *p;
        sample_t out = b[0] * in + s[0];
        s[0] = b[1] * in - a[0] * out + s[1];
        s[1] = b[2] * in - a[1] * out;
        *p = out;
    }
}

void filter_chain(int n, const sample_t *x, const sample_t *taps, sample_t gain,
                  sample_t y[n], sample_t *power)
{
    const sample_t b[3] = {0.2f, 0.3f, 0.2f};
    const sample_t a[2] = {-0.4f, 0.1f};
    biquad_state state;
    state[0] = 0.0f;
    state[1] = 0.0f;
    fir(n, x, taps, y);
    biquad(n, y, b, a, state);
    *power = 0.0f;
    for (int i = 0; i < n; i++) {
        y[i] *= gain;
        *power += y[i] * y[i] / (sample_t) n;
    }
    *power = sqrtf(*power);
}
