/* The messages between an out-of-process FMU's proxy (fmi2_proxy.c, in the
 * host's process) and the process that runs the FMU (fmi2_child.c); both
 * ends run on one machine, so numbers go in the machine's own byte order.
 *
 * A frame is a header (its payload's length, then a code) and the payload.
 * The proxy sends one request frame per FMI call, its code the call's
 * (OP_*); the child answers with any number of LOG frames (the FMU's
 * logger calls during the call, in order) and one RETURN frame, whose
 * payload starts with the call's status.  Arrays are aligned to 8 bytes in
 * the payload, so that a reader can use them where they lie.
 *
 * The frames go through memory both processes map (fmi2_channel.h).
 */
#ifndef CRANE_COSIM_FMI2_WIRE_H
#define CRANE_COSIM_FMI2_WIRE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
    OP_INSTANTIATE = 1,
    OP_FREE_INSTANCE,
    OP_SET_DEBUG_LOGGING,
    OP_SETUP_EXPERIMENT,
    OP_ENTER_INITIALIZATION_MODE,
    OP_EXIT_INITIALIZATION_MODE,
    OP_TERMINATE,
    OP_RESET,
    OP_GET_REAL,
    OP_GET_INTEGER,
    OP_GET_BOOLEAN,
    OP_GET_STRING,
    OP_SET_REAL,
    OP_SET_INTEGER,
    OP_SET_BOOLEAN,
    OP_SET_STRING,
    OP_GET_FMU_STATE,
    OP_SET_FMU_STATE,
    OP_FREE_FMU_STATE,
    OP_SERIALIZED_FMU_STATE_SIZE,
    OP_SERIALIZE_FMU_STATE,
    OP_DESERIALIZE_FMU_STATE,
    OP_GET_DIRECTIONAL_DERIVATIVE,
    OP_SET_REAL_INPUT_DERIVATIVES,
    OP_GET_REAL_OUTPUT_DERIVATIVES,
    OP_DO_STEP,
    OP_CANCEL_STEP,
    OP_GET_STATUS,
    OP_GET_REAL_STATUS,
    OP_GET_INTEGER_STATUS,
    OP_GET_BOOLEAN_STATUS,
    OP_GET_STRING_STATUS,
    OP_STEP_SEQUENCE, /* the project's own: crane_cosim_fmi2_post_steps */
    OP_COUNT
};

enum { FRAME_LOG = 100, FRAME_RETURN = 101 };

/* A frame's header. */
typedef struct {
    uint32_t length; /* of the payload */
    uint32_t code;
} FrameHeader;

/* A length that marks a NULL pointer where an array or a string is expected. */
#define WIRE_NULL UINT32_MAX

/* -- writing --------------------------------------------------------------------------- */

typedef struct {
    unsigned char *data; /* a FrameHeader, then the payload */
    size_t size, capacity;
    int failed; /* out of memory: the frame is not sent */
} Out;

static inline void out_begin(Out *o, uint32_t code)
{
    o->size = sizeof(FrameHeader);
    o->failed = 0;
    if (o->capacity < 4096) {
        unsigned char *data = realloc(o->data, 4096);
        if (!data) {
            o->failed = 1;
            return;
        }
        o->data = data;
        o->capacity = 4096;
    }
    ((FrameHeader *)o->data)->code = code;
}

static unsigned char *out_room(Out *o, size_t n, size_t align)
{
    if (o->failed)
        return NULL;
    size_t at = (o->size + align - 1) & ~(align - 1);
    if (at + n > o->capacity) {
        size_t capacity = o->capacity;
        while (at + n > capacity)
            capacity *= 2;
        unsigned char *data = realloc(o->data, capacity);
        if (!data) {
            o->failed = 1;
            return NULL;
        }
        o->data = data;
        o->capacity = capacity;
    }
    memset(o->data + o->size, 0, at - o->size);
    o->size = at + n;
    return o->data + at;
}

static inline void put_bytes(Out *o, const void *bytes, size_t n, size_t align)
{
    unsigned char *at = out_room(o, n, align);
    if (at && n)
        memcpy(at, bytes, n);
}

static inline void put_u32(Out *o, uint32_t v) { put_bytes(o, &v, sizeof v, 4); }
static inline void put_u64(Out *o, uint64_t v) { put_bytes(o, &v, sizeof v, 8); }
static inline void put_f64(Out *o, double v) { put_bytes(o, &v, sizeof v, 8); }

/* n elements of size `size` at `array`, or a NULL array */
static inline void put_array(Out *o, const void *array, size_t n, size_t size)
{
    if (!array) {
        put_u32(o, WIRE_NULL);
        put_u64(o, n);
        return;
    }
    put_u32(o, 0);
    put_u64(o, n);
    put_bytes(o, array, n * size, 8);
}

static inline void put_string(Out *o, const char *s)
{
    if (!s) {
        put_u32(o, WIRE_NULL);
        return;
    }
    size_t n = strlen(s);
    put_u32(o, (uint32_t)n);
    put_bytes(o, s, n + 1, 1);
}

/* -- reading --------------------------------------------------------------------------- */

typedef struct {
    const unsigned char *base, *at, *end;
    int bad; /* read past the end: a broken peer */
} In;

static const unsigned char *in_take(In *r, size_t n, size_t align)
{
    size_t offset = (size_t)(r->at - r->base);
    offset = (offset + align - 1) & ~(align - 1);
    if (r->bad || offset > (size_t)(r->end - r->base) || n > (size_t)(r->end - r->base) - offset) {
        r->bad = 1;
        return NULL;
    }
    r->at = r->base + offset + n;
    return r->base + offset;
}

/* A number of `n` bytes, aligned to `align`, copied to *v (left as it is past the end). */
static inline void get_number(In *r, void *v, size_t n, size_t align)
{
    const unsigned char *p = in_take(r, n, align);
    if (p)
        memcpy(v, p, n);
}

static inline uint32_t get_u32(In *r)
{
    uint32_t v = 0;
    get_number(r, &v, sizeof v, 4);
    return v;
}

static inline uint64_t get_u64(In *r)
{
    uint64_t v = 0;
    get_number(r, &v, sizeof v, 8);
    return v;
}

static inline double get_f64(In *r)
{
    double v = 0;
    get_number(r, &v, sizeof v, 8);
    return v;
}

/* An array written by put_array: its elements where they lie (NULL for a
 * NULL array), their number in *n. */
static const void *get_array(In *r, size_t *n, size_t size)
{
    uint32_t null = get_u32(r);
    uint64_t count = get_u64(r);
    *n = (size_t)count;
    if (null == WIRE_NULL || r->bad)
        return NULL;
    if (size && count > (uint64_t)(r->end - r->base) / size) {
        r->bad = 1;
        return NULL;
    }
    const unsigned char *p = in_take(r, (size_t)count * size, 8);
    return p ? p : (const void *)"";
}

static const char *get_string(In *r)
{
    uint32_t n = get_u32(r);
    if (n == WIRE_NULL || r->bad)
        return NULL;
    const unsigned char *p = in_take(r, (size_t)n + 1, 1);
    if (p && p[n] != '\0')
        r->bad = 1;
    return r->bad ? NULL : (const char *)p;
}

/* The next frame of the `size` bytes at *at (moved past it): its code in
 * *code, a reader over its payload in *r; 0 when none is left or it is
 * broken. */
static inline int next_frame(const unsigned char **at, const unsigned char *end, uint32_t *code, In *r)
{
    FrameHeader h;
    if ((size_t)(end - *at) < sizeof h)
        return 0;
    memcpy(&h, *at, sizeof h);
    if (h.length > (size_t)(end - *at) - sizeof h)
        return 0;
    *code = h.code;
    r->base = r->at = *at + sizeof h;
    r->end = r->base + h.length;
    r->bad = 0;
    *at = r->end + ((8 - (sizeof h + h.length) % 8) % 8); /* frames start 8-byte aligned */
    if (*at > end)
        *at = end;
    return 1;
}

#endif
