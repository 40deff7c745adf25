#ifndef CELL_H
#define CELL_H
#define NW 3
struct params { double gamma; double scale; };
struct cell { double rho, u; double w[NW]; int nsub; double age; struct params par; };
struct fluxes { double rho, u; double w[NW]; double count; double gamma; };
void relax(struct cell *c, struct fluxes *flux, struct params pv, double dt);
#endif
