/* Model constants and state shared by the two files: defined in model.c, declared
   `extern` here. */
#ifndef MODEL_H
#define MODEL_H

#define NP 5

extern double g_visc;
extern double g_rho_fluid;
extern double g_grav;
/* Work done against drag, accumulated by every settling step (active). */
extern double g_drag_work;
extern double g_radius[NP];

void set_model(double visc, double rho_fluid);
void set_radii(const double *r);

#endif
