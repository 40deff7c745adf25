/* adgen runtime: one thread-local LIFO byte stack (see adgen_runtime.h). */
#include "adgen_runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__STDC_NO_THREADS__)
#define ADGEN_THREAD_LOCAL _Thread_local
#elif defined(__GNUC__)
#define ADGEN_THREAD_LOCAL __thread
#elif defined(_MSC_VER)
#define ADGEN_THREAD_LOCAL __declspec(thread)
#else
#error "adgen runtime: no thread-local storage keyword for this compiler"
#endif

/* First allocation; the buffer then doubles when full. */
#define ADGEN_INITIAL_CAPACITY ((size_t)1 << 16)

typedef struct {
    unsigned char *data;
    size_t size;     /* bytes in use */
    size_t capacity; /* bytes allocated */
    size_t peak;     /* largest size since the last reset */
    size_t traffic;  /* bytes pushed since the last reset */
} adgen_tape;

static ADGEN_THREAD_LOCAL adgen_tape tape;

static void adgen_fail(const char *message, const char *what, size_t bytes) {
    fprintf(stderr,
            "adgen runtime: %s (%s, %lu bytes; the tape holds %lu bytes). "
            "This is an internal error of adgen-generated code.\n",
            message, what, (unsigned long)bytes, (unsigned long)tape.size);
    fflush(stderr);
    abort();
}

/* Room for `bytes` more bytes: doubles the buffer as often as needed. */
static void adgen_reserve(size_t bytes, const char *what) {
    size_t needed = tape.size + bytes;
    size_t capacity;
    unsigned char *grown;
    if (needed < tape.size) {
        adgen_fail("tape size overflow", what, bytes);
    }
    if (needed <= tape.capacity) {
        return;
    }
    capacity = tape.capacity ? tape.capacity : ADGEN_INITIAL_CAPACITY;
    while (capacity < needed) {
        if (capacity > ((size_t)-1) / 2) {
            capacity = needed;
            break;
        }
        capacity *= 2;
    }
    grown = (unsigned char *)realloc(tape.data, capacity);
    if (grown == NULL) {
        adgen_fail("out of memory while growing the tape", what, bytes);
    }
    tape.data = grown;
    tape.capacity = capacity;
}

static void adgen_push_bytes(const void *source, size_t bytes, const char *what) {
    adgen_reserve(bytes, what);
    if (bytes > 0) {
        memcpy(tape.data + tape.size, source, bytes);
    }
    tape.size += bytes;
    tape.traffic += bytes;
    if (tape.size > tape.peak) {
        tape.peak = tape.size;
    }
}

static void adgen_look_bytes(void *target, size_t bytes, const char *what) {
    if (bytes > tape.size) {
        adgen_fail("look or pop past the bottom of the tape", what, bytes);
    }
    if (bytes > 0) {
        memcpy(target, tape.data + tape.size - bytes, bytes);
    }
}

static void adgen_pop_bytes(void *target, size_t bytes, const char *what) {
    adgen_look_bytes(target, bytes, what);
    tape.size -= bytes;
}

static size_t adgen_count(int n) {
    return n > 0 ? (size_t)n : 0;
}

void adgen_push_real8(const double *x) { adgen_push_bytes(x, sizeof *x, "real8"); }
void adgen_pop_real8(double *x) { adgen_pop_bytes(x, sizeof *x, "real8"); }
void adgen_look_real8(double *x) { adgen_look_bytes(x, sizeof *x, "real8"); }

void adgen_push_real4(const float *x) { adgen_push_bytes(x, sizeof *x, "real4"); }
void adgen_pop_real4(float *x) { adgen_pop_bytes(x, sizeof *x, "real4"); }
void adgen_look_real4(float *x) { adgen_look_bytes(x, sizeof *x, "real4"); }

void adgen_push_integer4(const int32_t *k) { adgen_push_bytes(k, sizeof *k, "integer4"); }
void adgen_pop_integer4(int32_t *k) { adgen_pop_bytes(k, sizeof *k, "integer4"); }
void adgen_look_integer4(int32_t *k) { adgen_look_bytes(k, sizeof *k, "integer4"); }

void adgen_push_integer8(const int64_t *k) { adgen_push_bytes(k, sizeof *k, "integer8"); }
void adgen_pop_integer8(int64_t *k) { adgen_pop_bytes(k, sizeof *k, "integer8"); }
void adgen_look_integer8(int64_t *k) { adgen_look_bytes(k, sizeof *k, "integer8"); }

void adgen_push_boolean(int b) {
    unsigned char byte = (unsigned char)(b != 0);
    adgen_push_bytes(&byte, 1, "boolean");
}

void adgen_pop_boolean(int *b) {
    unsigned char byte;
    adgen_pop_bytes(&byte, 1, "boolean");
    *b = byte != 0;
}

void adgen_look_boolean(int *b) {
    unsigned char byte;
    adgen_look_bytes(&byte, 1, "boolean");
    *b = byte != 0;
}

void adgen_push_control(int k) {
    unsigned char byte;
    if (k < 0 || k > 255) {
        adgen_fail("control value outside 0..255 pushed", "control", 1);
    }
    byte = (unsigned char)k;
    adgen_push_bytes(&byte, 1, "control");
}

void adgen_pop_control(int *k) {
    unsigned char byte;
    adgen_pop_bytes(&byte, 1, "control");
    *k = byte;
}

void adgen_look_control(int *k) {
    unsigned char byte;
    adgen_look_bytes(&byte, 1, "control");
    *k = byte;
}

void adgen_push_real8_array(const double *a, int n) {
    adgen_push_bytes(a, adgen_count(n) * sizeof *a, "real8 array");
}
void adgen_pop_real8_array(double *a, int n) {
    adgen_pop_bytes(a, adgen_count(n) * sizeof *a, "real8 array");
}
void adgen_push_real4_array(const float *a, int n) {
    adgen_push_bytes(a, adgen_count(n) * sizeof *a, "real4 array");
}
void adgen_pop_real4_array(float *a, int n) {
    adgen_pop_bytes(a, adgen_count(n) * sizeof *a, "real4 array");
}
void adgen_push_integer4_array(const int32_t *a, int n) {
    adgen_push_bytes(a, adgen_count(n) * sizeof *a, "integer4 array");
}
void adgen_pop_integer4_array(int32_t *a, int n) {
    adgen_pop_bytes(a, adgen_count(n) * sizeof *a, "integer4 array");
}

size_t adgen_tape_peak_bytes(void) { return tape.peak; }
size_t adgen_tape_traffic_bytes(void) { return tape.traffic; }
size_t adgen_tape_size_bytes(void) { return tape.size; }

void adgen_tape_reset_stats(void) {
    tape.peak = tape.size;
    tape.traffic = 0;
}

void adgen_tape_release(void) {
    if (tape.size != 0) {
        adgen_fail("release of a tape that is not empty", "release", 0);
    }
    free(tape.data);
    tape.data = NULL;
    tape.capacity = 0;
}
