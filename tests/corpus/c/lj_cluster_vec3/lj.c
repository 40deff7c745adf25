/* Lennard-Jones energy and forces of a small cluster, atoms displaced from a cubic
   lattice, stored as a flat coordinate array: each atom is passed as the sub-array
   `pos + 3 * i` to helpers taking `const vec3`, forces are accumulated through
   `f + 3 * j`, and a cutoff is switched on smoothly. */
#include <math.h>

typedef double real_t;
typedef real_t vec3[3];

#define NATOM_MAX 12

static real_t dist2(const vec3 a, const vec3 b, vec3 d)
{
    d[0] = a[0] - b[0];
    d[1] = a[1] - b[1];
    d[2] = a[2] - b[2];
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

/* f_i += s d, f_j -= s d */
static void add_pair_force(vec3 fi, vec3 fj, const vec3 d, real_t s)
{
    for (int k = 0; k < 3; k++) {
        fi[k] += s * d[k];
        fj[k] -= s * d[k];
    }
}

/* A smooth switch from 1 to 0 between r_on and r_off (squared distances). */
static real_t taper(real_t r2, real_t r_on2, real_t r_off2)
{
    if (r2 <= r_on2)
        return 1.0;
    real_t t = (r2 - r_on2) / (r_off2 - r_on2);
    return 1.0 - t * t * (3.0 - 2.0 * t);
}

void lj_cluster(int natom, const real_t *disp, real_t sigma, real_t *energy,
                real_t f[3 * NATOM_MAX])
{
    real_t pos[3 * NATOM_MAX];
    const real_t a = 1.12; /* near the pair minimum 2^(1/6) sigma */
    for (int i = 0; i < natom; i++) {
        real_t *p = pos + 3 * i;
        p[0] = a * (i % 2) + disp[3 * i];
        p[1] = a * ((i / 2) % 2) + disp[3 * i + 1];
        p[2] = a * (i / 4) + disp[3 * i + 2];
    }
    const real_t eps = 1.0;
    const real_t r_on2 = 2.0, r_off2 = 3.0;
    vec3 d;
    for (int k = 0; k < 3 * natom; k++)
        f[k] = 0.0;
    *energy = 0.0;
    for (int i = 0; i < natom - 1; i++) {
        for (int j = i + 1; j < natom; j++) {
            real_t r2 = dist2(pos + 3 * i, pos + 3 * j, d);
            if (r2 >= r_off2)
                continue;
            real_t sr2 = sigma * sigma / r2;
            real_t sr6 = sr2 * sr2 * sr2;
            real_t sw = taper(r2, r_on2, r_off2);
            *energy += 4.0 * eps * (sr6 * sr6 - sr6) * sw;
            /* force of the untapered potential, scaled by the taper */
            real_t s = 24.0 * eps * (2.0 * sr6 * sr6 - sr6) / r2 * sw;
            add_pair_force(f + 3 * i, &f[3 * j], d, s);
        }
    }
}
