/* Explicit heat steps with a varying conductivity, run for nsteps steps; the cost is
 * the final energy plus a running sum of the boundary flux. The time loop asks for
 * binomial checkpointing (`$AD BINOMIAL-CKP`): the adjoint keeps one step's tape and
 * three snapshots at a time, and re-runs steps from them; inside a step, a region
 * (`$AD CHECKPOINT-START` / `CHECKPOINT-END`) is run again from its own snapshot. */
#include <math.h>

static void step(int n, const double *k, double *u, double r) {
  double left = u[0];
  for (int i = 1; i < n - 1; i++) {
    double centre = u[i];
    u[i] = centre + r * k[i] * (left - 2.0 * centre + u[i + 1]) + 0.01 * sin(centre);
    left = centre;
  }
}

void heat(int n, int nsteps, const double *k, double *u, double *cost) {
  double flux = 0.0, r = 0.2;
  /* $AD BINOMIAL-CKP nsteps 3 */
  for (int t = 0; t < nsteps; t++) {
    /* $AD CHECKPOINT-START */
    step(n, k, u, r);
    flux += k[1] * (u[1] - u[0]);
    /* $AD CHECKPOINT-END */
    r = r * 0.999;
  }
  /* After the loop: the rate it read is overwritten. */
  r = 0.0;
  *cost = flux + r;
  for (int i = 0; i < n; i++) *cost += u[i] * u[i];
}
