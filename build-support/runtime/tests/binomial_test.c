/* The binomial checkpointing schedule, played on a simulated loop: the state is the
 * step it is before, snapshots are pushed on the real tape with repeat marks, as
 * generated code does. Checks that every step is turned once, last first, each from
 * the state before it; that no more snapshots are held than asked; that the re-runs
 * are the fewest possible; and that schedules nest. Exit status 0 when all
 * hold; prints the re-runs. */
#include "adgen_runtime.h"

#include <stdio.h>
#include <stdlib.h>

static int failures;

static void check(int ok, const char *what, int steps, int snaps) {
    if (!ok) {
        fprintf(stderr, "FAIL %s (steps %d, snapshots %d)\n", what, steps, snaps);
        failures++;
    }
}

/* C(c + t, c) */
static long beta(int c, int t) {
    double v = 1.0;
    for (int i = 1; i <= c; i++) {
        v = v * (t + i) / i;
    }
    return (long)(v + 0.5);
}

/* Reverses `steps` simulated steps with `snaps` snapshots; `nested` turns run a small
 * schedule of their own. Returns the steps advanced (re-run without taping). */
static long play(int steps, int snaps, int nested) {
    int state = 0, held = 0, most = 0, next_turn = steps - 1;
    long advanced = 0, size_before;
    int *runs = calloc((size_t)steps + 1, sizeof *runs);
    /* The forward sweep: the snapshot of step 0, then the loop to its end. */
    adgen_push_integer4(&state);
    adgen_start_repeat();
    state = steps;
    size_before = (long)adgen_tape_size_bytes();
    adgen_binomial_start(steps, snaps);
    for (;;) {
        int action = adgen_binomial_next();
        int a = adgen_binomial_step(), b = adgen_binomial_end_step();
        if (action == ADGEN_BINOMIAL_DONE) {
            break;
        } else if (action == ADGEN_BINOMIAL_ADVANCE) {
            check(state == a && b > a && b <= steps, "advance from the state", steps, snaps);
            for (int k = a; k < b; k++) {
                runs[k]++;
            }
            advanced += b - a;
            state = b;
        } else if (action == ADGEN_BINOMIAL_TAKESHOT) {
            check(state == a, "snapshot of the state", steps, snaps);
            adgen_push_integer4(&state);
            adgen_start_repeat();
            held++;
            most = held > most ? held : most;
        } else if (action == ADGEN_BINOMIAL_RESTORE) {
            adgen_pop_integer4(&state);
            adgen_reset_repeat();
            check(state == a, "restore of the newest snapshot", steps, snaps);
        } else if (action == ADGEN_BINOMIAL_FREE) {
            adgen_end_repeat();
            adgen_pop_integer4(&state);
            held--;
            check(state == a, "free of the newest snapshot", steps, snaps);
        } else if (action == ADGEN_BINOMIAL_TURN) {
            check(state == a && a == next_turn, "turn in reverse order", steps, snaps);
            next_turn--;
            runs[a]++;
            /* The taped step and its adjoint: balanced on the tape. */
            double x = a;
            adgen_push_real8(&x);
            if (nested) {
                check(play(5, 2, 0) >= 0, "nested schedule", steps, snaps);
            }
            adgen_pop_real8(&x);
            state = a + 1;
        } else {
            check(0, "known action", steps, snaps);
        }
        check((long)adgen_tape_size_bytes() >= size_before - 4, "tape above the base", steps, snaps);
    }
    adgen_end_repeat();
    adgen_pop_integer4(&state);
    check(state == 0, "state before the loop given back", steps, snaps);
    check(next_turn == -1, "every step turned", steps, snaps);
    check(held == 0, "every snapshot freed", steps, snaps);
    if (snaps > 0) {
        check(most + 1 <= snaps || snaps == 1, "snapshots within the number asked", steps, snaps);
        /* Each step runs at most t + 1 times, t the least with beta(snaps, t) >= steps. */
        int t = 0;
        while (beta(snaps, t) < steps) {
            t++;
        }
        for (int k = 0; k < steps; k++) {
            check(runs[k] <= t + 1, "re-runs within the binomial bound", steps, snaps);
        }
        /* And no schedule does fewer: t*n - C(snaps + t, t - 1) re-runs in all
         * (Griewank and Walther, 2000). */
        long fewest = steps == 0 ? 0 : (long)t * steps - (t >= 1 ? beta(snaps + 1, t - 1) : 0);
        check(advanced == fewest, "the fewest re-runs", steps, snaps);
    }
    free(runs);
    return advanced;
}

int main(void) {
    int sizes[] = {0, 1, 2, 3, 7, 10, 64, 100, 1000};
    int snaps[] = {0, 1, 2, 3, 5, 10};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        for (size_t j = 0; j < sizeof snaps / sizeof *snaps; j++) {
            long advanced = play(sizes[i], snaps[j], 0);
            printf("steps %d snapshots %d: %ld steps re-run\n", sizes[i], snaps[j], advanced);
        }
    }
    play(12, 3, 1);
    check(adgen_tape_size_bytes() == 0, "tape empty at the end", 0, 0);
    adgen_tape_release();
    if (failures == 0) {
        printf("binomial schedule: all checks passed\n");
    }
    return failures == 0 ? 0 : 1;
}
