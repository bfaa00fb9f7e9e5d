/* The memory through which an out-of-process FMU's proxy (fmi2_proxy.c)
 * and its process (fmi2_child.c) pass the frames of fmi2_wire.h: the
 * request in one half, the answer in the other, each announced by a
 * sequence number that changes.  A waiting side spins a little (a call is
 * often done within microseconds, sooner than the scheduler wakes a
 * sleeping process), then sleeps after saying so in the channel, and the
 * other side wakes it (a Link):
 *
 *  - on Linux, by writing a byte to a Unix socket pair, which also tells
 *    each side when the other is gone: its end closes;
 *  - on Windows, by setting the sleeper's event; the sleeper waits on that
 *    event and on the other side's process handle, which is signalled when
 *    that process ends.
 */
#ifndef CRANE_COSIM_FMI2_CHANNEL_H
#define CRANE_COSIM_FMI2_CHANNEL_H

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

#ifdef _WIN32
#include <windows.h>

/* How one side wakes the other and sees it gone. */
typedef struct {
    HANDLE wake_me;   /* an auto-reset event this side sleeps on */
    HANDLE wake_peer; /* the other side's */
    HANDLE peer;      /* the other side's process: signalled when it ends */
} Link;

typedef LARGE_INTEGER Moment;

static inline void moment_now(Moment *m) { QueryPerformanceCounter(m); }

static inline double seconds_since(const Moment *t0)
{
    LARGE_INTEGER now, frequency;
    QueryPerformanceCounter(&now);
    QueryPerformanceFrequency(&frequency);
    return (double)(now.QuadPart - t0->QuadPart) / (double)frequency.QuadPart;
}

static inline void give_way(void) { SwitchToThread(); }

static inline void link_wake(const Link *link) { SetEvent(link->wake_peer); }

/* Sleep until woken (1; perhaps by a wake meant for an earlier wait), the
 * peer is gone (0) or `ms` milliseconds passed (-1; ms < 0: no limit). */
static inline int link_sleep(const Link *link, int ms)
{
    HANDLE handles[2] = {link->wake_me, link->peer};
    DWORD got = WaitForMultipleObjects(link->peer ? 2 : 1, handles, FALSE, ms < 0 ? INFINITE : (DWORD)ms);
    return got == WAIT_OBJECT_0 ? 1 : got == WAIT_TIMEOUT ? -1 : 0;
}

#else
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <time.h>

/* How one side wakes the other and sees it gone: its end of a socket pair. */
typedef struct {
    int socket;
} Link;

typedef struct timespec Moment;

static inline void moment_now(Moment *m) { clock_gettime(CLOCK_MONOTONIC, m); }

static inline double seconds_since(const Moment *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + 1e-9 * (double)(now.tv_nsec - t0->tv_nsec);
}

static inline void give_way(void) { sched_yield(); }

static inline void link_wake(const Link *link)
{
    char wake = 1;
    send(link->socket, &wake, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
}

/* Sleep until woken (1; perhaps by a wake meant for an earlier wait), the
 * peer is gone (0) or `ms` milliseconds passed (-1; ms < 0: no limit). */
static inline int link_sleep(const Link *link, int ms)
{
    struct pollfd p = {link->socket, POLLIN | POLLRDHUP, 0};
    int k = poll(&p, 1, ms);
    if (k > 0 && (p.revents & POLLIN)) {
        char drain[64];
        while (recv(link->socket, drain, sizeof drain, MSG_DONTWAIT) > 0) {
        }
    }
    if (k > 0 && (p.revents & (POLLHUP | POLLRDHUP | POLLERR)))
        return 0;
    if (k == 0)
        return -1;
    return k > 0 || errno == EINTR ? 1 : 0;
}
#endif

/* -- writing to a file descriptor ------------------------------------------------------- */

static inline int write_all(int fd, const void *data, size_t n)
{
    const unsigned char *p = data;
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return 0;
        p += k;
        n -= (size_t)k;
    }
    return 1;
}

/* -- the shared channel ------------------------------------------------------------------ */

typedef struct {
    _Atomic uint32_t request, answer;            /* a new one when the number changes */
    _Atomic uint32_t host_asleep, child_asleep;  /* a side sleeping: wake it through the Link */
    uint64_t request_size, answer_size;          /* bytes of frames in each half */
} Channel;

#define CHANNEL_SIZE (64u << 20) /* mapped; pages are taken as they are touched */
#define CHANNEL_HEADER 4096u
#define CHANNEL_HALF ((CHANNEL_SIZE - CHANNEL_HEADER) / 2)

static inline unsigned char *channel_request(Channel *c) { return (unsigned char *)c + CHANNEL_HEADER; }
static inline unsigned char *channel_answer(Channel *c) { return (unsigned char *)c + CHANNEL_HEADER + CHANNEL_HALF; }

/* Announce a new request or answer: its number changes, and a sleeping
 * peer is woken. */
static inline void channel_post(_Atomic uint32_t *number, _Atomic uint32_t *peer_asleep, const Link *link)
{
    atomic_fetch_add_explicit(number, 1, memory_order_seq_cst);
    if (atomic_load_explicit(peer_asleep, memory_order_seq_cst))
        link_wake(link);
}

/* Wait until *number is no longer `seen`: spin for `spin` seconds, then
 * sleep.  1 when it changed, 0 when the peer is gone, -1 when `limit`
 * seconds (from `t0`; 0 for none) passed first. */
static inline int channel_wait(_Atomic uint32_t *number, uint32_t seen, _Atomic uint32_t *asleep, const Link *link,
                               double spin, const Moment *t0, double limit)
{
    Moment start;
    moment_now(&start);
    for (unsigned k = 0;; ++k) {
        if (atomic_load_explicit(number, memory_order_acquire) != seen)
            return 1;
        if ((k & 63) == 63 && seconds_since(&start) > spin)
            break;
        give_way(); /* a waiting side gives its processor to the other processes of the run */
    }
    for (;;) {
        atomic_store_explicit(asleep, 1, memory_order_seq_cst);
        if (atomic_load_explicit(number, memory_order_seq_cst) != seen) {
            atomic_store_explicit(asleep, 0, memory_order_relaxed);
            return 1;
        }
        int ms = -1;
        if (limit > 0) {
            double left = limit - seconds_since(t0);
            ms = left <= 0 ? 0 : left > 1e6 ? 1000000000 : (int)(left * 1e3) + 1;
        }
        int woken = link_sleep(link, ms);
        atomic_store_explicit(asleep, 0, memory_order_relaxed);
        if (atomic_load_explicit(number, memory_order_acquire) != seen)
            return 1;
        if (woken == 0)
            return 0;
        if (woken < 0 && limit > 0 && seconds_since(t0) >= limit)
            return -1;
    }
}

#endif
