/* Kinematics of a rigid body with small 3-vector linear algebra on array typedefs:
   `vec3` and `mat3` locals, `const vec3` parameters, a rotation matrix built from
   angles, cross products, and angles recovered with atan2 and hypot. */
#include <math.h>

typedef double real_t;
typedef real_t vec3[3];
typedef real_t mat3[3][3];

static void cross(const vec3 a, const vec3 b, vec3 c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static real_t dot3(const vec3 a, const vec3 b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

void rotate_body(const real_t *angles, const real_t *omega, const real_t *r,
                 real_t vel[3], real_t *energy, real_t *tilt)
{
    mat3 rot;
    vec3 w, rb, v;
    real_t cz = cos(angles[0]), sz = sin(angles[0]);
    real_t cy = cos(angles[1]), sy = sin(angles[1]);
    /* R = Rz(angle 0) Ry(angle 1) */
    rot[0][0] = cz * cy;
    rot[0][1] = -sz;
    rot[0][2] = cz * sy;
    rot[1][0] = sz * cy;
    rot[1][1] = cz;
    rot[1][2] = sz * sy;
    rot[2][0] = -sy;
    rot[2][1] = 0.0;
    rot[2][2] = cy;
    for (int i = 0; i < 3; i++) {
        w[i] = omega[i];
        rb[i] = 0.0;
        for (int j = 0; j < 3; j++)
            rb[i] += rot[i][j] * r[j];
    }
    /* velocity of the point: omega x (R r) */
    cross(w, rb, v);
    for (int i = 0; i < 3; i++)
        vel[i] = v[i];
    *energy = 0.5 * dot3(v, v) + 0.25 * dot3(w, w);
    /* angle of the rotated point above the x-y plane */
    *tilt = atan2(rb[2], hypot(rb[0], rb[1]));
}
