/* The file calls of the FMU's process (fmi2_child.c, fmi2_unpack.h) on
 * each system: on Windows, paths in UTF-8 passed to the C runtime's and
 * Windows's wide functions (fmi2_windows_paths.h). */
#ifndef CRANE_COSIM_FMI2_FILES_H
#define CRANE_COSIM_FMI2_FILES_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <zlib.h>
#ifdef _WIN32
#include <direct.h>
#include <io.h>
#include "fmi2_windows_paths.h"
#define PATH_SEPARATOR '\\'
#else
#include <ftw.h>
#include <limits.h>
#define PATH_SEPARATOR '/'
#endif

#ifdef _WIN32
/* The file functions of the C runtime with paths in UTF-8 (fmi2_windows_paths.h). */
#define WIDE_CALL(result, failed, path, call)                                                                      \
    do {                                                                                                           \
        wchar_t *w = widened(path);                                                                                \
        result = w ? (call) : (failed);                                                                            \
        if (!w)                                                                                                    \
            errno = ENOMEM;                                                                                        \
        free(w);                                                                                                   \
    } while (0)

static int make_dir(const char *path)
{
    int r;
    WIDE_CALL(r, -1, path, _wmkdir(w));
    return r;
}

static int is_folder(const char *path)
{
    DWORD a;
    WIDE_CALL(a, INVALID_FILE_ATTRIBUTES, path, GetFileAttributesW(w));
    return a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY);
}

static int remove_folder(const char *path)
{
    int r;
    WIDE_CALL(r, -1, path, _wrmdir(w));
    return r == 0;
}

static int open_for_writing(const char *path, int mode)
{
    int fd;
    WIDE_CALL(fd, -1, path, _wopen(w, O_WRONLY | O_CREAT | O_TRUNC | O_BINARY, _S_IREAD | _S_IWRITE));
    (void)mode;
    return fd;
}

static FILE *open_text(const char *path)
{
    FILE *f;
    WIDE_CALL(f, NULL, path, _wfopen(w, L"r"));
    return f;
}

static int rename_folder(const char *from, const char *to)
{
    wchar_t *w_from = widened(from), *w_to = widened(to);
    int ok = w_from && w_to && MoveFileExW(w_from, w_to, 0);
    if (!ok)
        errno = EEXIST;
    free(w_from);
    free(w_to);
    return ok ? 0 : -1;
}

static gzFile open_archive(const char *path)
{
    gzFile gz;
    WIDE_CALL(gz, NULL, path, gzopen_w(w, "rb"));
    return gz;
}

static void remove_tree(const char *path)
{
    char pattern[PATH_MAX], child[PATH_MAX], name[PATH_MAX];
    snprintf(pattern, sizeof pattern, "%s/*", path);
    wchar_t *w = widened(pattern);
    WIN32_FIND_DATAW found;
    HANDLE search = w ? FindFirstFileW(w, &found) : INVALID_HANDLE_VALUE;
    free(w);
    if (search != INVALID_HANDLE_VALUE) {
        do {
            if (!narrowed(found.cFileName, name, sizeof name) || !strcmp(name, ".") || !strcmp(name, ".."))
                continue;
            snprintf(child, sizeof child, "%s/%s", path, name);
            if (found.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) {
                remove_tree(child);
            } else {
                wchar_t *wc = widened(child);
                if (wc)
                    DeleteFileW(wc);
                free(wc);
            }
        } while (FindNextFileW(search, &found));
        FindClose(search);
    }
    remove_folder(path);
}
#else
static int make_dir(const char *path) { return mkdir(path, 0755); }

static int is_folder(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int remove_folder(const char *path) { return rmdir(path) == 0; }

static int open_for_writing(const char *path, int mode)
{
    return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode & 0777);
}

static FILE *open_text(const char *path) { return fopen(path, "r"); }

static int rename_folder(const char *from, const char *to) { return rename(from, to); }

static gzFile open_archive(const char *path) { return gzopen(path, "rb"); }

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static void remove_tree(const char *path) { nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }
#endif

static int make_dirs(const char *path)
{
    char buffer[PATH_MAX];
    if (snprintf(buffer, sizeof buffer, "%s", path) >= (int)sizeof buffer)
        return 0;
    for (char *p = buffer + 1; *p; ++p)
        if (*p == '/' || *p == PATH_SEPARATOR) {
            char kept = *p;
            *p = '\0';
            if (!(p[-1] == ':' && p == buffer + 2) && make_dir(buffer) != 0 && errno != EEXIST)
                return 0;
            *p = kept;
        }
    return make_dir(buffer) == 0 || errno == EEXIST;
}

#endif
