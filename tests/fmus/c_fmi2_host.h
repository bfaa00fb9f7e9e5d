/* What the plain C test hosts share (c_master.c, c_statuses.c,
 * c_windows_host.c): FMI 2.0's types, declared here so that a host needs
 * no FMI headers; a logger that writes each message to stderr; CHECK, which
 * ends the host with status 2 when a call returns more than fmi2Warning
 * (HOST names the host in its message). */
#ifndef CRANE_COSIM_TEST_FMI2_HOST_H
#define CRANE_COSIM_TEST_FMI2_HOST_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef void *fmi2Component;
typedef void *fmi2ComponentEnvironment;
typedef void *fmi2FMUstate;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Byte;
typedef const char *fmi2String;
typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;
typedef struct {
    void (*logger)(fmi2ComponentEnvironment, fmi2String, fmi2Status, fmi2String, fmi2String, ...);
    void *(*allocateMemory)(size_t, size_t);
    void (*freeMemory)(void *);
    void (*stepFinished)(fmi2ComponentEnvironment, fmi2Status);
    fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;

/* The FMU's messages, one a line on stderr, behind the instance, status and category. */
__attribute__((unused)) static void stderr_logger(fmi2ComponentEnvironment env, fmi2String instance, fmi2Status status,
                                                  fmi2String category, fmi2String message, ...)
{
    va_list ap;
    (void)env;
    fprintf(stderr, "[%s status %d %s] ", instance ? instance : "?", (int)status, category ? category : "");
    va_start(ap, message);
    vfprintf(stderr, message, ap);
    va_end(ap);
    fputc('\n', stderr);
}

#define CHECK(call)                                                                           \
    do {                                                                                      \
        fmi2Status s_ = (call);                                                               \
        if (s_ > fmi2Warning) {                                                               \
            fprintf(stderr, HOST ": %s returned status %d\n", #call, (int)s_);                 \
            exit(2);                                                                          \
        }                                                                                     \
    } while (0)

#endif
