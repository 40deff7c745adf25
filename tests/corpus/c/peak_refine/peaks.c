/* Peak picking in a sampled spectrum: local maxima above a threshold are packed into
   index and height lists with `idx[np++] = i`, each is refined by parabolic
   interpolation through its neighbours, and the refined peaks are summed back to front
   with `while (np-- > 0)`. */
#include <math.h>

#define NMAX 64

/* Vertex of the parabola through (-1, a), (0, b), (1, c): offset and height. */
static double parabola_peak(double a, double b, double c, double *offset)
{
    double denom = a - 2.0 * b + c;
    *offset = 0.5 * (a - c) / denom;
    return b - 0.25 * (a - c) * *offset;
}

void refine_peaks(int n, const double *spec, double threshold, double pos[NMAX],
                  double height[NMAX], double *centroid, int *count)
{
    int idx[NMAX];
    int np = 0;
    for (int i = 1; i < n - 1; i++) {
        if (spec[i] > spec[i - 1] && spec[i] >= spec[i + 1] && spec[i] > threshold)
            idx[np++] = i;
    }
    *count = np;
    for (int k = 0; k < np; k++) {
        const double *s = spec + idx[k];
        double off;
        height[k] = parabola_peak(s[-1], *s, s[1], &off);
        pos[k] = idx[k] + off;
    }
    for (int k = np; k < NMAX; k++) {
        pos[k] = 0.0;
        height[k] = 0.0;
    }
    double wsum = 0.0, psum = 0.0;
    while (np-- > 0) {
        wsum += height[np];
        psum += height[np] * pos[np];
    }
    *centroid = psum / wsum;
}
