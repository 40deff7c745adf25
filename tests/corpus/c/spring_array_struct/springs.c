/* A spring network held as an array of spring structs: each spring names its two end
   nodes (passive int indices inside a nested struct) and carries an active stiffness
   and rest length. The springs live in a file-scope array filled by a setup function;
   the relaxation kernel takes them through a pointer indexed as an array, and a 2-D
   local array of structs keeps the node history of the last two sweeps. */
#include <math.h>

#define NNODE 5
#define NSPRING 6

struct ends {
    int a;
    int b;
};

struct spring {
    struct ends e;
    double k;
    double rest;
};

struct node {
    double pos[2];
    double force[2];
};

struct spring g_springs[NSPRING];

static void setup(const double *stiff, double rest)
{
    int s;
    for (s = 0; s < NSPRING; s++) {
        g_springs[s].e.a = s % NNODE;
        g_springs[s].e.b = (s + 1 + s / NNODE) % NNODE;
        g_springs[s].k = stiff[s];
        g_springs[s].rest = rest * (1.0 + 0.1 * s);
    }
}

/* Accumulates every spring's force on its two end nodes. */
static void spring_forces(const struct spring *sp, int ns, struct node *nd, int nn)
{
    int i, s, d;
    for (i = 0; i < nn; i++) {
        nd[i].force[0] = 0.0;
        nd[i].force[1] = -0.1 * nd[i].pos[1];
    }
    for (s = 0; s < ns; s++) {
        int a = sp[s].e.a;
        int b = (sp + s)->e.b;
        double dx = nd[b].pos[0] - nd[a].pos[0];
        double dy = nd[b].pos[1] - nd[a].pos[1];
        double len = sqrt(dx * dx + dy * dy);
        double t = sp[s].k * (len - sp[s].rest) / len;
        for (d = 0; d < 2; d++) {
            double f = t * (d == 0 ? dx : dy);
            nd[a].force[d] += f;
            nd[b].force[d] -= f;
        }
    }
}

void relax(const double stiff[NSPRING], const double x0[2 * NNODE], double rest,
           double h, int nsweep, double xout[2 * NNODE], double *energy)
{
    struct node nodes[NNODE];
    struct node hist[2][NNODE];
    int i, it, d, s;
    setup(stiff, rest);
    for (i = 0; i < NNODE; i++) {
        nodes[i].pos[0] = x0[2 * i];
        nodes[i].pos[1] = x0[2 * i + 1];
    }
    for (it = 0; it < nsweep; it++) {
        spring_forces(g_springs, NSPRING, nodes, NNODE);
        for (i = 0; i < NNODE; i++) {
            hist[it % 2][i] = nodes[i];
            for (d = 0; d < 2; d++)
                nodes[i].pos[d] += h * nodes[i].force[d];
        }
    }
    *energy = 0.0;
    for (s = 0; s < NSPRING; s++) {
        double dx = nodes[g_springs[s].e.b].pos[0] - nodes[g_springs[s].e.a].pos[0];
        double dy = nodes[g_springs[s].e.b].pos[1] - nodes[g_springs[s].e.a].pos[1];
        double len = sqrt(dx * dx + dy * dy);
        *energy += 0.5 * g_springs[s].k * (len - g_springs[s].rest) * (len - g_springs[s].rest);
    }
    for (i = 0; i < NNODE; i++) {
        xout[2 * i] = nodes[i].pos[0] + 0.5 * hist[0][i].pos[0];
        xout[2 * i + 1] = nodes[i].pos[1] + 0.5 * hist[1][i].force[1];
    }
}
