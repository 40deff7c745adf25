/* Small vector algebra in functions that return structs, as C physics codes write it:
   `vec2 add(vec2 a, vec2 b)`, results assigned whole, passed on by value, returned. */
#include <math.h>

typedef struct {
    double x, y;
} vec2;

struct body {
    vec2 pos;
    double mass;
};

static vec2 add(vec2 a, vec2 b)
{
    vec2 c;
    c.x = a.x + b.x;
    c.y = a.y + b.y;
    return c;
}

static vec2 scale(double s, vec2 a)
{
    vec2 r = {s * a.x, s * a.y};
    return r;
}

/* A call's struct returned directly. */
static vec2 pull(vec2 p, double k)
{
    double r2 = p.x * p.x + p.y * p.y + 0.5;
    return scale(-k / (r2 * sqrt(r2)), p);
}

static double dot(vec2 a, vec2 b)
{
    return a.x * b.x + a.y * b.y;
}

void orbit(const double p0[2], const double v0[2], double k, double dt, int n, double out[2],
           double *energy)
{
    vec2 p = {p0[0], p0[1]}, v = {v0[0], v0[1]};
    struct body b;
    for (int i = 0; i < n; i++) {
        vec2 acc = pull(p, k);
        v = add(v, scale(dt, acc)); /* v on both sides */
        p = add(p, scale(dt, v));
    }
    b.pos = add(p, v); /* into a struct member */
    b.mass = 2.0;
    out[0] = b.pos.x;
    out[1] = b.pos.y;
    *energy = 0.5 * b.mass * dot(v, v) - k / sqrt(dot(p, p) + 0.5);
}
