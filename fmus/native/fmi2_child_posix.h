/* The FMU's process on Linux (fmi2_child.c): file descriptor 3 is its end
 * of the proxy's socket pair, 4 the channel's memory; libraries are loaded
 * with dlopen.  Included by fmi2_child.c. */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <sys/mman.h>

#define SOCKET_FD 3
#define CHANNEL_FD 4

/* The channel mapped and the link to the proxy made from the descriptors
 * the proxy gave; argv left as it is. */
static int open_channel(int *argc, char ***argv, Channel **channel, Link *link)
{
    (void)argc, (void)argv;
    /* nothing of the host's but the standard streams, the socket and the channel */
    for (int fd = CHANNEL_FD + 1; fd < 1024; ++fd)
        close(fd);
    *channel = mmap(NULL, CHANNEL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, CHANNEL_FD, 0);
    if (*channel == MAP_FAILED) {
        fprintf(stderr, "crane-cosim FMU process: cannot map the channel: %s\n", strerror(errno));
        return 0;
    }
    link->socket = SOCKET_FD;
    return 1;
}

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

/* A thread of its own watches the proxy, so that a process busy in a call ends too. */
static void start_watching(void)
{
    pthread_t watcher;
    if (pthread_create(&watcher, NULL, watch_proxy, NULL) == 0)
        pthread_detach(watcher);
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

/* An environment variable set (value NULL: removed). */
static void set_variable(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
}

/* A library of the runtime loaded with its symbols global (the Python C
 * API for the extension modules), never unloaded; 0 with the reason in why. */
static int load_global(const char *path, char *why, size_t n)
{
    if (dlopen(path, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE))
        return 1;
    snprintf(why, n, "%s", dlerror());
    return 0;
}

static void *open_library(const char *path, char *why, size_t n)
{
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        snprintf(why, n, "%s", dlerror());
    return lib;
}

static void *library_symbol(void *lib, const char *name) { return dlsym(lib, name); }

/* Whether a binary failed to load for want of a Python in its process. */
static int wants_python(const char *why)
{
    return strstr(why, "undefined symbol: Py") || strstr(why, "undefined symbol: _Py");
}

/* The Python of the host that runs this FMU out of process, for a binary
 * that expects one in its process (pythonfmu's: it links no libpython):
 * HOST_PYTHON_FILE beside the binary holds the host's libpython, its
 * PYTHONHOME and its PYTHONPATH, a line each (fmus/portable.py writes it
 * for crane-cosim run --processes).  1 when loaded. */
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
