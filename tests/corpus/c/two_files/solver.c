/* Conservative finite-volume steps calling a flux from another file through its
   prototypes (local headers are not found yet: adgen preprocesses from standard
   input); the work array is local, the state is updated in place. */
double flux(double u, double speed);
void apply_flux(int n, const double *u, double *f, double speed);

#define NX 16

void solve(int n, int nsteps, double *u, double speed, double *mass)
{
    double f[NX];
    const double lambda = 0.05;
    for (int s = 0; s < nsteps; s++) {
        apply_flux(n, u, f, speed);
        for (int i = 1; i < n; i++)
            u[i] -= lambda * (f[i] - f[i - 1]);
    }
    *mass = 0.0;
    for (int i = 0; i < n; i++)
        *mass += u[i] * u[i] + flux(u[i], 0.0);
}
