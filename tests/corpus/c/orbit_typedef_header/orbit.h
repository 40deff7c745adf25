/* Types of a small orbit integrator, as typedefs of anonymous structs: the user's
   driver includes this header, and so does adgen's generated header (defining the
   types again would make them different types in the driver). */
#ifndef ORBIT_H
#define ORBIT_H

#define NB 3

typedef struct {
    double pos[NB];
    double vel[NB];
    int nsteps;
} body_t;

typedef struct {
    double mu;
    double soft;
} field_t;

void advance(body_t *b, const field_t *f, double dt, double *energy);

#endif
