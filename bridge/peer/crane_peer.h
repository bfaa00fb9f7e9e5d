/* crane_peer.h: the peer's side of a crane-cosim UDP bridge, packet layout
 * version 3 (docs/in_the_loop.md, "The packet layout"), for a device or a
 * rig: one header, C99, no dependency but the C library; the socket stays
 * the caller's.
 *
 *     #include "crane_peer.h"
 *     static void law(void *ctx, int reset, double t, const double *u, double *y) { ... }
 *     cp_peer peer;
 *     cp_init(&peer, 6, 6, digest, key, key_len);      // key NULL: none
 *     for (;;) {
 *         n = recvfrom(s, in, sizeof in, 0, &from, &len);
 *         uint64_t who = (uint64_t)from.sin_addr.s_addr << 16 | from.sin_port;  // the sender
 *         size_t m = cp_handle(&peer, in, n, who, seconds_now(), law, NULL, out, sizeof out);
 *         if (m) sendto(s, out, m, 0, &from, len);
 *     }
 *
 * cp_handle follows the peer's rules of docs/in_the_loop.md: one run at a
 * time, opened by a hello of the same signals (the digest, SHA-256 of their
 * text; `crane-cosim build-bridge` prints it), the block restarted at the
 * run's first request, a request sent again answered with the same values
 * without a step, an older one ignored, a newer one stepped; everything
 * else (strangers, other lengths, versions, untagged datagrams where a key
 * is set) counted in `ignored` and not answered.  Either byte order, the
 * answer in its request's.  An Integer or Boolean signal is a double like
 * the others (a whole number; 0 or 1), and the law answers it so: the
 * bridge fails a step whose answer breaks its signal's type.  With a key,
 * every datagram read must carry the right tag (HMAC-SHA256, its first 16
 * bytes) and every datagram sent gets one.
 */
#ifndef CRANE_PEER_H
#define CRANE_PEER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { CP_HEAD = 32, CP_TAG = 16, CP_DIGEST = 32, CP_MAX_VALUES = 512 };
enum { CP_REQUEST = 1, CP_ANSWER = 2, CP_END = 3, CP_HELLO = 4, CP_WELCOME = 5, CP_REFUSAL = 6, CP_HEARTBEAT = 7 };
enum { CP_BIG_ENDIAN = 1, CP_TAGGED = 2 };

/* the law: `reset` at a run's first request (restart from the initial
 * state at t), else step the state to t with the inputs u held; then the
 * outputs y at t */
typedef void (*cp_law)(void *ctx, int reset, double t, const double *u, double *y);

typedef struct {
    int n_in, n_out;                    /* the signals' counts: inputs, outputs */
    unsigned char digest[CP_DIGEST];    /* SHA-256 of the signals' text */
    const unsigned char *key;           /* the rig's key, or NULL */
    size_t key_len;
    double idle;                        /* [s] a run without a new request for this long may be followed (5) */
    uint32_t run;                       /* the run served (0: none), its address, last seq answered */
    uint64_t client;
    uint32_t last;
    double heard;                       /* when its last new request came [s] */
    double y[CP_MAX_VALUES];            /* the values answered last */
    unsigned long served, answered, repeated, heartbeats, ignored, refused;  /* counts */
} cp_peer;

/* -- SHA-256 (FIPS 180-4) and HMAC (RFC 2104) ------------------------------------ */
typedef struct { uint32_t h[8]; uint64_t bits; unsigned char block[64]; size_t fill; } cp_sha256;

static const uint32_t cp_k_[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static inline uint32_t cp_ror_(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static inline void cp_sha256_block_(cp_sha256 *s, const unsigned char *b) {
    uint32_t w[64], a[8];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 | (uint32_t)b[4 * i + 2] << 8 | b[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = cp_ror_(w[i - 15], 7) ^ cp_ror_(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = cp_ror_(w[i - 2], 17) ^ cp_ror_(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    memcpy(a, s->h, sizeof a);
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = a[7] + (cp_ror_(a[4], 6) ^ cp_ror_(a[4], 11) ^ cp_ror_(a[4], 25)) +
                      ((a[4] & a[5]) ^ (~a[4] & a[6])) + cp_k_[i] + w[i];
        uint32_t t2 = (cp_ror_(a[0], 2) ^ cp_ror_(a[0], 13) ^ cp_ror_(a[0], 22)) +
                      ((a[0] & a[1]) ^ (a[0] & a[2]) ^ (a[1] & a[2]));
        memmove(a + 1, a, 7 * sizeof a[0]);
        a[4] += t1;
        a[0] = t1 + t2;
    }
    for (int i = 0; i < 8; i++) s->h[i] += a[i];
}

static inline void cp_sha256_init(cp_sha256 *s) {
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, h0, sizeof h0);
    s->bits = 0;
    s->fill = 0;
}

static inline void cp_sha256_add(cp_sha256 *s, const unsigned char *data, size_t n) {
    s->bits += (uint64_t)n * 8;
    while (n--) {
        s->block[s->fill++] = *data++;
        if (s->fill == 64) { cp_sha256_block_(s, s->block); s->fill = 0; }
    }
}

static inline void cp_sha256_end(cp_sha256 *s, unsigned char out[32]) {
    uint64_t bits = s->bits;
    unsigned char pad = 0x80, zero = 0, len[8];
    cp_sha256_add(s, &pad, 1);
    while (s->fill != 56) cp_sha256_add(s, &zero, 1);
    for (int i = 0; i < 8; i++) len[i] = (unsigned char)(bits >> (56 - 8 * i));
    cp_sha256_add(s, len, 8);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++) out[4 * i + j] = (unsigned char)(s->h[i] >> (24 - 8 * j));
}

/* HMAC-SHA256 of data under key */
static inline void cp_hmac(const unsigned char *key, size_t key_len, const unsigned char *data, size_t n,
                    unsigned char out[32]) {
    unsigned char k[64] = {0}, pad[64], inner[32];
    cp_sha256 s;
    if (key_len > 64) { cp_sha256_init(&s); cp_sha256_add(&s, key, key_len); cp_sha256_end(&s, k); }
    else memcpy(k, key, key_len);
    for (int i = 0; i < 64; i++) pad[i] = k[i] ^ 0x36;
    cp_sha256_init(&s); cp_sha256_add(&s, pad, 64); cp_sha256_add(&s, data, n); cp_sha256_end(&s, inner);
    for (int i = 0; i < 64; i++) pad[i] = k[i] ^ 0x5c;
    cp_sha256_init(&s); cp_sha256_add(&s, pad, 64); cp_sha256_add(&s, inner, 32); cp_sha256_end(&s, out);
}

/* -- fields in either byte order ---------------------------------------------------- */
static inline int cp_little_(void) { const uint16_t one = 1; return *(const unsigned char *)&one; }

/* copy n bytes, reversed when the packet's byte order is not the machine's */
static inline void cp_field_(void *to, const void *from, size_t n, int big) {
    if (big == !cp_little_()) { memcpy(to, from, n); return; }
    for (size_t i = 0; i < n; i++) ((unsigned char *)to)[i] = ((const unsigned char *)from)[n - 1 - i];
}

/* -- the peer ---------------------------------------------------------------------- */
static inline void cp_init(cp_peer *p, int n_in, int n_out, const unsigned char digest[CP_DIGEST],
                    const unsigned char *key, size_t key_len) {
    memset(p, 0, sizeof *p);
    p->n_in = n_in;
    p->n_out = n_out;
    memcpy(p->digest, digest, CP_DIGEST);
    p->key = key;
    p->key_len = key ? key_len : 0;
    p->idle = 5.0;
}

/* the reply to `in` (its header echoed, the kind `kind`, then `body` of `n`
 * bytes, then the tag with a key) in `out`; its length, 0 if it does not fit */
static inline size_t cp_reply_(const cp_peer *p, const unsigned char *in, int kind, const unsigned char *body, size_t n,
                        unsigned char *out, size_t out_size) {
    size_t total = CP_HEAD + n + (p->key ? CP_TAG : 0);
    if (total > out_size) return 0;
    memcpy(out, in, CP_HEAD);
    out[4] = (unsigned char)kind;
    out[5] = (unsigned char)((in[5] & CP_BIG_ENDIAN) | (p->key ? CP_TAGGED : 0));
    memcpy(out + CP_HEAD, body, n);
    if (p->key) {
        unsigned char tag[32];
        cp_hmac(p->key, p->key_len, out, CP_HEAD + n, tag);
        memcpy(out + CP_HEAD + n, tag, CP_TAG);
    }
    return total;
}

/* handle the datagram `in` of `n` bytes from the address `from` (any 64-bit
 * id of it, such as the IPv4 address and port) at `now` [s, any monotonic clock]; the reply in
 * `out`, its length returned (0: no reply) */
static inline size_t cp_handle(cp_peer *p, const unsigned char *in, size_t n, uint64_t from, double now, cp_law law,
                        void *ctx, unsigned char *out, size_t out_size) {
    if (n < CP_HEAD || memcmp(in, "CCB3", 4) != 0 || (in[5] & ~(CP_BIG_ENDIAN | CP_TAGGED))) {
        p->ignored++;
        return 0;
    }
    if (!!(in[5] & CP_TAGGED) != !!p->key) { p->ignored++; return 0; }  /* a tag where none is set, or none */
    if (p->key) {
        unsigned char tag[32], diff = 0;
        if (n < CP_HEAD + CP_TAG) { p->ignored++; return 0; }
        n -= CP_TAG;
        cp_hmac(p->key, p->key_len, in, n, tag);
        for (int i = 0; i < CP_TAG; i++) diff |= (unsigned char)(tag[i] ^ in[n + i]);
        if (diff) { p->ignored++; return 0; }
    }
    int big = in[5] & CP_BIG_ENDIAN, kind = in[4];
    uint32_t run, seq;
    double t;
    cp_field_(&run, in + 8, 4, big);
    cp_field_(&seq, in + 12, 4, big);
    cp_field_(&t, in + 24, 8, big);
    int ours = p->run != 0 && run == p->run && from == p->client;
    if (kind == CP_HELLO && n >= CP_HEAD + CP_DIGEST) {
        if (memcmp(in + CP_HEAD, p->digest, CP_DIGEST) != 0) {
            p->refused++;
            return cp_reply_(p, in, CP_REFUSAL, p->digest, CP_DIGEST, out, out_size);
        }
        if (!ours) {
            if (p->run != 0 && now - p->heard < p->idle) { p->ignored++; return 0; }
            p->run = run; p->client = from; p->last = 0; p->heard = now;
            p->served++;
        }
        return cp_reply_(p, in, CP_WELCOME, p->digest, CP_DIGEST, out, out_size);
    }
    if (!ours) { p->ignored++; return 0; }
    if (kind == CP_END && n == CP_HEAD) { p->run = 0; return 0; }
    if (kind == CP_HEARTBEAT && n == CP_HEAD) { p->heartbeats++; return 0; }
    if (kind != CP_REQUEST || n != CP_HEAD + 8 * (size_t)p->n_in || p->n_in > CP_MAX_VALUES ||
        p->n_out > CP_MAX_VALUES) { p->ignored++; return 0; }
    if (seq == 0 || seq < p->last) { p->ignored++; return 0; }  /* old, or no request's number */
    if (seq > p->last) {
        double u[CP_MAX_VALUES];
        for (int i = 0; i < p->n_in; i++) cp_field_(&u[i], in + CP_HEAD + 8 * i, 8, big);
        law(ctx, p->last == 0, t, u, p->y);
        p->last = seq;
        p->heard = now;
        p->answered++;
    } else {
        p->repeated++;
    }
    unsigned char values[8 * CP_MAX_VALUES];
    for (int i = 0; i < p->n_out; i++) cp_field_(values + 8 * i, &p->y[i], 8, big);
    return cp_reply_(p, in, CP_ANSWER, values, 8 * (size_t)p->n_out, out, out_size);
}

#endif
