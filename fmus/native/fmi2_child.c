/* crane-cosim's FMU process: runs one instance of an FMU's in-process
 * binary for the proxy in the host's process (fmi2_proxy.c), one FMI 2.0
 * call per request (fmi2_wire.h).
 *
 *   crane-cosim-fmu-process BINARY [RUNTIME.tar.gz [KERNELS.tar.gz]]
 *
 * File descriptor 3 is the socket to the proxy, 4 the memory of the
 * channel the calls go through (fmi2_wire.h).  BINARY is the FMU's
 * in-process binary (a shared library exporting the FMI 2.0 functions);
 * whatever it logs during a call goes back before the call's status, so the
 * host sees the calls, statuses and messages the in-process FMU gives.
 *
 * With RUNTIME, a portable FMU's Python (fmus/portable.py), the archive is
 * unpacked once into the user's cache folder (fmi2_unpack.h) and that
 * Python's library is loaded before BINARY, with the environment pointing
 * at it: the FMU then runs where no Python is installed, whatever Python
 * the host runs.  KERNELS, the block's numba kernels compiled for a generic
 * x86-64 processor, is unpacked likewise and used as the kernels' cache.
 *
 * The process ends when the proxy frees the instance or closes the socket
 * (the host ended or was killed): a thread of its own watches the socket,
 * so that a process busy in a call ends too.
 *
 * Compiled by fmus/native.py with zlib linked in statically: the process
 * needs only the C library.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fmi2_types.h"
#include "fmi2_wire.h"
#include "fmi2_unpack.h"

#define SOCKET_FD 3
#define CHANNEL_FD 4
/* seconds the process spins for the next request before it sleeps: the
 * calls of one step follow each other within microseconds */
#define SPIN 200e-6
#define HOST_PYTHON_FILE "host_python.txt"

/* the FMU's binary */
#define DECLARE_POINTER(name, params, args) static fmi2Status (*p_##name) params;
FMI2_STATUS_FUNCTIONS(DECLARE_POINTER)
static fmi2Component (*p_fmi2Instantiate)(fmi2String, fmi2Type, fmi2String, fmi2String,
                                          const fmi2CallbackFunctions *, fmi2Boolean, fmi2Boolean);
static void (*p_fmi2FreeInstance)(fmi2Component);
static fmi2Status (*p_fmi2SetRealInputDerivatives)(fmi2Component, const fmi2ValueReference[], size_t,
                                                   const fmi2Integer[], const fmi2Real[]);

static Out out;          /* the answer's RETURN frame */
static Channel *channel;
/* the LOG frames of the call so far, each padded to 8 bytes */
static unsigned char *logs;
static size_t logs_size, logs_capacity;

static void keep_log(const Out *frame)
{
    size_t n = frame->size, padded = (n + 7) & ~(size_t)7;
    if (frame->failed || logs_size + padded > CHANNEL_HALF / 2)
        return; /* too much said in one call: the rest is lost */
    if (logs_size + padded > logs_capacity) {
        size_t capacity = logs_capacity ? logs_capacity : 4096;
        while (capacity < logs_size + padded)
            capacity *= 2;
        unsigned char *grown = realloc(logs, capacity);
        if (!grown)
            return;
        logs = grown;
        logs_capacity = capacity;
    }
    ((FrameHeader *)frame->data)->length = (uint32_t)(n - sizeof(FrameHeader));
    memcpy(logs + logs_size, frame->data, n);
    memset(logs + logs_size + n, 0, padded - n);
    logs_size += padded;
}

/* The call's log frames and its RETURN frame into the channel's answer half, announced. */
static void send_answer(void)
{
    ((FrameHeader *)out.data)->length = (uint32_t)(out.size - sizeof(FrameHeader));
    if (out.failed || logs_size + out.size > CHANNEL_HALF) {
        logs_size = 0;
        out_begin(&out, FRAME_RETURN);
        put_u32(&out, fmi2Fatal);
        ((FrameHeader *)out.data)->length = (uint32_t)(out.size - sizeof(FrameHeader));
    }
    unsigned char *answer = channel_answer(channel);
    memcpy(answer, logs, logs_size);
    memcpy(answer + logs_size, out.data, out.size);
    channel->answer_size = logs_size + out.size;
    logs_size = 0;
    channel_post(&channel->answer, &channel->host_asleep, SOCKET_FD);
}

/* The FMU's logger: the message as printf would show it, sent at once. */
static void logger(fmi2ComponentEnvironment env, fmi2String name, fmi2Status status, fmi2String category,
                   fmi2String message, ...)
{
    (void)env, (void)name;
    char small[1024], *text = small;
    va_list ap;
    va_start(ap, message);
    int n = message ? vsnprintf(small, sizeof small, message, ap) : 0;
    va_end(ap);
    if (n < 0)
        n = 0, small[0] = '\0';
    if ((size_t)n >= sizeof small && (text = malloc((size_t)n + 1))) {
        va_start(ap, message);
        vsnprintf(text, (size_t)n + 1, message, ap);
        va_end(ap);
    } else if (!text) {
        text = small;
    }
    Out log = {0};
    out_begin(&log, FRAME_LOG);
    put_u32(&log, (uint32_t)status);
    put_string(&log, category);
    put_string(&log, message ? text : NULL);
    keep_log(&log);
    free(log.data);
    if (text != small)
        free(text);
}

static const fmi2CallbackFunctions callbacks = {logger, calloc, free, NULL, NULL};

/* Ends the process when the proxy's end of the socket closes. */
static void *watch_proxy(void *unused)
{
    (void)unused;
    struct pollfd p = {SOCKET_FD, POLLRDHUP, 0};
    for (;;) {
        if (poll(&p, 1, -1) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR)))
            _exit(0);
    }
    return NULL;
}

/* -- setting up ------------------------------------------------------------------------- */

static char setup_error[2048];

static int setup_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int setup_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(setup_error, sizeof setup_error, fmt, ap);
    va_end(ap);
    return 0;
}

/* The user's cache folder for crane-cosim, as blocks/jit.py finds it. */
static void cache_root(char *root, size_t n)
{
    const char *dir = getenv("CRANE_COSIM_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (dir && *dir)
        snprintf(root, n, "%s", dir);
    else if (xdg && *xdg)
        snprintf(root, n, "%s/crane-cosim", xdg);
    else if (home && *home)
        snprintf(root, n, "%s/.cache/crane-cosim", home);
    else
        snprintf(root, n, "/tmp/crane-cosim-%ld", (long)getuid());
}

/* The archive's name without its folder and ".tar.gz": its content's hash. */
static void archive_key(const char *archive, char *key, size_t n)
{
    const char *base = strrchr(archive, '/');
    snprintf(key, n, "%s", base ? base + 1 : archive);
    char *dot = strstr(key, ".tar.gz");
    if (dot)
        *dot = '\0';
}

/* A line "name=value" of the runtime's description, the value in `value`. */
static int runtime_entry(const char *runtime, const char *name, char *value, size_t n)
{
    char path[PATH_MAX], line[PATH_MAX];
    snprintf(path, sizeof path, "%s/crane_cosim_runtime.txt", runtime);
    FILE *f = fopen(path, "r");
    if (!f)
        return setup_fail("the runtime %s has no description (%s: %s)", runtime, path, strerror(errno));
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        size_t k = strlen(name);
        if (!strncmp(line, name, k) && line[k] == '=')
            found = snprintf(value, n, "%s/%s", runtime, line + k + 1) < (int)n;
    }
    fclose(f);
    return found ? 1 : setup_fail("the runtime's description %s names no %s", path, name);
}

/* The portable FMU's Python unpacked, found and loaded, the environment
 * pointing at it (fmi2_shim.c starts it when BINARY is loaded). */
static int set_up_runtime(const char *archive, const char *kernels)
{
    char root[PATH_MAX], key[256], runtime[PATH_MAX], kernel_cache[PATH_MAX], python[PATH_MAX],
        libpython[PATH_MAX];
    cache_root(root, sizeof root);
    archive_key(archive, key, sizeof key);
    snprintf(runtime, sizeof runtime, "%s/runtimes/%s", root, key);
    if (!make_dirs(root) || !make_dirs(runtime) || rmdir(runtime) != 0) {
        /* made and removed: unpack_once renames the whole folder into place */
        struct stat st;
        if (!(stat(runtime, &st) == 0 && S_ISDIR(st.st_mode)))
            return setup_fail("cannot make the cache folder %s: %s (set CRANE_COSIM_CACHE_DIR to a folder "
                              "that can be written)", runtime, strerror(errno));
    }
    if (!unpack_once(archive, runtime))
        return setup_fail("cannot unpack the FMU's Python: %s", unpack_error);
    if (kernels && *kernels) {
        archive_key(kernels, key, sizeof key);
        snprintf(kernel_cache, sizeof kernel_cache, "%s/kernels/%s", runtime, key);
        if (!make_dirs(runtime) || !unpack_once(kernels, kernel_cache))
            return setup_fail("cannot unpack the FMU's compiled kernels: %s", unpack_error);
        setenv("CRANE_COSIM_CACHE_DIR", kernel_cache, 1);
    }
    if (!runtime_entry(runtime, "python", python, sizeof python) ||
        !runtime_entry(runtime, "libpython", libpython, sizeof libpython))
        return 0;
    /* this Python and nothing of the host's */
    setenv("CRANE_COSIM_PYTHON", python, 1);
    setenv("PYTHONNOUSERSITE", "1", 1);
    static const char *const host_only[] = {"PYTHONHOME", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONEXECUTABLE",
                                            "PYTHONUSERBASE", "PYTHONSAFEPATH", "NUMBA_CACHE_DIR",
                                            "VIRTUAL_ENV"};
    for (size_t i = 0; i < sizeof host_only / sizeof *host_only; ++i)
        unsetenv(host_only[i]);
    /* the kernels were compiled for a generic x86-64 processor: numba's
     * cache serves them only to a process that asks for that one */
    setenv("NUMBA_CPU_NAME", "generic", 1);
    if (!dlopen(libpython, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE))
        return setup_fail("cannot load the FMU's Python library: %s", dlerror());
    return 1;
}

/* Whether the FMU's binary is the project's shim, which writes a state
 * given back to fmi2GetFMUstate over (FMI 2.0 section 2.1.8): the proxy
 * tells its host so (crane_cosim_fmi2_keeps_one_state). */
static int keeps_one_state;

/* The Python of the host that runs this FMU out of process, for a binary
 * that expects one in its process (pythonfmu's: it links no libpython):
 * HOST_PYTHON_FILE beside the binary holds the host's libpython, its
 * PYTHONHOME and its PYTHONPATH, a line each (fmus/portable.py writes it
 * for crane-cosim run --processes).  Loaded only where the binary cannot be
 * loaded without it.  1 when loaded. */
static int load_host_python(const char *binary)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s", binary);
    char *slash = strrchr(path, '/');
    if (!slash)
        return 0;
    snprintf(slash + 1, sizeof path - (size_t)(slash + 1 - path), "%s", HOST_PYTHON_FILE);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    static char lines[3][PATH_MAX * 4];
    int n = 0;
    while (n < 3 && fgets(lines[n], sizeof lines[n], f)) {
        lines[n][strcspn(lines[n], "\n")] = '\0';
        ++n;
    }
    fclose(f);
    if (n < 3 || !lines[0][0])
        return 0;
    setenv("PYTHONHOME", lines[1], 1);
    setenv("PYTHONPATH", lines[2], 1);
    return dlopen(lines[0], RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE) != NULL;
}

static int load_binary(const char *binary)
{
    void *lib = dlopen(binary, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        char first[1024];
        snprintf(first, sizeof first, "%s", dlerror());
        if (strstr(first, "undefined symbol: Py") || strstr(first, "undefined symbol: _Py"))
            lib = load_host_python(binary) ? dlopen(binary, RTLD_NOW | RTLD_LOCAL) : NULL;
        if (!lib)
            return setup_fail("cannot load the FMU's binary: %s", first);
    }
    keeps_one_state = dlsym(lib, "crane_cosim_fmi2_shim") != NULL;
#define RESOLVE(name, params, args)                                                                                \
    if (!(*(void **)&p_##name = dlsym(lib, #name)))                                                                \
        return setup_fail("the FMU's binary %s has no %s", binary, #name);
    FMI2_STATUS_FUNCTIONS(RESOLVE)
    RESOLVE(fmi2Instantiate, , )
    RESOLVE(fmi2FreeInstance, , )
    RESOLVE(fmi2SetRealInputDerivatives, , )
    return 1;
}

/* -- the calls ---------------------------------------------------------------------------- */

static fmi2Component instance;

/* fmi2Instantiate: the FMU's binary loaded first (and its Python before it). */
static void instantiate(In *r, int argc, char **argv)
{
    const char *name = get_string(r), *guid, *resources;
    fmi2Type type = (fmi2Type)get_u32(r);
    guid = get_string(r);
    resources = get_string(r);
    fmi2Boolean visible = (fmi2Boolean)get_u32(r), logging = (fmi2Boolean)get_u32(r);
    int ok = (argc < 3 || set_up_runtime(argv[2], argc > 3 ? argv[3] : NULL)) && load_binary(argv[1]);
    if (!ok) {
        Out log = {0};
        char message[4096];
        snprintf(message, sizeof message, "%s: fmi2Instantiate: %s", name ? name : "", setup_error);
        out_begin(&log, FRAME_LOG);
        put_u32(&log, fmi2Fatal);
        put_string(&log, "logStatusFatal");
        put_string(&log, message);
        keep_log(&log);
        free(log.data);
    } else {
        instance = p_fmi2Instantiate(name, type, guid, resources, &callbacks, visible, logging);
    }
    out_begin(&out, FRAME_RETURN);
    put_u32(&out, instance ? fmi2OK : fmi2Error);
    put_u32(&out, (uint32_t)keeps_one_state);
}

/* The FMI calls that take an instance: answer(). */
#include "fmi2_child_calls.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s BINARY [RUNTIME.tar.gz [KERNELS.tar.gz]] (run by an FMU's binary, with its "
                        "socket as file descriptor 3)\n", argv[0]);
        return 2;
    }
    /* nothing of the host's but the standard streams, the socket and the channel */
    for (int fd = CHANNEL_FD + 1; fd < 1024; ++fd)
        close(fd);
    channel = mmap(NULL, CHANNEL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, CHANNEL_FD, 0);
    if (channel == MAP_FAILED) {
        fprintf(stderr, "crane-cosim FMU process: cannot map the channel: %s\n", strerror(errno));
        return 3;
    }
    pthread_t watcher;
    if (pthread_create(&watcher, NULL, watch_proxy, NULL) == 0)
        pthread_detach(watcher);
    unsigned char *request = NULL;
    size_t request_capacity = 0;
    uint32_t seen = 0; /* the channel starts zeroed; the first request may be there already */
    for (;;) {
        if (channel_wait(&channel->request, seen, &channel->child_asleep, SOCKET_FD, SPIN, NULL, 0) != 1)
            _exit(0); /* the proxy is gone */
        seen = atomic_load(&channel->request);
        /* a copy: the request half is the proxy's again once the answer is posted */
        size_t size = (size_t)channel->request_size;
        if (size > CHANNEL_HALF)
            _exit(3);
        if (size > request_capacity) {
            unsigned char *grown = realloc(request, size);
            if (!grown)
                _exit(3);
            request = grown;
            request_capacity = size;
        }
        memcpy(request, channel_request(channel), size);
        const unsigned char *at = request;
        uint32_t op;
        In r;
        if (!next_frame(&at, request + size, &op, &r))
            _exit(3);
        if (op == OP_INSTANTIATE) {
            if (instance)
                _exit(3);
            instantiate(&r, argc, argv);
        } else if (op == OP_FREE_INSTANCE) {
            if (instance)
                p_fmi2FreeInstance(instance);
            instance = NULL;
            out_begin(&out, FRAME_RETURN);
            put_u32(&out, fmi2OK);
            send_answer();
            /* as a process ends after its FMU's last call: no exit handlers
             * of the FMU's binary or of Python run (fmi2_shim.c never
             * finalizes Python in a C host) */
            fflush(NULL);
            _exit(0);
        } else if (!instance) {
            _exit(3);
        } else {
            answer(&r, op);
        }
        send_answer();
    }
}
