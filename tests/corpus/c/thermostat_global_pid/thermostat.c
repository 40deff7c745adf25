/* A room heated under PI control: the controller is a global struct (`g_ctl`, active
   gains and integral state) configured by one function and updated by another, the
   delivered heat summed in an active global accumulator (`g_heat_total`) read by the
   root at the end, the room a struct passed by pointer, a saturated heater (`fmin`,
   `fmax`), a passive global cycle counter, and a global heat capacity that a
   parameter of the same name shadows in `heating`. */
#include <math.h>

struct controller {
    double kp;
    double ki;
    double integral;
    double setpoint;
    int cycles;
};

struct room {
    double temp;
    double wall;
    double capacity;
};

struct controller g_ctl;
double g_heat_total;
double g_outside = 5.0;
double capacity;

static void configure(double kp, double ki, double setpoint)
{
    g_ctl.kp = kp;
    g_ctl.ki = ki;
    g_ctl.setpoint = setpoint;
    g_ctl.integral = 0.0;
    g_ctl.cycles = 0;
    g_heat_total = 0.0;
    capacity = 8.0 + 0.1 * setpoint;
}

static double control(double temp, double dt)
{
    double err = g_ctl.setpoint - temp;
    double power;
    g_ctl.integral += err * dt;
    power = g_ctl.kp * err + g_ctl.ki * g_ctl.integral;
    power = fmax(0.0, fmin(power, 40.0));
    g_ctl.cycles++;
    return power;
}

static double heating(double power, double loss, double capacity)
{
    return (power - loss) / capacity;
}

static void room_step(struct room *r, double power, double dt)
{
    double loss = (r->temp - g_outside) / r->wall;
    r->temp += dt * (heating(power, loss, capacity) - 0.02 * r->temp / r->capacity);
    g_heat_total += power * dt;
}

void regulate(int nsteps, double dt, double kp, double ki, double setpoint, double temp0,
              double wall, double *temp_end, double *heat)
{
    struct room r;
    int s;
    double power;
    configure(kp, ki, setpoint);
    r.temp = temp0;
    r.wall = wall;
    r.capacity = 8.0;
    for (s = 0; s < nsteps; s++) {
        power = control(r.temp, dt);
        room_step(&r, power, dt);
    }
    *temp_end = r.temp;
    *heat = g_heat_total + 0.01 * g_ctl.integral;
}
