/* Paths on Windows: the out-of-process FMU's C code keeps them in UTF-8
 * (as the FMU's resource URI gives them) and passes them to the wide
 * functions of Windows, so that a user folder named in any script works. */
#ifndef CRANE_COSIM_FMI2_WINDOWS_PATHS_H
#define CRANE_COSIM_FMI2_WINDOWS_PATHS_H

#include <stdlib.h>
#include <windows.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* `text` (UTF-8) as a wide string, allocated (NULL when out of memory). */
static wchar_t *widened(const char *text)
{
    int n = MultiByteToWideChar(CP_UTF8, 0, text, -1, NULL, 0);
    wchar_t *wide = n > 0 ? malloc((size_t)n * sizeof *wide) : NULL;
    if (wide)
        MultiByteToWideChar(CP_UTF8, 0, text, -1, wide, n);
    return wide;
}

/* `wide` as UTF-8 into text (n bytes); 0 when it does not fit. */
static int narrowed(const wchar_t *wide, char *text, size_t n)
{
    return WideCharToMultiByte(CP_UTF8, 0, wide, -1, text, (int)n, NULL, NULL) > 0;
}

/* Windows's message for the error `code`, one line, into text. */
static const char *windows_error(DWORD code, char *text, size_t n)
{
    wchar_t wide[512];
    DWORD k = FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, code, 0, wide,
                             sizeof wide / sizeof *wide, NULL);
    if (!k || !narrowed(wide, text, n))
        snprintf(text, n, "Windows error %lu", (unsigned long)code);
    for (char *c = text; *c; ++c)
        if (*c == '\r' || *c == '\n')
            *c = ' ';
    size_t len = strlen(text);
    while (len && (text[len - 1] == ' ' || text[len - 1] == '.'))
        text[--len] = '\0';
    return text;
}

#endif
