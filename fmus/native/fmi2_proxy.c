/* crane-cosim's out-of-process FMI 2.0 co-simulation binary: each instance
 * runs in a process of its own (fmi2_child.c), and this library, loaded by
 * the host, forwards every FMI call to it (fmi2_wire.h) through memory both
 * processes map (fmi2_channel.h).
 *
 * It lies in the FMU as binaries/linux64/<modelIdentifier>.so, and, built
 * for Windows, as binaries/win64/<modelIdentifier>.dll; beside it, in
 * crane_cosim/, lie the FMU's in-process binary under the same name (which
 * the process runs, so that every call, status and message is the
 * in-process FMU's), anything that binary loads, and the process's
 * program, crane-cosim-fmu-process (.exe).  A portable FMU
 * (fmus/portable.py) also carries its Python as
 * resources/crane_cosim_runtime/<hash>.tar.gz (Windows:
 * crane_cosim_runtime_win64/) and its compiled kernels as
 * resources/crane_cosim_kernels/<hash>.tar.gz, which the process unpacks
 * once into the user's cache folder.  What differs between the systems
 * (starting the process, the channel's memory, waking a side, its standard
 * error) is in fmi2_proxy_posix.h and fmi2_proxy_win32.h.
 *
 * What the host sees beyond the in-process FMU:
 *  - A process that ends during a call (a crash, a kill) makes that call
 *    and every later one fmi2Fatal, with a message saying how it ended and
 *    its last words (the end of what it wrote to its standard error).
 *  - CRANE_COSIM_FMU_TIMEOUT (seconds, in the host's environment when the
 *    FMU is instantiated) bounds the time a call may take once the instance
 *    is initialized (fmi2ExitInitializationMode done): a process that does
 *    not answer in time is killed, and the call is fmi2Fatal.  Unset, a call
 *    may take as long as it takes.  Instantiation and initialization are
 *    not bounded: they may unpack the FMU's Python and load or compile its
 *    kernels, seconds to a minute the first time.
 *  - The process ends when the instance is freed, and when the host's
 *    process ends, however it ends: its end of the socket closes (Windows:
 *    the host's process handle is signalled) and the process sees it, idle
 *    or busy (fmi2_child.c).  fmi2FreeInstance waits
 *    at most two seconds for it, then kills it.
 *  - What the process writes to its standard error reaches the host's
 *    standard error at the end of each call; its standard output is the
 *    host's (Windows: it goes with its standard error).
 *
 * Only the C library is needed: the host's Python, if any, is never
 * touched.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmi2_types.h"
#include "fmi2_wire.h"
#include "fmi2_channel.h"
#define LAST_WORDS 1500
/* seconds the host spins for an answer before it sleeps: most calls take
 * microseconds, a wake-up from sleep tens of them */
#define SPIN 300e-6

/* Marker: this FMU runs out of process. */
/* The proxy and the version of its own entry points (crane_cosim_fmi2_*):
 * a host calls them only from a proxy whose version it knows. */
#ifdef _WIN32
#include "fmi2_proxy_win32.h"
#else
#include "fmi2_proxy_posix.h"
#endif
EXPORT const char crane_cosim_fmi2_proxy[] = "crane-cosim FMI 2.0 proxy 2";

typedef struct {
    Process process;      /* the FMU's process (fmi2_proxy_posix.h, fmi2_proxy_win32.h) */
    Link link;
    Channel *channel;
    int gone;             /* the process ended: every call is fmi2Fatal */
    double timeout;       /* seconds a call may take once initialized, 0 for no limit */
    int initialized;      /* fmi2ExitInitializationMode done: calls are bounded by the timeout */
    int keeps_one_state;  /* the FMU's binary writes a state given back to fmi2GetFMUstate over */
    int pending;          /* a request was posted whose answer is not collected yet */
    uint32_t seen;        /* the answer's number when it was posted */
    Moment posted;        /* when */
    fmi2FMUstate *save;   /* where the posted sequence's saved state goes (crane_cosim_fmi2_post_steps) */
    fmi2CallbackFunctions host;
    char *name;
    Out out;                     /* the request */
    unsigned char *kept;         /* strings of the last fmi2GetString / fmi2GetStringStatus */
    const char **strings;
    size_t strings_capacity;
} Proxy;

/* An FMU state of the process's, as the host holds it. */
typedef struct {
    uint64_t id;
} State;

static void say(Proxy *p, fmi2Status status, const char *category, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A message to the host's logger, '%' escaped: the text is the format. */
static void to_host(const fmi2CallbackFunctions *host, const char *name, fmi2Status status, const char *category,
                    const char *text)
{
    size_t n = strlen(text), extra = 0;
    for (size_t i = 0; i < n; ++i)
        extra += text[i] == '%';
    char *escaped = malloc(n + extra + 1);
    if (escaped) {
        size_t j = 0;
        for (size_t i = 0; i < n; ++i) {
            if (text[i] == '%')
                escaped[j++] = '%';
            escaped[j++] = text[i];
        }
        escaped[j] = '\0';
    }
    if (host && host->logger)
        host->logger(host->componentEnvironment, name ? name : "", status, category,
                     escaped ? escaped : "(a message was lost: out of memory)");
    else
        fprintf(stderr, "%s\n", text);
    free(escaped);
}

static void say(Proxy *p, fmi2Status status, const char *category, const char *fmt, ...)
{
    char text[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    to_host(&p->host, p->name, status, category, text);
}

/* How the process ended and the end of its standard error, for a message. */
static void describe_end(Proxy *p, char *text, size_t n)
{
    char how[128], words[LAST_WORDS + 1];
    long pid;
    process_how_it_ended(&p->process, how, sizeof how, &pid);
    process_last_words(&p->process, words, sizeof words);
    for (char *c = words; *c; ++c)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    snprintf(text, n, "the FMU's process (pid %ld) %s%s%s%s", pid, how,
             words[0] ? "; its last words: \"" : "", words, words[0] ? "\"" : "");
}

/* The process is gone (or broken, or too slow): every later call is fmi2Fatal. */
static fmi2Status lost(Proxy *p, const char *function, const char *why)
{
    if (p->gone)
        return fmi2Fatal;
    p->gone = 1;
    process_show_errors(&p->process);
    char text[3072];
    if (why)
        process_kill(&p->process);
    describe_end(p, text, sizeof text);
    if (why)
        say(p, fmi2Fatal, "logStatusFatal", "%s: %s: %s; %s", p->name, function, why, text);
    else
        say(p, fmi2Fatal, "logStatusFatal", "%s: %s: %s", p->name, function, text);
    return fmi2Fatal;
}

/* Send the request in p->out without waiting for its answer (collect()
 * reads it): fmi2OK, or the status of a request that cannot be sent. */
static fmi2Status post(Proxy *p, const char *function)
{
    if (p->gone)
        return fmi2Fatal;
    if (p->pending) {
        say(p, fmi2Error, "logStatusError", "%s: %s: called while a sequence of calls is under way (collect "
            "it first)", p->name, function);
        return fmi2Error;
    }
    size_t size = p->out.size;
    if (p->out.failed || size > CHANNEL_HALF) {
        say(p, fmi2Error, "logStatusError", "%s: %s: %s", p->name, function,
            p->out.failed ? "out of memory" : "the call's arguments are too large to pass on");
        return fmi2Error;
    }
    ((FrameHeader *)p->out.data)->length = (uint32_t)(size - sizeof(FrameHeader));
    memcpy(channel_request(p->channel), p->out.data, size);
    p->channel->request_size = size;
    p->seen = atomic_load(&p->channel->answer);
    moment_now(&p->posted);
    channel_post(&p->channel->request, &p->channel->child_asleep, &p->link);
    p->pending = 1;
    return fmi2OK;
}

/* Read the answer to the request post() sent: the process's log messages
 * to the host's logger, the status returned, *r over the rest (valid until
 * the next call). */
static fmi2Status collect(Proxy *p, const char *function, In *r)
{
    if (p->gone)
        return fmi2Fatal;
    p->pending = 0;
    int got = channel_wait(&p->channel->answer, p->seen, &p->channel->host_asleep, &p->link, SPIN, &p->posted,
                           p->initialized ? p->timeout : 0);
    if (got == 0)
        return lost(p, function, NULL);
    if (got < 0) {
        char why[128];
        snprintf(why, sizeof why, "the FMU's process did not answer within %g s (CRANE_COSIM_FMU_TIMEOUT)",
                 p->timeout);
        return lost(p, function, why);
    }
    const unsigned char *at = channel_answer(p->channel),
                        *end = at + (p->channel->answer_size < CHANNEL_HALF ? p->channel->answer_size : 0);
    uint32_t code;
    process_show_errors(&p->process);
    while (next_frame(&at, end, &code, r)) {
        if (code == FRAME_LOG) {
            fmi2Status status = (fmi2Status)get_u32(r);
            const char *category = get_string(r), *message = get_string(r);
            if (!r->bad)
                to_host(&p->host, p->name, status, category ? category : "", message ? message : "");
            continue;
        }
        fmi2Status status = (fmi2Status)get_u32(r);
        if (code != FRAME_RETURN || r->bad)
            break;
        return status;
    }
    return lost(p, function, "the FMU's process answered what cannot be read");
}

/* Send the request in p->out and read its answer (collect()). */
static fmi2Status call(Proxy *p, const char *function, In *r)
{
    fmi2Status status = post(p, function);
    return status == fmi2OK ? collect(p, function, r) : status;
}

/* -- creation ------------------------------------------------------------------------------ */

/* The folder of this library and its file name without its suffix. */
static int own_place(char *folder, size_t n_folder, char *model, size_t n_model)
{
    char path[PATH_MAX];
    if (!own_path(path))
        return 0;
    char *slash = strrchr(path, '/'), *backslash = strrchr(path, '\\');
    if (backslash > slash)
        slash = backslash;
    if (!slash)
        return 0;
    snprintf(model, n_model, "%s", slash + 1);
    char *dot = strrchr(model, '.');
    if (dot)
        *dot = '\0';
    *slash = '\0';
    snprintf(folder, n_folder, "%s", path);
    return 1;
}

/* The resource folder's path from fmuResourceLocation (a file: URI). */
static int resource_folder(const char *location, char *path, size_t n)
{
    const char *p = location;
    if (!strncmp(p, "file://", 7)) {
        p += 7;
        if (strncmp(p, "localhost/", 10) == 0)
            p += 9;
    } else if (!strncmp(p, "file:", 5)) {
        p += 5;
    } else {
        return 0;
    }
    size_t j = 0;
    for (; *p && j + 1 < n; ++p) {
        if (p[0] == '%' && p[1] && p[2]) {
            char hex[3] = {p[1], p[2], 0};
            path[j++] = (char)strtol(hex, NULL, 16);
            p += 2;
        } else {
            path[j++] = *p;
        }
    }
    path[j] = '\0';
    while (j > 1 && path[j - 1] == '/')
        path[--j] = '\0';
#ifdef _WIN32
    if (path[0] == '/' && path[1] && path[2] == ':') /* file:///C:/... */
        memmove(path, path + 1, j);
#endif
    return 1;
}

static void free_proxy(Proxy *p)
{
    process_release(&p->process, &p->link, p->channel);
    free(p->out.data);
    free(p->kept);
    free(p->strings);
    free(p->name);
    free(p);
}

EXPORT fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType, fmi2String guid,
                                     fmi2String resources, const fmi2CallbackFunctions *functions,
                                     fmi2Boolean visible, fmi2Boolean loggingOn)
{
    char folder[PATH_MAX], model[256], program[PATH_MAX], binary[PATH_MAX], resource_path[PATH_MAX],
        runtime[PATH_MAX] = "", kernels[PATH_MAX] = "", where[PATH_MAX + 64];
    const char *name = instanceName ? instanceName : "";
    if (!own_place(folder, sizeof folder, model, sizeof model)) {
        to_host(functions, name, fmi2Error, "logStatusError", "fmi2Instantiate: the FMU's binary cannot find its own file");
        return NULL;
    }
    snprintf(program, sizeof program, "%s/crane_cosim/" PROCESS_FILE, folder);
    snprintf(binary, sizeof binary, "%s/crane_cosim/%s" BINARY_SUFFIX, folder, model);
    if (resources && resource_folder(resources, resource_path, sizeof resource_path)) {
        snprintf(where, sizeof where, "%s/" RUNTIME_FOLDER, resource_path);
        only_file(where, ".tar.gz", runtime, sizeof runtime);
        snprintf(where, sizeof where, "%s/" KERNELS_FOLDER, resource_path);
        only_file(where, ".tar.gz", kernels, sizeof kernels);
    }
    Proxy *p = calloc(1, sizeof *p);
    if (!p || !(p->name = strdup(name))) {
        free(p);
        to_host(functions, name, fmi2Error, "logStatusError", "fmi2Instantiate: out of memory");
        return NULL;
    }
    process_init(&p->process, &p->link);
    if (functions)
        p->host = *functions;
    const char *timeout = getenv("CRANE_COSIM_FMU_TIMEOUT");
    p->timeout = timeout && *timeout ? strtod(timeout, NULL) : 0;
    if (!(p->timeout > 0 && p->timeout < 1e9))
        p->timeout = 0;
    char *argv[] = {program, binary, runtime[0] ? runtime : NULL, kernels[0] ? kernels : NULL, NULL};
    char why[1024];
    if (!process_start(&p->process, &p->link, &p->channel, argv, why, sizeof why)) {
        say(p, fmi2Error, "logStatusError", "%s: fmi2Instantiate: %s", name, why);
        free_proxy(p);
        return NULL;
    }
    out_begin(&p->out, OP_INSTANTIATE);
    put_string(&p->out, instanceName);
    put_u32(&p->out, (uint32_t)fmuType);
    put_string(&p->out, guid);
    put_string(&p->out, resources);
    put_u32(&p->out, (uint32_t)visible);
    put_u32(&p->out, (uint32_t)loggingOn);
    In r;
    fmi2Status status = call(p, "fmi2Instantiate", &r);
    if (status != fmi2OK) {
        free_proxy(p);
        return NULL;
    }
    p->keeps_one_state = (int)get_u32(&r);
    return p;
}

/* Whether the instance `c` writes a state given back to fmi2GetFMUstate
 * over, as the project's shim does (FMI 2.0 section 2.1.8 allows either):
 * a master may then save one state step after step (the project's master
 * does, where a binary says so). */
EXPORT int crane_cosim_fmi2_keeps_one_state(fmi2Component c)
{
    return c ? ((Proxy *)c)->keeps_one_state : 0;
}

EXPORT void fmi2FreeInstance(fmi2Component c)
{
    Proxy *p = c;
    if (!p)
        return;
    if (!p->gone) {
        In r;
        if (p->pending) /* a sequence posted and never collected: its answer first */
            collect(p, "fmi2FreeInstance", &r);
        out_begin(&p->out, OP_FREE_INSTANCE);
        call(p, "fmi2FreeInstance", &r);
    }
    free_proxy(p);
}

EXPORT const char *fmi2GetTypesPlatform(void) { return "default"; }
EXPORT const char *fmi2GetVersion(void) { return "2.0"; }

/* The FMI calls that take an instance. */
#include "fmi2_proxy_calls.h"
