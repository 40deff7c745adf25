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
    /* Fast path: no repeat marks, room left. */
    if (t->n_marks == 0 && bytes <= t->capacity - size) {
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
}

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
}
