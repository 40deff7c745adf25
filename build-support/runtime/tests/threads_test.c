/* Two threads push and pop on the runtime at the same time: each has its own tape. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>

#include "adgen_runtime.h"

#define N_VALUES 200000

static pthread_barrier_t both_pushed;

typedef struct {
    int id;
    long wrong;
    size_t peak;
    size_t traffic;
    size_t size_after;
} worker_result;

static void *worker(void *arg) {
    worker_result *result = (worker_result *)arg;
    int i;
    for (i = 0; i < N_VALUES; i++) {
        double value = result->id * 1.0e6 + i;
        adgen_push_real8(&value);
        adgen_push_control((result->id + i) % 256);
    }
    /* Both tapes are full here: a shared stack would mix the threads' values. */
    pthread_barrier_wait(&both_pushed);
    for (i = N_VALUES - 1; i >= 0; i--) {
        double value;
        int k;
        adgen_pop_control(&k);
        adgen_pop_real8(&value);
        if (k != (result->id + i) % 256 || value != result->id * 1.0e6 + i) {
            result->wrong++;
        }
    }
    result->peak = adgen_tape_peak_bytes();
    result->traffic = adgen_tape_traffic_bytes();
    result->size_after = adgen_tape_size_bytes();
    adgen_tape_release();
    return NULL;
}

int main(void) {
    pthread_t threads[2];
    worker_result results[2] = {{1, 0, 0, 0, 0}, {2, 0, 0, 0, 0}};
    int t;
    pthread_barrier_init(&both_pushed, NULL, 2);
    for (t = 0; t < 2; t++) {
        pthread_create(&threads[t], NULL, worker, &results[t]);
    }
    for (t = 0; t < 2; t++) {
        pthread_join(threads[t], NULL);
    }
    pthread_barrier_destroy(&both_pushed);
    for (t = 0; t < 2; t++) {
        printf("thread %d: wrong %ld, peak %lu, traffic %lu, size %lu\n", results[t].id,
               results[t].wrong, (unsigned long)results[t].peak,
               (unsigned long)results[t].traffic, (unsigned long)results[t].size_after);
    }
    printf("main thread: peak %lu, traffic %lu\n", (unsigned long)adgen_tape_peak_bytes(),
           (unsigned long)adgen_tape_traffic_bytes());
    return 0;
}
