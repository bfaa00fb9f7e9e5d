/* The child's unpacking of an FMU's Python runtime and compiled kernels
 * (fmi2_child.c): gzip-compressed tar archives written by fmus/portable.py,
 * unpacked once into the user's cache folder and shared by every FMU that
 * carries the same archive.
 *
 * The archives hold directories, regular files and symbolic links, with
 * POSIX pax headers for long paths and for modification times to the
 * nanosecond (numba's cache of the compiled kernels is valid only for the
 * exact modification time its source had when it was compiled).  A member
 * whose path is absolute or climbs out of the target folder is refused.
 */
#include <stdio.h>
#include <zlib.h>

#include "fmi2_files.h"

/* Why the last unpacking failed, in a clause. */
static char unpack_error[1024];

static int unpack_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int unpack_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(unpack_error, sizeof unpack_error, fmt, ap);
    va_end(ap);
    return 0;
}

static int safe_member(const char *name)
{
    if (!*name || name[0] == '/')
        return 0;
#ifdef _WIN32
    if (strchr(name, '\\') || strchr(name, ':'))
        return 0;
#endif
    for (const char *p = name; *p;) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 2 && p[0] == '.' && p[1] == '.')
            return 0;
        p += n + (slash ? 1 : 0);
    }
    return 1;
}

static unsigned long long octal(const char *field, size_t n)
{
    unsigned long long v = 0;
    for (size_t i = 0; i < n && field[i]; ++i)
        if (field[i] >= '0' && field[i] <= '7')
            v = v * 8 + (unsigned long long)(field[i] - '0');
    return v;
}

static int read_block(gzFile gz, char *block, size_t n)
{
    return gzread(gz, block, (unsigned)n) == (int)n;
}

typedef struct {
    char path[PATH_MAX], link[PATH_MAX];
    int have_time;
    long long seconds;
    long nanoseconds;
} PaxRecord;

/* The records of a pax extended header that this reader uses. */
static void parse_pax(const char *data, size_t n, PaxRecord *pax)
{
    size_t at = 0;
    while (at < n) {
        char *end;
        unsigned long length = strtoul(data + at, &end, 10);
        if (!length || at + length > n || *end != ' ')
            return;
        const char *key = end + 1, *record_end = data + at + length - 1; /* at its newline */
        const char *eq = memchr(key, '=', (size_t)(record_end - key));
        if (eq) {
            size_t key_n = (size_t)(eq - key), value_n = (size_t)(record_end - eq - 1);
            const char *value = eq + 1;
            if (key_n == 4 && !memcmp(key, "path", 4) && value_n < sizeof pax->path) {
                memcpy(pax->path, value, value_n);
                pax->path[value_n] = '\0';
            } else if (key_n == 8 && !memcmp(key, "linkpath", 8) && value_n < sizeof pax->link) {
                memcpy(pax->link, value, value_n);
                pax->link[value_n] = '\0';
            } else if (key_n == 5 && !memcmp(key, "mtime", 5)) {
                pax->have_time = 1;
                pax->seconds = strtoll(value, &end, 10);
                pax->nanoseconds = 0;
                if (*end == '.') {
                    long scale = 100000000;
                    for (const char *d = end + 1; d < record_end && *d >= '0' && *d <= '9' && scale; ++d, scale /= 10)
                        pax->nanoseconds += (*d - '0') * scale;
                }
            }
        }
        at += length;
    }
}

/* Write `size` bytes of the archive to `path` (mode `mode`), the rest of the
 * last 512-byte block skipped. */
static int unpack_file(gzFile gz, const char *path, unsigned long long size, int mode)
{
    int fd = open_for_writing(path, mode);
    if (fd < 0)
        return unpack_fail("cannot write %s: %s", path, strerror(errno));
    char buffer[1 << 16];
    unsigned long long left = (size + 511) / 512 * 512;
    int ok = 1;
    while (left && ok) {
        size_t n = left < sizeof buffer ? (size_t)left : sizeof buffer;
        if (!read_block(gz, buffer, n)) {
            ok = unpack_fail("the archive ends inside %s", path);
            break;
        }
        size_t useful = size < n ? (size_t)size : n;
        if (useful && !write_all(fd, buffer, useful))
            ok = unpack_fail("cannot write %s: %s", path, strerror(errno));
        size -= useful;
        left -= n;
    }
    if (close(fd) != 0 && ok)
        ok = unpack_fail("cannot write %s: %s", path, strerror(errno));
    return ok;
}

/* Unpack the gzip-compressed tar `archive` into the existing folder `target`. */
static int unpack_archive(const char *archive, const char *target)
{
    gzFile gz = open_archive(archive);
    if (!gz)
        return unpack_fail("cannot read %s: %s", archive, strerror(errno ? errno : EIO));
    gzbuffer(gz, 1 << 17);
    char block[512], *long_name = NULL;
    PaxRecord pax;
    memset(&pax, 0, sizeof pax);
    int ok = 1;
    for (;;) {
        if (!read_block(gz, block, sizeof block)) {
            ok = unpack_fail("%s is truncated or not a gzip-compressed tar archive", archive);
            break;
        }
        if (!block[0])
            break; /* the end-of-archive blocks */
        unsigned long long size = octal(block + 124, 12);
        char type = block[156];
        if (type == 'x' || type == 'L') {
            if (size > (1u << 20)) {
                ok = unpack_fail("%s has a header of %llu bytes", archive, size);
                break;
            }
            char *data = malloc((size + 511) / 512 * 512 + 1);
            if (!data || !read_block(gz, data, (size + 511) / 512 * 512)) {
                free(data);
                ok = unpack_fail("%s is truncated", archive);
                break;
            }
            data[size] = '\0';
            if (type == 'x')
                parse_pax(data, size, &pax), free(data);
            else
                free(long_name), long_name = data;
            continue;
        }
        char name[PATH_MAX];
        if (pax.path[0])
            snprintf(name, sizeof name, "%s", pax.path);
        else if (long_name)
            snprintf(name, sizeof name, "%s", long_name);
        else if (block[345]) /* ustar's prefix */
            snprintf(name, sizeof name, "%.155s/%.100s", block + 345, block);
        else
            snprintf(name, sizeof name, "%.100s", block);
        size_t name_n = strlen(name);
        while (name_n && name[name_n - 1] == '/')
            name[--name_n] = '\0';
        if (!safe_member(name)) {
            ok = unpack_fail("%s holds a member outside its folder (%s)", archive, name);
            break;
        }
        char path[PATH_MAX];
        if (snprintf(path, sizeof path, "%s/%s", target, name) >= (int)sizeof path) {
            ok = unpack_fail("the path %s/%s is too long", target, name);
            break;
        }
        int mode = (int)octal(block + 100, 8);
        char *slash = strrchr(path, '/');
        *slash = '\0';
        int parent = make_dirs(path);
        *slash = '/';
        if (!parent) {
            ok = unpack_fail("cannot make the folder of %s: %s", path, strerror(errno));
            break;
        }
        if (type == '5') {
            if (!make_dirs(path)) {
                ok = unpack_fail("cannot make the folder %s: %s", path, strerror(errno));
                break;
            }
#ifndef _WIN32
        } else if (type == '2') {
            char link[PATH_MAX];
            snprintf(link, sizeof link, "%s", pax.link[0] ? pax.link : "");
            if (!link[0])
                snprintf(link, sizeof link, "%.100s", block + 157);
            if (symlink(link, path) != 0 && errno != EEXIST) {
                ok = unpack_fail("cannot make the link %s: %s", path, strerror(errno));
                break;
            }
        } else if (type == '0' || type == '\0') {
            if (!unpack_file(gz, path, size, mode)) {
                ok = 0;
                break;
            }
            struct timespec times[2];
            times[0].tv_sec = times[1].tv_sec = pax.have_time ? pax.seconds : (time_t)octal(block + 136, 12);
            times[0].tv_nsec = times[1].tv_nsec = pax.have_time ? pax.nanoseconds : 0;
            utimensat(AT_FDCWD, path, times, 0);
#else
        } else if (type == '0' || type == '\0') { /* a runtime for Windows: no links, no kernels' times */
            if (!unpack_file(gz, path, size, mode)) {
                ok = 0;
                break;
            }
#endif
        } else {
            ok = unpack_fail("%s holds a member of a kind this reader does not unpack (%s, type %c)", archive, name,
                             type);
            break;
        }
        memset(&pax, 0, sizeof pax);
        free(long_name);
        long_name = NULL;
    }
    free(long_name);
    gzclose(gz);
    return ok;
}

/* The archive unpacked into the folder `final` (made whole or not at all):
 * unpacked beside it under a name of this process's and renamed; if another
 * process made `final` meanwhile, its copy is kept. */
static int unpack_once(const char *archive, const char *final)
{
    if (is_folder(final))
        return 1;
    char tmp[PATH_MAX];
    if (snprintf(tmp, sizeof tmp, "%s.unpacking-%ld", final, (long)getpid()) >= (int)sizeof tmp)
        return unpack_fail("the path %s is too long", final);
    remove_tree(tmp);
    if (!make_dirs(tmp))
        return unpack_fail("cannot make the folder %s: %s", tmp, strerror(errno));
    if (!unpack_archive(archive, tmp)) {
        remove_tree(tmp);
        return 0;
    }
    if (rename_folder(tmp, final) != 0) {
        int error = errno;
        remove_tree(tmp);
        if (!is_folder(final))
            return unpack_fail("cannot rename %s to %s: %s", tmp, final, strerror(error));
    }
    return 1;
}
