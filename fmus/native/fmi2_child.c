/* crane-cosim's FMU process: runs one instance of an FMU's in-process
 * binary for the proxy in the host's process (fmi2_proxy.c), one FMI 2.0
 * call per request (fmi2_wire.h).
 *
 *   crane-cosim-fmu-process BINARY [RUNTIME.tar.gz [KERNELS.tar.gz]]
 *   crane-cosim-fmu-process.exe HANDLES BINARY [RUNTIME.tar.gz [KERNELS.tar.gz]]
 *
 * On Linux file descriptor 3 is the socket to the proxy, 4 the memory of
 * the channel the calls go through (fmi2_channel.h); on Windows HANDLES
 * names the handles the proxy let it inherit (fmi2_child_win32.h).
 * BINARY is the FMU's in-process binary (a shared library exporting the
 * FMI 2.0 functions);
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
 * The process ends when the proxy frees the instance or the host's process
 * ends (killed or not): a thread of its own watches the socket (Windows:
 * the host's process handle), so that a process busy in a call ends too.
 *
 * Compiled by fmus/native.py with zlib linked in statically: the process
 * needs only the C library.  The runtime's description may name libraries
 * to load before its Python (preload=...): those its extension modules need
 * that a target may lack (libffi on Linux, the C++ runtime on Windows).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmi2_types.h"
#include "fmi2_wire.h"
#include "fmi2_channel.h"
#include "fmi2_files.h"

#define HOST_PYTHON_FILE "host_python.txt"
#ifdef _WIN32
#include "fmi2_child_win32.h"
#else
#include "fmi2_child_posix.h"
#endif
#include "fmi2_unpack.h"

/* seconds the process spins for the next request before it sleeps: the
 * calls of one step follow each other within microseconds */
#define SPIN 200e-6

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
static Link to_proxy;    /* how to wake the proxy and see it gone */
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
    channel_post(&channel->answer, &channel->host_asleep, &to_proxy);
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

/* The archive's name without its folder and ".tar.gz": its content's hash. */
static void archive_key(const char *archive, char *key, size_t n)
{
    const char *base = strrchr(archive, '/'), *other = strrchr(archive, PATH_SEPARATOR);
    if (other > base)
        base = other;
    snprintf(key, n, "%s", base ? base + 1 : archive);
    char *dot = strstr(key, ".tar.gz");
    if (dot)
        *dot = '\0';
}

/* The lines "name=value" of the runtime's description, in order: each
 * value (a path relative to the runtime) made absolute and passed to
 * take(), which says 0 to stop; 1 when all were taken and, if `required`,
 * there was one at least. */
static int runtime_entries(const char *runtime, const char *name, int (*take)(const char *path), int required)
{
    char path[PATH_MAX], line[PATH_MAX], value[PATH_MAX];
    snprintf(path, sizeof path, "%s/crane_cosim_runtime.txt", runtime);
    FILE *f = open_text(path);
    if (!f)
        return setup_fail("the runtime %s has no description (%s: %s)", runtime, path, strerror(errno));
    int found = 0, ok = 1;
    size_t k = strlen(name);
    while (ok && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!strncmp(line, name, k) && line[k] == '=' && snprintf(value, sizeof value, "%s/%s", runtime,
                                                                  line + k + 1) < (int)sizeof value) {
            found = 1;
            ok = take(value);
        }
    }
    fclose(f);
    return ok && (found || !required || setup_fail("the runtime's description %s names no %s", path, name));
}

static char runtime_python[PATH_MAX];

static int take_python(const char *path)
{
    snprintf(runtime_python, sizeof runtime_python, "%s", path);
    return 1;
}

/* A library of the runtime loaded before its Python: a system library its
 * extension modules need, which the target may lack. */
static int take_library(const char *path)
{
    char why[1024];
    return load_global(path, why, sizeof why) || setup_fail("cannot load the FMU's library %s: %s", path, why);
}

/* The portable FMU's Python unpacked, found and loaded, the environment
 * pointing at it (fmi2_shim.c starts it when BINARY is loaded). */
static int set_up_runtime(const char *archive, const char *kernels)
{
    char root[PATH_MAX], key[256], runtime[PATH_MAX], kernel_cache[PATH_MAX];
    cache_root(root, sizeof root);
    archive_key(archive, key, sizeof key);
    snprintf(runtime, sizeof runtime, "%s/runtimes/%s", root, key);
    if (!make_dirs(root) || !make_dirs(runtime) || !remove_folder(runtime)) {
        /* made and removed: unpack_once renames the whole folder into place */
        if (!is_folder(runtime))
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
        set_variable("CRANE_COSIM_CACHE_DIR", kernel_cache);
        /* the kernels were compiled for a generic x86-64 processor: numba's
         * cache serves them only to a process that asks for that one */
        set_variable("NUMBA_CPU_NAME", "generic");
    }
    if (!runtime_entries(runtime, "python", take_python, 1))
        return 0;
    /* this Python and nothing of the host's */
    set_variable("CRANE_COSIM_PYTHON", runtime_python);
    set_variable("PYTHONNOUSERSITE", "1");
    static const char *const host_only[] = {"PYTHONHOME", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONEXECUTABLE",
                                            "PYTHONUSERBASE", "PYTHONSAFEPATH", "NUMBA_CACHE_DIR",
                                            "VIRTUAL_ENV"};
    for (size_t i = 0; i < sizeof host_only / sizeof *host_only; ++i)
        set_variable(host_only[i], NULL);
    return runtime_entries(runtime, "preload", take_library, 0) &&
           runtime_entries(runtime, "libpython", take_library, 1);
}

/* Whether the FMU's binary is the project's shim, which writes a state
 * given back to fmi2GetFMUstate over (FMI 2.0 section 2.1.8): the proxy
 * tells its host so (crane_cosim_fmi2_keeps_one_state). */
static int keeps_one_state;

static int load_binary(const char *binary)
{
    char first[1024], again[1024];
    void *lib = open_library(binary, first, sizeof first);
    if (!lib) {
        if (wants_python(first))
            lib = load_host_python(binary) ? open_library(binary, again, sizeof again) : NULL;
        if (!lib)
            return setup_fail("cannot load the FMU's binary: %s", first);
    }
    keeps_one_state = library_symbol(lib, "crane_cosim_fmi2_shim") != NULL;
#define RESOLVE(name, params, args)                                                                                \
    if (!(*(void **)&p_##name = library_symbol(lib, #name)))                                                       \
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

static int run(int argc, char **argv)
{
    if (!open_channel(&argc, &argv, &channel, &to_proxy))
        return 3;
    if (argc < 2) {
        fprintf(stderr, "usage: %s BINARY [RUNTIME.tar.gz [KERNELS.tar.gz]] (run by an FMU's binary)\n", argv[0]);
        return 2;
    }
    start_watching();
    unsigned char *request = NULL;
    size_t request_capacity = 0;
    uint32_t seen = 0; /* the channel starts zeroed; the first request may be there already */
    for (;;) {
        if (channel_wait(&channel->request, seen, &channel->child_asleep, &to_proxy, SPIN, NULL, 0) != 1)
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

#ifdef _WIN32
/* The arguments as UTF-8, whatever the system's code page (paths in a user
 * folder named in any script). */
int wmain(int argc, wchar_t **wide)
{
    char **argv = calloc((size_t)argc + 1, sizeof *argv);
    for (int i = 0; argv && i < argc; ++i) {
        char *arg = malloc(PATH_MAX * 3);
        if (!arg || !narrowed(wide[i], arg, PATH_MAX * 3))
            return 3;
        argv[i] = arg;
    }
    return argv ? run(argc, argv) : 3;
}
#else
int main(int argc, char **argv) { return run(argc, argv); }
#endif
