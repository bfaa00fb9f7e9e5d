/* The FMU's process on Windows (fmi2_child.c): its first argument names
 * the handles the proxy let it inherit (the channel's file mapping, its
 * own event, the proxy's event, the host's process); libraries are loaded
 * with LoadLibraryEx, each finding its own dependencies beside it.
 * Included by fmi2_child.c. */
#include "fmi2_windows_paths.h"


static HANDLE host_process;

/* The channel mapped and the link to the proxy made from the handles in
 * argv[1], which is then taken out of argv. */
static int open_channel(int *argc, char ***argv, Channel **channel, Link *link)
{
    unsigned long long mapping, mine, proxy, host;
    /* a crash ends the process at once, with no error report or debugger
     * waiting for a user: the proxy then tells its host how it ended */
    SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX | SEM_NOOPENFILEERRORBOX);
    if (*argc < 3 || sscanf((*argv)[1], "%llu,%llu,%llu,%llu", &mapping, &mine, &proxy, &host) != 4) {
        fprintf(stderr, "crane-cosim FMU process: run by an FMU's binary, with its handles as first argument\n");
        return 0;
    }
    *channel = MapViewOfFile((HANDLE)(uintptr_t)mapping, FILE_MAP_ALL_ACCESS, 0, 0, CHANNEL_SIZE);
    if (!*channel) {
        fprintf(stderr, "crane-cosim FMU process: cannot map the channel: error %lu\n", GetLastError());
        return 0;
    }
    link->wake_me = (HANDLE)(uintptr_t)mine;
    link->wake_peer = (HANDLE)(uintptr_t)proxy;
    link->peer = host_process = (HANDLE)(uintptr_t)host;
    (*argv)[1] = (*argv)[0];
    ++*argv;
    --*argc;
    return 1;
}

/* Ends the process when the host's process ends. */
static DWORD WINAPI watch_host(void *unused)
{
    (void)unused;
    WaitForSingleObject(host_process, INFINITE);
    _exit(0);
    return 0;
}

static void start_watching(void)
{
    HANDLE watcher = CreateThread(NULL, 64 * 1024, watch_host, NULL, 0, NULL);
    if (watcher)
        CloseHandle(watcher);
}

/* The user's cache folder for crane-cosim, as blocks/jit.py finds it. */
static void cache_root(char *root, size_t n)
{
    wchar_t wide[PATH_MAX];
    char value[PATH_MAX];
    DWORD k = GetEnvironmentVariableW(L"CRANE_COSIM_CACHE_DIR", wide, PATH_MAX);
    if (k > 0 && k < PATH_MAX && narrowed(wide, value, sizeof value)) {
        snprintf(root, n, "%s", value);
        return;
    }
    k = GetEnvironmentVariableW(L"LOCALAPPDATA", wide, PATH_MAX);
    if (k > 0 && k < PATH_MAX && narrowed(wide, value, sizeof value))
        snprintf(root, n, "%s/crane-cosim", value);
    else
        snprintf(root, n, "C:/crane-cosim");
}

/* An environment variable of the process set (value NULL: removed), where
 * the C runtime of the Python loaded later reads it. */
static void set_variable(const char *name, const char *value)
{
    wchar_t *wide_name = widened(name), *wide_value = value ? widened(value) : NULL;
    if (wide_name && (wide_value || !value))
        SetEnvironmentVariableW(wide_name, wide_value);
    free(wide_name);
    free(wide_value);
}

static void *open_library(const char *path, char *why, size_t n)
{
    char windows_path[PATH_MAX];
    snprintf(windows_path, sizeof windows_path, "%s", path);
    for (char *c = windows_path; *c; ++c) /* LOAD_WITH_ALTERED_SEARCH_PATH wants backslashes */
        if (*c == '/')
            *c = '\\';
    wchar_t *wide = widened(windows_path);
    HMODULE lib = wide ? LoadLibraryExW(wide, NULL, LOAD_WITH_ALTERED_SEARCH_PATH) : NULL;
    free(wide);
    if (!lib) {
        char text[512];
        snprintf(why, n, "cannot load %s: %s", path, windows_error(GetLastError(), text, sizeof text));
    }
    return lib;
}

/* A library loaded for good (a module loaded once is found by name by the
 * libraries loaded after it). */
static int load_global(const char *path, char *why, size_t n) { return open_library(path, why, n) != NULL; }

static void *library_symbol(void *lib, const char *name) { return (void *)GetProcAddress((HMODULE)lib, name); }

/* A binary that wants a Python finds none on Windows but the runtime's. */
static int wants_python(const char *why)
{
    (void)why;
    return 0;
}

static int load_host_python(const char *binary)
{
    (void)binary;
    return 0;
}
