/* The proxy's process on Windows (fmi2_proxy.c): started by CreateProcess,
 * given only the handles it needs (the channel's file mapping, the two
 * events of the Link, a handle of the host's process to watch); its
 * standard output and error a temporary file the proxy reads and passes
 * on to the host's standard error.
 * Included by fmi2_proxy.c. */
#include "fmi2_windows_paths.h"

#define EXPORT __declspec(dllexport)
#define BINARY_SUFFIX ".dll"
#define PROCESS_FILE "crane-cosim-fmu-process.exe"
/* the folders of resources/ with the Windows runtime's archive and kernels' (none yet: numba
 * compiles them on the target) */
#define RUNTIME_FOLDER "crane_cosim_runtime_win64"
#define KERNELS_FOLDER "crane_cosim_kernels_win64"

typedef struct {
    HANDLE process;
    HANDLE mapping;              /* the channel's memory */
    HANDLE errors;               /* its standard error, a temporary file: the proxy's handle to read it */
    unsigned long long errors_shown; /* how much of it reached the host's standard error */
} Process;

static void process_init(Process *proc, Link *link)
{
    memset(proc, 0, sizeof *proc);
    memset(link, 0, sizeof *link);
}

/* Up to n bytes of the standard error file from `offset`: the count read. */
static DWORD read_errors(Process *proc, char *buffer, DWORD n, unsigned long long offset)
{
    OVERLAPPED at = {0};
    at.Offset = (DWORD)offset;
    at.OffsetHigh = (DWORD)(offset >> 32);
    DWORD got = 0;
    if (!proc->errors || !ReadFile(proc->errors, buffer, n, &got, &at))
        return 0;
    return got;
}

static void process_show_errors(Process *proc)
{
    char buffer[8192];
    for (;;) {
        DWORD n = read_errors(proc, buffer, sizeof buffer, proc->errors_shown);
        if (n == 0 || !write_all(2, buffer, n))
            return;
        proc->errors_shown += n;
    }
}

static void process_last_words(Process *proc, char *words, size_t n)
{
    LARGE_INTEGER size;
    words[0] = '\0';
    if (!proc->errors || !GetFileSizeEx(proc->errors, &size) || size.QuadPart <= 0)
        return;
    unsigned long long end = (unsigned long long)size.QuadPart, from = end > n - 1 ? end - (n - 1) : 0;
    DWORD k = read_errors(proc, words, (DWORD)(end - from), from);
    words[k] = '\0';
}

static void process_how_it_ended(Process *proc, char *how, size_t n, long *id)
{
    DWORD code = STILL_ACTIVE;
    *id = proc->process ? (long)GetProcessId(proc->process) : 0;
    if (proc->process && WaitForSingleObject(proc->process, 1000) == WAIT_OBJECT_0)
        GetExitCodeProcess(proc->process, &code);
    if (code == STILL_ACTIVE)
        snprintf(how, n, "stopped answering");
    else if (code >= 0xC0000000u)
        snprintf(how, n, "ended with the exception 0x%08lX", (unsigned long)code);
    else
        snprintf(how, n, "exited with status %lu", (unsigned long)code);
}

static void process_kill(Process *proc)
{
    if (proc->process)
        TerminateProcess(proc->process, 1);
}

static void close_handle(HANDLE *h)
{
    if (*h)
        CloseHandle(*h);
    *h = NULL;
}

static void process_release(Process *proc, Link *link, Channel *channel)
{
    if (proc->process && WaitForSingleObject(proc->process, 2000) != WAIT_OBJECT_0) {
        TerminateProcess(proc->process, 1);
        WaitForSingleObject(proc->process, INFINITE);
    }
    if (channel)
        UnmapViewOfFile(channel);
    close_handle(&proc->mapping);
    close_handle(&proc->errors);
    close_handle(&proc->process);
    close_handle(&link->wake_me);
    close_handle(&link->wake_peer);
    link->peer = NULL; /* the process's handle, closed above */
}

static int own_path(char *path)
{
    HMODULE self;
    wchar_t wide[PATH_MAX];
    if (!GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                            (LPCWSTR)(void *)&own_path, &self))
        return 0;
    DWORD k = GetModuleFileNameW(self, wide, PATH_MAX);
    return k > 0 && k < PATH_MAX && narrowed(wide, path, PATH_MAX);
}

static void only_file(const char *folder, const char *suffix, char *path, size_t n)
{
    char pattern[PATH_MAX];
    path[0] = '\0';
    snprintf(pattern, sizeof pattern, "%s/*%s", folder, suffix);
    wchar_t *wide = widened(pattern);
    WIN32_FIND_DATAW found;
    HANDLE search = wide ? FindFirstFileW(wide, &found) : INVALID_HANDLE_VALUE;
    free(wide);
    if (search == INVALID_HANDLE_VALUE)
        return;
    char name[PATH_MAX];
    do {
        if (!(found.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) && found.cFileName[0] != L'.' &&
            narrowed(found.cFileName, name, sizeof name)) {
            snprintf(path, n, "%s/%s", folder, name);
            break;
        }
    } while (FindNextFileW(search, &found));
    FindClose(search);
}

/* `arg` appended to the command line `line` (room for n wide characters),
 * quoted as CommandLineToArgvW and the C runtime read it back. */
static int append_arg(wchar_t *line, size_t n, const char *arg)
{
    wchar_t *wide = widened(arg);
    if (!wide)
        return 0;
    size_t at = wcslen(line);
    int ok = 1;
#define PUT(c) (at + 2 < n ? (void)(line[at++] = (c)) : (void)(ok = 0))
    if (at)
        PUT(L' ');
    PUT(L'"');
    for (const wchar_t *c = wide;; ++c) {
        size_t backslashes = 0;
        while (*c == L'\\')
            ++c, ++backslashes;
        /* backslashes are doubled only before a quote (the closing one included) */
        size_t copies = (*c == L'"' || *c == 0) ? 2 * backslashes : backslashes;
        for (size_t i = 0; i < copies; ++i)
            PUT(L'\\');
        if (*c == 0)
            break;
        if (*c == L'"')
            PUT(L'\\');
        PUT(*c);
    }
    PUT(L'"');
#undef PUT
    line[at] = 0;
    free(wide);
    return ok;
}

/* An inheritable temporary file for the process's standard error (*child,
 * deleted when the last handle closes), and the proxy's own handle to read
 * it (*reader, which keeps its own position). */
static int errors_file(HANDLE *child, HANDLE *reader, SECURITY_ATTRIBUTES *inherit)
{
    wchar_t folder[MAX_PATH + 1], path[MAX_PATH + 1];
    if (!GetTempPathW(MAX_PATH + 1, folder) || !GetTempFileNameW(folder, L"ccf", 0, path))
        return 0;
    DWORD share = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;
    *child = CreateFileW(path, GENERIC_WRITE, share, inherit, CREATE_ALWAYS,
                         FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, NULL);
    if (*child == INVALID_HANDLE_VALUE) {
        *child = NULL;
        DeleteFileW(path);
        return 0;
    }
    *reader = CreateFileW(path, GENERIC_READ, share, NULL, OPEN_EXISTING, 0, NULL);
    if (*reader == INVALID_HANDLE_VALUE) {
        *reader = NULL;
        return 0;
    }
    return 1;
}

/* The process: argv[0] the program, then "HANDLES" (the mapping, the
 * process's event, the proxy's event and the host's process, as numbers),
 * then argv[1...]. */
static int process_start(Process *proc, Link *link, Channel **channel, char *const argv[], char *why, size_t n)
{
    SECURITY_ATTRIBUTES inherit = {sizeof inherit, NULL, TRUE};
    HANDLE self = NULL, errors_child = NULL;
    char text[512];
    int ok = 0;
    proc->mapping = CreateFileMappingW(INVALID_HANDLE_VALUE, &inherit, PAGE_READWRITE, 0, CHANNEL_SIZE, NULL);
    if (proc->mapping)
        *channel = MapViewOfFile(proc->mapping, FILE_MAP_ALL_ACCESS, 0, 0, CHANNEL_SIZE);
    link->wake_me = CreateEventW(&inherit, FALSE, FALSE, NULL);
    link->wake_peer = CreateEventW(&inherit, FALSE, FALSE, NULL);
    if (!*channel || !link->wake_me || !link->wake_peer ||
        !DuplicateHandle(GetCurrentProcess(), GetCurrentProcess(), GetCurrentProcess(), &self, SYNCHRONIZE, TRUE,
                         0) ||
        !errors_file(&errors_child, &proc->errors, &inherit)) {
        snprintf(why, n, "cannot make the FMU's process a channel: %s", windows_error(GetLastError(), text, sizeof text));
        goto done;
    }
    wchar_t *line = calloc(32768, sizeof *line);
    char handles[160];
    snprintf(handles, sizeof handles, "%llu,%llu,%llu,%llu", (unsigned long long)(uintptr_t)proc->mapping,
             (unsigned long long)(uintptr_t)link->wake_peer, (unsigned long long)(uintptr_t)link->wake_me,
             (unsigned long long)(uintptr_t)self);
    int fits = line && append_arg(line, 32768, argv[0]) && append_arg(line, 32768, handles);
    for (int i = 1; argv[i]; ++i)
        fits = fits && append_arg(line, 32768, argv[i]);
    wchar_t *program = widened(argv[0]);
    if (!fits || !program) {
        free(program);
        free(line);
        snprintf(why, n, "cannot start the FMU's process %s: its command line is too long", argv[0]);
        goto done;
    }
    /* only these handles are inherited, whatever else the host made inheritable */
    HANDLE list[5] = {proc->mapping, link->wake_me, link->wake_peer, self, errors_child};
    DWORD count = 5;
    SIZE_T size = 0;
    InitializeProcThreadAttributeList(NULL, 1, 0, &size);
    STARTUPINFOEXW start = {0};
    start.StartupInfo.cb = sizeof start;
    start.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    /* no standard input; its standard output goes with its standard error
     * to the host's standard error, as a host with no console (most
     * Windows tools) has no standard output to share */
    start.StartupInfo.hStdInput = NULL;
    start.StartupInfo.hStdOutput = errors_child;
    start.StartupInfo.hStdError = errors_child;
    start.lpAttributeList = malloc(size);
    PROCESS_INFORMATION info;
    if (start.lpAttributeList && InitializeProcThreadAttributeList(start.lpAttributeList, 1, 0, &size) &&
        UpdateProcThreadAttribute(start.lpAttributeList, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, list,
                                  count * sizeof *list, NULL, NULL) &&
        CreateProcessW(program, line, NULL, NULL, TRUE, EXTENDED_STARTUPINFO_PRESENT | CREATE_NO_WINDOW, NULL, NULL,
                       &start.StartupInfo, &info)) {
        CloseHandle(info.hThread);
        proc->process = link->peer = info.hProcess;
        ok = 1;
    } else {
        snprintf(why, n, "cannot start the FMU's process %s: %s", argv[0],
                 windows_error(GetLastError(), text, sizeof text));
    }
    if (start.lpAttributeList) {
        DeleteProcThreadAttributeList(start.lpAttributeList);
        free(start.lpAttributeList);
    }
    free(program);
    free(line);
done:
    close_handle(&self);
    close_handle(&errors_child);
    return ok;
}
