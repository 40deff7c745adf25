/* adgen runtime: one thread-local LIFO byte stack (see adgen_runtime.h).
 *
 * The tape is a contiguous buffer that doubles when full. Entries are raw bytes: a
 * real(8) takes 8 bytes, a control value or a boolean 1 byte. Compiled with
 * -DADGEN_TAPE_CHECK, every entry also records its type and size, and a pop that does
 * not match the push it undoes aborts with both named: a debugging aid for generated
 * code (it changes the byte counts reported by the statistics).
 *
 * Repeated access (for binomial checkpointing): after adgen_start_repeat(), entries
 * popped are not lost; adgen_reset_repeat() puts them back, so the same values can be
 * popped again; adgen_end_repeat() forgets the mark. While popped below a mark,
 * pushing would overwrite the saved entries, so it aborts.
 */
#include "adgen_runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
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

/* What an entry holds; used in messages and, with ADGEN_TAPE_CHECK, on the tape. */
typedef enum {
    ADGEN_REAL8 = 1,
    ADGEN_REAL4,
    ADGEN_INTEGER4,
    ADGEN_INTEGER8,
    ADGEN_POINTER,
    ADGEN_BOOLEAN,
    ADGEN_CONTROL,
    ADGEN_REAL8_ARRAY,
    ADGEN_REAL4_ARRAY,
    ADGEN_INTEGER4_ARRAY,
    ADGEN_INTEGER8_ARRAY,
    ADGEN_CHARACTERS,
    ADGEN_COMPLEX16,
    ADGEN_COMPLEX8,
    ADGEN_COMPLEX16_ARRAY,
    ADGEN_COMPLEX8_ARRAY
} adgen_entry_kind;

static const char *adgen_kind_name(int kind) {
    switch (kind) {
    case ADGEN_REAL8: return "real8";
    case ADGEN_REAL4: return "real4";
    case ADGEN_INTEGER4: return "integer4";
    case ADGEN_INTEGER8: return "integer8";
    case ADGEN_POINTER: return "pointer";
    case ADGEN_BOOLEAN: return "boolean";
    case ADGEN_CONTROL: return "control";
    case ADGEN_REAL8_ARRAY: return "real8 array";
    case ADGEN_REAL4_ARRAY: return "real4 array";
    case ADGEN_INTEGER4_ARRAY: return "integer4 array";
    case ADGEN_INTEGER8_ARRAY: return "integer8 array";
    case ADGEN_CHARACTERS: return "characters";
    case ADGEN_COMPLEX16: return "complex16";
    case ADGEN_COMPLEX8: return "complex8";
    case ADGEN_COMPLEX16_ARRAY: return "complex16 array";
    case ADGEN_COMPLEX8_ARRAY: return "complex8 array";
    default: return "unknown entry";
    }
}

typedef struct {
    unsigned char *data;
    size_t size;     /* bytes in use */
    size_t capacity; /* bytes allocated */
    size_t peak;     /* largest size since the last reset */
    size_t traffic;  /* bytes pushed since the last reset */
    size_t *marks;   /* repeat marks, innermost last */
    size_t n_marks;
    size_t marks_capacity;
    size_t floor;    /* the innermost mark, 0 without marks: pushing below it aborts */
} adgen_tape;

/* initial-exec: one instruction to reach the tape even when this file is compiled as
 * position-independent code for a static library (the tape is small, so the static TLS
 * block always has room for it). */
#if defined(__GNUC__)
#define ADGEN_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define ADGEN_TLS_MODEL
#endif

static ADGEN_THREAD_LOCAL adgen_tape tape ADGEN_TLS_MODEL;

/* Reports an internal error of generated code and aborts. `detail` may be empty. */
static void adgen_fail_detail(const char *message, int kind, size_t bytes, const char *detail) {
    fprintf(stderr,
            "adgen runtime: %s (%s, %lu bytes; the tape holds %lu bytes%s). "
            "This is an internal error of adgen-generated code.\n",
            message, adgen_kind_name(kind), (unsigned long)bytes, (unsigned long)tape.size,
            detail);
    fflush(stderr);
    abort();
}

static void adgen_fail(const char *message, int kind, size_t bytes) {
    adgen_fail_detail(message, kind, bytes, "");
}

/* Room for `bytes` more bytes: doubles the buffer as often as needed. */
static void adgen_reserve(size_t bytes, int kind) {
    size_t needed = tape.size + bytes;
    size_t capacity;
    unsigned char *grown;
    if (needed < tape.size) {
        adgen_fail("tape size overflow", kind, bytes);
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
        adgen_fail("out of memory while growing the tape", kind, bytes);
    }
    tape.data = grown;
    tape.capacity = capacity;
}

static void adgen_raw_push(const void *source, size_t bytes, int kind) {
    adgen_reserve(bytes, kind);
    if (bytes > 0) {
        memcpy(tape.data + tape.size, source, bytes);
    }
    tape.size += bytes;
    tape.traffic += bytes;
    if (tape.size > tape.peak) {
        tape.peak = tape.size;
    }
}

/* Copies the top `bytes` bytes that lie `depth` bytes below the top. */
static void adgen_raw_look(void *target, size_t bytes, size_t depth, int kind) {
    if (bytes + depth > tape.size || bytes + depth < bytes) {
        adgen_fail("look or pop past the bottom of the tape", kind, bytes);
    }
    if (bytes > 0) {
        memcpy(target, tape.data + tape.size - depth - bytes, bytes);
    }
}

#ifdef ADGEN_TAPE_CHECK
/* The record after each entry: its size then its kind. */
#define ADGEN_TRAILER_BYTES (sizeof(unsigned long) + 1)

static void adgen_push_entry(const void *source, size_t bytes, int kind) {
    unsigned long size = (unsigned long)bytes;
    unsigned char tag = (unsigned char)kind;
    if (tape.n_marks > 0 && tape.size < tape.marks[tape.n_marks - 1]) {
        adgen_fail("push while entries kept for a repeat are popped", kind, bytes);
    }
    adgen_raw_push(source, bytes, kind);
    adgen_raw_push(&size, sizeof size, kind);
    adgen_raw_push(&tag, 1, kind);
}

static void adgen_look_entry(void *target, size_t bytes, int kind) {
    unsigned long size;
    unsigned char tag;
    adgen_raw_look(&tag, 1, 0, kind);
    adgen_raw_look(&size, sizeof size, 1, kind);
    if (tag != kind || size != (unsigned long)bytes) {
        char detail[80];
        snprintf(detail, sizeof detail, "; its top entry is a %s of %lu bytes",
                 adgen_kind_name(tag), size);
        adgen_fail_detail("look or pop does not match the last push", kind, bytes, detail);
    }
    adgen_raw_look(target, bytes, ADGEN_TRAILER_BYTES, kind);
}

static void adgen_pop_entry(void *target, size_t bytes, int kind) {
    adgen_look_entry(target, bytes, kind);
    tape.size -= bytes + ADGEN_TRAILER_BYTES;
}
#else
/* The fast paths are inlined into each typed push and pop, where `bytes` is a constant:
 * the copy becomes a move instead of a call of memcpy (measured on heat_explicit with
 * callgrind: about 45 instructions per scalar push when this was a call). */
#if defined(__GNUC__)
#define ADGEN_INLINE static inline __attribute__((always_inline))
#else
#define ADGEN_INLINE static inline
#endif

ADGEN_INLINE void adgen_push_entry(const void *source, size_t bytes, int kind) {
    adgen_tape *t = &tape;
    size_t size = t->size;
    /* Fast path: not below a repeat mark (binomial checkpointing pushes above its
     * snapshots at full speed), room left. */
    if (size >= t->floor && bytes <= t->capacity - size) {
        memcpy(t->data + size, source, bytes);
        size += bytes;
        t->size = size;
        t->traffic += bytes;
        if (size > t->peak) {
            t->peak = size;
        }
        return;
    }
    if (t->n_marks > 0 && t->size < t->marks[t->n_marks - 1]) {
        adgen_fail("push while entries kept for a repeat are popped", kind, bytes);
    }
    adgen_raw_push(source, bytes, kind);
}

ADGEN_INLINE void adgen_look_entry(void *target, size_t bytes, int kind) {
    adgen_raw_look(target, bytes, 0, kind);
}

ADGEN_INLINE void adgen_pop_entry(void *target, size_t bytes, int kind) {
    adgen_tape *t = &tape;
    if (bytes <= t->size) {
        t->size -= bytes;
        memcpy(target, t->data + t->size, bytes);
        return;
    }
    adgen_raw_look(target, bytes, 0, kind);
}
#endif

static size_t adgen_count(int n) {
    return n > 0 ? (size_t)n : 0;
}

void adgen_push_real8(const double *x) { adgen_push_entry(x, sizeof *x, ADGEN_REAL8); }
void adgen_pop_real8(double *x) { adgen_pop_entry(x, sizeof *x, ADGEN_REAL8); }
void adgen_look_real8(double *x) { adgen_look_entry(x, sizeof *x, ADGEN_REAL8); }

void adgen_push_real4(const float *x) { adgen_push_entry(x, sizeof *x, ADGEN_REAL4); }
void adgen_pop_real4(float *x) { adgen_pop_entry(x, sizeof *x, ADGEN_REAL4); }
void adgen_look_real4(float *x) { adgen_look_entry(x, sizeof *x, ADGEN_REAL4); }

void adgen_push_integer4(const int32_t *k) { adgen_push_entry(k, sizeof *k, ADGEN_INTEGER4); }
void adgen_pop_integer4(int32_t *k) { adgen_pop_entry(k, sizeof *k, ADGEN_INTEGER4); }
void adgen_look_integer4(int32_t *k) { adgen_look_entry(k, sizeof *k, ADGEN_INTEGER4); }

void adgen_push_integer8(const int64_t *k) { adgen_push_entry(k, sizeof *k, ADGEN_INTEGER8); }
void adgen_pop_integer8(int64_t *k) { adgen_pop_entry(k, sizeof *k, ADGEN_INTEGER8); }
void adgen_look_integer8(int64_t *k) { adgen_look_entry(k, sizeof *k, ADGEN_INTEGER8); }

void adgen_push_pointer(void *const *p) { adgen_push_entry(p, sizeof *p, ADGEN_POINTER); }
void adgen_pop_pointer(void **p) { adgen_pop_entry(p, sizeof *p, ADGEN_POINTER); }
void adgen_look_pointer(void **p) { adgen_look_entry(p, sizeof *p, ADGEN_POINTER); }

void adgen_push_boolean(int b) {
    unsigned char byte = (unsigned char)(b != 0);
    adgen_push_entry(&byte, 1, ADGEN_BOOLEAN);
}

void adgen_pop_boolean(int *b) {
    unsigned char byte;
    adgen_pop_entry(&byte, 1, ADGEN_BOOLEAN);
    *b = byte != 0;
}

void adgen_look_boolean(int *b) {
    unsigned char byte;
    adgen_look_entry(&byte, 1, ADGEN_BOOLEAN);
    *b = byte != 0;
}

/* LOGICAL arrays: element i is true when any of its `size` bytes is not zero; true is
 * stored back as the integer 1 of that size, as gfortran writes .TRUE. */
static unsigned char *adgen_logical_bytes(size_t count) {
    unsigned char *bytes = malloc(count > 0 ? count : 1);
    if (bytes == NULL) {
        adgen_fail("out of memory for a LOGICAL array", ADGEN_BOOLEAN, count);
    }
    return bytes;
}

static void adgen_store_logicals(void *a, const unsigned char *bytes, size_t count, int size) {
    /* The integer 1 of `width` bytes: its low byte set, the others zero. */
    static const uint16_t probe = 1;
    size_t width = size > 0 ? (size_t)size : 1;
    size_t low = *(const unsigned char *)&probe == 1 ? 0 : width - 1;
    unsigned char *out = a;
    memset(out, 0, count * width);
    for (size_t i = 0; i < count; i++) {
        out[i * width + low] = bytes[i] != 0;
    }
}

void adgen_push_logical_array(const void *a, int n, int size) {
    size_t count = adgen_count(n), width = size > 0 ? (size_t)size : 1;
    const unsigned char *in = a;
    unsigned char *bytes = adgen_logical_bytes(count);
    for (size_t i = 0; i < count; i++) {
        unsigned char any = 0;
        for (size_t k = 0; k < width; k++) {
            any |= in[i * width + k];
        }
        bytes[i] = any != 0;
    }
    adgen_push_entry(bytes, count, ADGEN_BOOLEAN);
    free(bytes);
}

/* The last LOGICAL array pushed into `a`, popped (`pop`) or left on the tape. */
static void adgen_read_logical_array(void *a, int n, int size, int pop) {
    size_t count = adgen_count(n);
    unsigned char *bytes = adgen_logical_bytes(count);
    if (pop) {
        adgen_pop_entry(bytes, count, ADGEN_BOOLEAN);
    } else {
        adgen_look_entry(bytes, count, ADGEN_BOOLEAN);
    }
    adgen_store_logicals(a, bytes, count, size);
    free(bytes);
}

void adgen_pop_logical_array(void *a, int n, int size) { adgen_read_logical_array(a, n, size, 1); }
void adgen_look_logical_array(void *a, int n, int size) { adgen_read_logical_array(a, n, size, 0); }

void adgen_push_control(int k) {
    unsigned char byte;
    if (k < 0 || k > 255) {
        adgen_fail("control value outside 0..255 pushed", ADGEN_CONTROL, 1);
    }
    byte = (unsigned char)k;
    adgen_push_entry(&byte, 1, ADGEN_CONTROL);
}

void adgen_pop_control(int *k) {
    unsigned char byte;
    adgen_pop_entry(&byte, 1, ADGEN_CONTROL);
    *k = byte;
}

void adgen_look_control(int *k) {
    unsigned char byte;
    adgen_look_entry(&byte, 1, ADGEN_CONTROL);
    *k = byte;
}

/* A branch number of a construct with more than 256 ways out (a procedure with
   hundreds of RETURNs): 4 bytes on the control stack. */
void adgen_push_control4(int k) { adgen_push_entry(&k, sizeof k, ADGEN_CONTROL); }
void adgen_pop_control4(int *k) { adgen_pop_entry(k, sizeof *k, ADGEN_CONTROL); }
void adgen_look_control4(int *k) { adgen_look_entry(k, sizeof *k, ADGEN_CONTROL); }

/* COMPLEX values of Fortran: two reals each (real part, imaginary part), as C's
   `double _Complex` and Fortran's `complex(c_double_complex)` both lay them out. */
void adgen_push_complex16(const double *z) { adgen_push_entry(z, 2 * sizeof *z, ADGEN_COMPLEX16); }
void adgen_pop_complex16(double *z) { adgen_pop_entry(z, 2 * sizeof *z, ADGEN_COMPLEX16); }
void adgen_look_complex16(double *z) { adgen_look_entry(z, 2 * sizeof *z, ADGEN_COMPLEX16); }
void adgen_push_complex8(const float *z) { adgen_push_entry(z, 2 * sizeof *z, ADGEN_COMPLEX8); }
void adgen_pop_complex8(float *z) { adgen_pop_entry(z, 2 * sizeof *z, ADGEN_COMPLEX8); }
void adgen_look_complex8(float *z) { adgen_look_entry(z, 2 * sizeof *z, ADGEN_COMPLEX8); }
void adgen_push_complex16_array(const double *a, int n) {
    adgen_push_entry(a, 2 * adgen_count(n) * sizeof *a, ADGEN_COMPLEX16_ARRAY);
}
void adgen_pop_complex16_array(double *a, int n) {
    adgen_pop_entry(a, 2 * adgen_count(n) * sizeof *a, ADGEN_COMPLEX16_ARRAY);
}
void adgen_look_complex16_array(double *a, int n) {
    adgen_look_entry(a, 2 * adgen_count(n) * sizeof *a, ADGEN_COMPLEX16_ARRAY);
}
void adgen_push_complex8_array(const float *a, int n) {
    adgen_push_entry(a, 2 * adgen_count(n) * sizeof *a, ADGEN_COMPLEX8_ARRAY);
}
void adgen_pop_complex8_array(float *a, int n) {
    adgen_pop_entry(a, 2 * adgen_count(n) * sizeof *a, ADGEN_COMPLEX8_ARRAY);
}
void adgen_look_complex8_array(float *a, int n) {
    adgen_look_entry(a, 2 * adgen_count(n) * sizeof *a, ADGEN_COMPLEX8_ARRAY);
}

void adgen_push_real8_array(const double *a, int n) {
    adgen_push_entry(a, adgen_count(n) * sizeof *a, ADGEN_REAL8_ARRAY);
}
void adgen_pop_real8_array(double *a, int n) {
    adgen_pop_entry(a, adgen_count(n) * sizeof *a, ADGEN_REAL8_ARRAY);
}
void adgen_look_real8_array(double *a, int n) {
    adgen_look_entry(a, adgen_count(n) * sizeof *a, ADGEN_REAL8_ARRAY);
}
void adgen_push_real4_array(const float *a, int n) {
    adgen_push_entry(a, adgen_count(n) * sizeof *a, ADGEN_REAL4_ARRAY);
}
void adgen_pop_real4_array(float *a, int n) {
    adgen_pop_entry(a, adgen_count(n) * sizeof *a, ADGEN_REAL4_ARRAY);
}
void adgen_look_real4_array(float *a, int n) {
    adgen_look_entry(a, adgen_count(n) * sizeof *a, ADGEN_REAL4_ARRAY);
}
void adgen_push_integer4_array(const int32_t *a, int n) {
    adgen_push_entry(a, adgen_count(n) * sizeof *a, ADGEN_INTEGER4_ARRAY);
}
void adgen_pop_integer4_array(int32_t *a, int n) {
    adgen_pop_entry(a, adgen_count(n) * sizeof *a, ADGEN_INTEGER4_ARRAY);
}
void adgen_look_integer4_array(int32_t *a, int n) {
    adgen_look_entry(a, adgen_count(n) * sizeof *a, ADGEN_INTEGER4_ARRAY);
}
void adgen_push_integer8_array(const int64_t *a, int n) {
    adgen_push_entry(a, adgen_count(n) * sizeof *a, ADGEN_INTEGER8_ARRAY);
}
void adgen_pop_integer8_array(int64_t *a, int n) {
    adgen_pop_entry(a, adgen_count(n) * sizeof *a, ADGEN_INTEGER8_ARRAY);
}
void adgen_look_integer8_array(int64_t *a, int n) {
    adgen_look_entry(a, adgen_count(n) * sizeof *a, ADGEN_INTEGER8_ARRAY);
}

void adgen_push_characters(const char *s, int n) {
    adgen_push_entry(s, adgen_count(n), ADGEN_CHARACTERS);
}
void adgen_pop_characters(char *s, int n) {
    adgen_pop_entry(s, adgen_count(n), ADGEN_CHARACTERS);
}
void adgen_look_characters(char *s, int n) {
    adgen_look_entry(s, adgen_count(n), ADGEN_CHARACTERS);
}

void adgen_start_repeat(void) {
    if (tape.n_marks == tape.marks_capacity) {
        size_t capacity = tape.marks_capacity ? 2 * tape.marks_capacity : 8;
        size_t *grown = (size_t *)realloc(tape.marks, capacity * sizeof *grown);
        if (grown == NULL) {
            adgen_fail("out of memory for repeat marks", 0, 0);
        }
        tape.marks = grown;
        tape.marks_capacity = capacity;
    }
    tape.marks[tape.n_marks++] = tape.size;
    tape.floor = tape.size;
}

void adgen_reset_repeat(void) {
    if (tape.n_marks == 0) {
        adgen_fail("reset_repeat without start_repeat", 0, 0);
    }
    tape.size = tape.marks[tape.n_marks - 1];
}

void adgen_end_repeat(void) {
    if (tape.n_marks == 0) {
        adgen_fail("end_repeat without start_repeat", 0, 0);
    }
    tape.n_marks--;
    tape.floor = tape.n_marks > 0 ? tape.marks[tape.n_marks - 1] : 0;
}

/* Binomial checkpointing of a loop (`$AD BINOMIAL-CKP`): the schedule of Griewank and
 * Walther's binomial reversal ("Algorithm 799: revolve", ACM TOMS 26(1), 2000), told
 * one action at a time. The generated backward sweep of the loop asks for the next
 * action and does it, until ADGEN_BINOMIAL_DONE:
 *   ADVANCE  run the steps [step, end_step) of the original loop, taping nothing;
 *   TAKESHOT save the state before step `step` (a snapshot) and mark the tape;
 *   RESTORE  put back the newest snapshot, keeping it;
 *   FREE     drop the newest snapshot, putting its values back;
 *   TURN     run step `step` with taping, then its adjoint.
 * The snapshot of step 0 is taken before the schedule starts (by the forward sweep),
 * and freed after it ends. With s snapshots besides it, n steps are reversed with each
 * step run at most t + 1 times, t the least with C(s + 1 + t, t) >= n: the fewest
 * re-runs any schedule of s + 1 snapshots can have. Schedules nest (a loop's step may
 * call a procedure whose adjoint has a binomial loop of its own): each start opens a
 * new one on a per-thread stack, and DONE closes it. */
typedef struct {
    int a, b;  /* the steps [a, b) to reverse; the state is that before step a */
    int s;     /* snapshots free besides the one of step a (-1: a schedule's root) */
    int phase; /* where the reversal of [a, b) is */
    int m;     /* the split point, or the step being turned when s is 0 */
} adgen_binomial_frame;

typedef struct {
    adgen_binomial_frame *frames;
    size_t n, capacity;
    int step, end_step; /* of the last action */
} adgen_binomial_state;

static ADGEN_THREAD_LOCAL adgen_binomial_state binomial;

static void adgen_binomial_push(int a, int b, int s) {
    adgen_binomial_frame *f;
    if (binomial.n == binomial.capacity) {
        size_t capacity = binomial.capacity ? 2 * binomial.capacity : 16;
        adgen_binomial_frame *grown = (adgen_binomial_frame *)realloc(
            binomial.frames, capacity * sizeof *grown);
        if (grown == NULL) {
            adgen_fail("out of memory for a checkpointing schedule", 0, 0);
        }
        binomial.frames = grown;
        binomial.capacity = capacity;
    }
    f = &binomial.frames[binomial.n++];
    f->a = a;
    f->b = b;
    f->s = s;
    f->phase = 0;
    f->m = 0;
}

/* C(c + t, c), the most steps c snapshots (the first one included) reverse with each
 * step run at most t + 1 times; saturated at INT_MAX. */
static long adgen_binomial_beta(int c, int t) {
    double v = 1.0;
    int i;
    for (i = 1; i <= c; i++) {
        v = v * (double)(t + i) / (double)i;
        if (v > 2147483647.0) {
            return 2147483647L;
        }
    }
    return (long)(v + 0.5);
}

/* Where to take the next snapshot when reversing n >= 2 steps with s >= 1 snapshots
 * free besides the first: after the first L steps, the rest being as long as the s
 * snapshots can reverse with the same number of re-runs, and the first part as long as
 * all s + 1 can with one re-run fewer. */
static int adgen_binomial_split(int n, int s) {
    int t = 0;
    long l;
    while (adgen_binomial_beta(s + 1, t) < n) {
        t++;
    }
    l = (long)n - adgen_binomial_beta(s, t);
    /* The first part is also long enough to need its t re-runs (else the rest would
     * need more than t). */
    if (t >= 2 && l < adgen_binomial_beta(s + 1, t - 2)) {
        l = adgen_binomial_beta(s + 1, t - 2);
    }
    if (l < 1) {
        l = 1;
    }
    if (l > n - 1) {
        l = n - 1;
    }
    return (int)l;
}

void adgen_binomial_start(int steps, int snapshots) {
    int free_snapshots = snapshots - 1;
    if (snapshots <= 0) {
        /* Not given: about log2(steps), a re-run or two per step. */
        free_snapshots = 0;
        while (free_snapshots < 30 && (1L << free_snapshots) < (long)steps) {
            free_snapshots++;
        }
    }
    adgen_binomial_push(0, steps < 0 ? 0 : steps, -1);
    binomial.frames[binomial.n - 1].m = free_snapshots;
}

static int adgen_binomial_emit(int action, int step, int end_step) {
    binomial.step = step;
    binomial.end_step = end_step;
    return action;
}

int adgen_binomial_next(void) {
    for (;;) {
        adgen_binomial_frame *f;
        if (binomial.n == 0) {
            adgen_fail("binomial_next without binomial_start", 0, 0);
        }
        f = &binomial.frames[binomial.n - 1];
        if (f->s < 0) {
            /* The root: put back the state before step 0, reverse every step, done. */
            switch (f->phase) {
            case 0:
                f->phase = 1;
                if (f->b > 0) {
                    return adgen_binomial_emit(ADGEN_BINOMIAL_RESTORE, 0, 0);
                }
                break;
            case 1: {
                int steps = f->b, free_snapshots = f->m;
                f->phase = 2;
                if (steps > 0) {
                    adgen_binomial_push(0, steps, free_snapshots);
                }
                break;
            }
            default:
                binomial.n--;
                return adgen_binomial_emit(ADGEN_BINOMIAL_DONE, 0, 0);
            }
            continue;
        }
        switch (f->phase) {
        case 0:
            if (f->b - f->a == 1) {
                int a = f->a;
                binomial.n--;
                return adgen_binomial_emit(ADGEN_BINOMIAL_TURN, a, a + 1);
            }
            if (f->s == 0) {
                /* No snapshot to spare: from the last step down, each step is reached
                 * again from step a. */
                f->m = f->b - 1;
                f->phase = 11;
                break;
            }
            f->m = f->a + adgen_binomial_split(f->b - f->a, f->s);
            f->phase = 1;
            return adgen_binomial_emit(ADGEN_BINOMIAL_ADVANCE, f->a, f->m);
        case 1:
            f->phase = 2;
            return adgen_binomial_emit(ADGEN_BINOMIAL_TAKESHOT, f->m, f->m);
        case 2: {
            int m = f->m, b = f->b, s = f->s;
            f->phase = 3;
            adgen_binomial_push(m, b, s - 1);
            break;
        }
        case 3:
            f->phase = 4;
            return adgen_binomial_emit(ADGEN_BINOMIAL_FREE, f->m, f->m);
        case 4:
            f->phase = 0;
            f->b = f->m;
            return adgen_binomial_emit(ADGEN_BINOMIAL_RESTORE, f->a, f->a);
        case 11:
            f->phase = 12;
            if (f->m > f->a) {
                return adgen_binomial_emit(ADGEN_BINOMIAL_ADVANCE, f->a, f->m);
            }
            break;
        case 12: {
            int k = f->m;
            f->m--;
            f->phase = 13;
            return adgen_binomial_emit(ADGEN_BINOMIAL_TURN, k, k + 1);
        }
        default: /* 13 */
            if (f->m < f->a) {
                binomial.n--;
                break;
            }
            f->phase = 11;
            return adgen_binomial_emit(ADGEN_BINOMIAL_RESTORE, f->a, f->a);
        }
    }
}

int adgen_binomial_step(void) { return binomial.step; }
int adgen_binomial_end_step(void) { return binomial.end_step; }

size_t adgen_tape_peak_bytes(void) { return tape.peak; }
size_t adgen_tape_traffic_bytes(void) { return tape.traffic; }
size_t adgen_tape_size_bytes(void) { return tape.size; }

void adgen_tape_reset_stats(void) {
    tape.peak = tape.size;
    tape.traffic = 0;
}

void adgen_tape_release(void) {
    if (tape.size != 0 || tape.n_marks != 0) {
        adgen_fail("release of a tape that is not empty", 0, 0);
    }
    free(tape.data);
    free(tape.marks);
    tape.data = NULL;
    tape.capacity = 0;
    tape.marks = NULL;
    tape.marks_capacity = 0;
    tape.floor = 0;
    free(binomial.frames);
    binomial.frames = NULL;
    binomial.n = 0;
    binomial.capacity = 0;
}
