/* Pinhole camera with radial distortion. The helpers take plain pointers (`double *uv`)
   and change them in place; the adjoint re-runs each call and must save what it
   overwrites. No size is given anywhere: adgen takes it from the calling context, a
   local `double uv[2]` passed down two levels and `&cam[7]` of a `double all[9]`. */
#include <math.h>

static void distort(const double *k, double *uv)
{
    const double r2 = uv[0] * uv[0] + uv[1] * uv[1];
    const double scale = 1.0 + k[0] * r2 + k[1] * r2 * r2;
    uv[0] *= scale;
    uv[1] *= scale;
}

static void rotate_z(double angle, double *p)
{
    const double c = cos(angle), s = sin(angle);
    const double x = p[0];
    p[0] = c * x - s * p[1];
    p[1] = s * x + c * p[1];
}

/* Projects `point` with the camera `cam`: the snapshots of `uv` before each call to
   `distort` need its size, which only `reprojection`'s `double uv[2]` tells. */
static void project(const double *cam, const double *point, double *uv)
{
    double local[3];
    for (int i = 0; i < 3; i++)
        local[i] = point[i] - cam[1 + i];
    rotate_z(cam[0], local);
    uv[0] = local[0] / local[2];
    uv[1] = local[1] / local[2];
    distort(&cam[7], uv);
    distort(&cam[7], uv);
}

/* params: angle, centre (3), focal, principal point (2), distortion (2) */
void reprojection(const double *params, const double *point, double observed_u,
                  double observed_v, double *residual)
{
    double uv[2];
    double all[9];
    for (int i = 0; i < 9; i++)
        all[i] = params[i];
    project(all, point, uv);
    residual[0] = all[4] * uv[0] + all[5] - observed_u;
    residual[1] = all[4] * uv[1] + all[6] - observed_v;
}
