/* A plain C host that drives an FMU through scripts of FMI 2.0 calls, for
 * tests/fmus/test_statuses.py, and prints the status of every call.
 *
 *   c_statuses UNZIPDIR MODEL_IDENTIFIER GUID LOGGING_ON SCRIPT_FILE
 *
 * It loads UNZIPDIR/binaries/linux64/MODEL_IDENTIFIER.so with dlopen (no
 * libpython linked or preloaded) and makes one instance, with fmi2Instantiate's
 * loggingOn = LOGGING_ON (0 or 1).  Each line of SCRIPT_FILE is a scenario:
 * calls separated by ';', each a word and its arguments (tests/fmus/
 * status_script.py runs the same scripts with fmpy and lists the words).
 * For each call it prints "S <status>", before it every message the FMU
 * logged during the call as "L <status> <message>", and "E" at the end of a
 * scenario; then it frees the instance and exits 0.  A script it cannot read
 * stops it with status 2. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOST "c_statuses"
#include "c_fmi2_host.h"

static void logger(void *env, fmi2String instance, fmi2Status status, fmi2String category, fmi2String message, ...)
{
    (void)env, (void)instance, (void)category;
    char text[8192];
    va_list ap;
    va_start(ap, message);
    vsnprintf(text, sizeof text, message, ap);
    va_end(ap);
    for (char *p = text; *p; ++p)
        if (*p == '\n')
            *p = ' '; /* one line per message */
    printf("L %d %s\n", (int)status, text);
}

static void *lib;
static void *sym(const char *name)
{
    void *p = dlsym(lib, name);
    if (!p) {
        fprintf(stderr, "c_statuses: the FMU binary has no %s\n", name);
        exit(2);
    }
    return p;
}

#define F(name, ...) ((fmi2Status(*)(__VA_ARGS__))sym(#name))

static fmi2Component c;
static fmi2FMUstate saved;

static unsigned vr_arg(char *word)
{
    if (!word) {
        fprintf(stderr, "c_statuses: a value reference is missing\n");
        exit(2);
    }
    return (unsigned)strtoul(word, NULL, 10);
}

static double real_arg(char *word)
{
    if (!word) {
        fprintf(stderr, "c_statuses: a number is missing\n");
        exit(2);
    }
    return strtod(word, NULL);
}

static fmi2Status roundtrip(void)
{
    size_t size = 0;
    fmi2Status s = F(fmi2SerializedFMUstateSize, fmi2Component, fmi2FMUstate, size_t *)(c, saved, &size);
    if (s > fmi2Warning)
        return s;
    fmi2Byte *bytes = malloc(size ? size : 1);
    s = F(fmi2SerializeFMUstate, fmi2Component, fmi2FMUstate, fmi2Byte *, size_t)(c, saved, bytes, size);
    fmi2FMUstate copy = NULL;
    if (s <= fmi2Warning)
        s = F(fmi2DeSerializeFMUstate, fmi2Component, const fmi2Byte *, size_t, fmi2FMUstate *)(c, bytes, size, &copy);
    free(bytes);
    if (s <= fmi2Warning)
        s = F(fmi2SetFMUstate, fmi2Component, fmi2FMUstate)(c, copy);
    if (copy) {
        fmi2Status f = F(fmi2FreeFMUstate, fmi2Component, fmi2FMUstate *)(c, &copy);
        s = f > s ? f : s;
    }
    return s;
}

static fmi2Status call(char *word, char *a, char *b, char *d, const char *dir, const char *guid,
                       const fmi2CallbackFunctions *callbacks)
{
    if (!strcmp(word, "reset"))
        return F(fmi2Reset, fmi2Component)(c);
    if (!strcmp(word, "setup"))
        return F(fmi2SetupExperiment, fmi2Component, fmi2Boolean, fmi2Real, fmi2Real, fmi2Boolean, fmi2Real)(
            c, 0, 0.0, real_arg(a), b != NULL, b ? real_arg(b) : 0.0);
    if (!strcmp(word, "enter"))
        return F(fmi2EnterInitializationMode, fmi2Component)(c);
    if (!strcmp(word, "exit"))
        return F(fmi2ExitInitializationMode, fmi2Component)(c);
    if (!strcmp(word, "term"))
        return F(fmi2Terminate, fmi2Component)(c);
    if (!strcmp(word, "step"))
        return F(fmi2DoStep, fmi2Component, fmi2Real, fmi2Real, fmi2Boolean)(c, real_arg(a), real_arg(b), 0);
    if (!strcmp(word, "cancel"))
        return F(fmi2CancelStep, fmi2Component)(c);
    fmi2ValueReference vr = 0;
    if (!strncmp(word, "get", 3) || !strncmp(word, "set", 3) || !strcmp(word, "ders") || !strcmp(word, "dirder")
        || !strcmp(word, "outder"))
        vr = vr_arg(a);
    if (!strcmp(word, "getr")) {
        fmi2Real v;
        return F(fmi2GetReal, fmi2Component, const fmi2ValueReference *, size_t, fmi2Real *)(c, &vr, 1, &v);
    }
    if (!strcmp(word, "geti")) {
        fmi2Integer v;
        return F(fmi2GetInteger, fmi2Component, const fmi2ValueReference *, size_t, fmi2Integer *)(c, &vr, 1, &v);
    }
    if (!strcmp(word, "getb")) {
        fmi2Boolean v;
        return F(fmi2GetBoolean, fmi2Component, const fmi2ValueReference *, size_t, fmi2Boolean *)(c, &vr, 1, &v);
    }
    if (!strcmp(word, "gets")) {
        fmi2String v;
        return F(fmi2GetString, fmi2Component, const fmi2ValueReference *, size_t, fmi2String *)(c, &vr, 1, &v);
    }
    if (!strcmp(word, "setr")) {
        fmi2Real v = real_arg(b);
        return F(fmi2SetReal, fmi2Component, const fmi2ValueReference *, size_t, const fmi2Real *)(c, &vr, 1, &v);
    }
    if (!strcmp(word, "seti")) {
        fmi2Integer v = (fmi2Integer)real_arg(b);
        return F(fmi2SetInteger, fmi2Component, const fmi2ValueReference *, size_t, const fmi2Integer *)(c, &vr, 1,
                                                                                                        &v);
    }
    if (!strcmp(word, "setb")) {
        fmi2Boolean v = (fmi2Boolean)real_arg(b);
        return F(fmi2SetBoolean, fmi2Component, const fmi2ValueReference *, size_t, const fmi2Boolean *)(c, &vr, 1,
                                                                                                        &v);
    }
    if (!strcmp(word, "sets")) {
        fmi2String v = b && strcmp(b, "NULL") ? b : NULL;
        return F(fmi2SetString, fmi2Component, const fmi2ValueReference *, size_t, const fmi2String *)(c, &vr, 1,
                                                                                                      &v);
    }
    if (!strcmp(word, "ders")) {
        fmi2Integer order = (fmi2Integer)real_arg(b);
        fmi2Real v = real_arg(d);
        return F(fmi2SetRealInputDerivatives, fmi2Component, const fmi2ValueReference *, size_t,
                 const fmi2Integer *, const fmi2Real *)(c, &vr, 1, &order, &v);
    }
    if (!strcmp(word, "dirder")) {
        fmi2Real dk = 1.0, du = 0.0;
        return F(fmi2GetDirectionalDerivative, fmi2Component, const fmi2ValueReference *, size_t,
                 const fmi2ValueReference *, size_t, const fmi2Real *, fmi2Real *)(c, &vr, 1, &vr, 1, &dk, &du);
    }
    if (!strcmp(word, "outder")) {
        fmi2Integer order = 1;
        fmi2Real v;
        return F(fmi2GetRealOutputDerivatives, fmi2Component, const fmi2ValueReference *, size_t,
                 const fmi2Integer *, fmi2Real *)(c, &vr, 1, &order, &v);
    }
    if (!strcmp(word, "save"))
        return F(fmi2GetFMUstate, fmi2Component, fmi2FMUstate *)(c, &saved);
    if (!strcmp(word, "restore"))
        return F(fmi2SetFMUstate, fmi2Component, fmi2FMUstate)(c, saved);
    if (!strcmp(word, "freestate"))
        return F(fmi2FreeFMUstate, fmi2Component, fmi2FMUstate *)(c, &saved);
    if (!strcmp(word, "roundtrip"))
        return roundtrip();
    if (!strcmp(word, "garbage")) {
        fmi2Byte bytes[64];
        memset(bytes, 'x', sizeof bytes);
        fmi2FMUstate state = NULL;
        return F(fmi2DeSerializeFMUstate, fmi2Component, const fmi2Byte *, size_t, fmi2FMUstate *)(
            c, bytes, sizeof bytes, &state);
    }
    if (!strcmp(word, "debug")) {
        fmi2String category = b;
        return F(fmi2SetDebugLogging, fmi2Component, fmi2Boolean, size_t, const fmi2String *)(
            c, a && !strcmp(a, "on"), category ? 1 : 0, &category);
    }
    if (!strcmp(word, "rstatus") || !strcmp(word, "bstatus") || !strcmp(word, "istatus")
        || !strcmp(word, "sstatus") || !strcmp(word, "status")) {
        int kind = (int)real_arg(a);
        union {
            fmi2Real r;
            fmi2Integer i;
            fmi2Boolean b;
            fmi2String s;
            fmi2Status st;
        } v;
        const char *name = word[0] == 'r'   ? "fmi2GetRealStatus"
                           : word[0] == 'b' ? "fmi2GetBooleanStatus"
                           : word[0] == 'i' ? "fmi2GetIntegerStatus"
                           : word[1] == 's' ? "fmi2GetStringStatus"
                                            : "fmi2GetStatus";
        return ((fmi2Status(*)(fmi2Component, int, void *))sym(name))(c, kind, &v);
    }
    if (!strcmp(word, "instantiate_me")) {
        char resources[4200];
        snprintf(resources, sizeof resources, "file://%s/resources", dir);
        fmi2Component me = ((fmi2Component(*)(fmi2String, fmi2Type, fmi2String, fmi2String,
                                              const fmi2CallbackFunctions *, fmi2Boolean,
                                              fmi2Boolean))sym("fmi2Instantiate"))("me", fmi2ModelExchange, guid,
                                                                                     resources, callbacks, 0, 0);
        if (me)
            ((void (*)(fmi2Component))sym("fmi2FreeInstance"))(me);
        return me ? fmi2OK : fmi2Error;
    }
    fprintf(stderr, "c_statuses: unknown call %s\n", word);
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: c_statuses UNZIPDIR MODEL_IDENTIFIER GUID LOGGING_ON SCRIPT_FILE\n");
        return 2;
    }
    const char *dir = argv[1], *model = argv[2], *guid = argv[3];
    char path[4096], resources[4200];
    snprintf(path, sizeof path, "%s/binaries/linux64/%s.so", dir, model);
    snprintf(resources, sizeof resources, "file://%s/resources", dir);
    lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "c_statuses: cannot load %s: %s\n", path, dlerror());
        return 2;
    }
    FILE *script = fopen(argv[5], "r");
    if (!script) {
        fprintf(stderr, "c_statuses: cannot read %s\n", argv[5]);
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    fmi2CallbackFunctions callbacks = {logger, calloc, free, NULL, NULL};
    c = ((fmi2Component(*)(fmi2String, fmi2Type, fmi2String, fmi2String, const fmi2CallbackFunctions *, fmi2Boolean,
                           fmi2Boolean))sym("fmi2Instantiate"))("c_statuses", fmi2CoSimulation, guid, resources,
                                                                &callbacks, 0, atoi(argv[4]));
    if (!c) {
        fprintf(stderr, "c_statuses: fmi2Instantiate failed\n");
        return 2;
    }
    char line[8192];
    while (fgets(line, sizeof line, script)) {
        line[strcspn(line, "\n")] = '\0';
        char *rest = line, *op;
        while ((op = strsep(&rest, ";"))) {
            char *save = NULL;
            char *word = strtok_r(op, " ", &save);
            if (!word)
                continue;
            char *a = strtok_r(NULL, " ", &save), *b = strtok_r(NULL, " ", &save), *d = strtok_r(NULL, " ", &save);
            printf("S %d\n", (int)call(word, a, b, d, dir, guid, &callbacks));
        }
        printf("E\n");
    }
    fclose(script);
    if (saved)
        F(fmi2FreeFMUstate, fmi2Component, fmi2FMUstate *)(c, &saved);
    ((void (*)(fmi2Component))sym("fmi2FreeInstance"))(c);
    dlclose(lib);
    fflush(stdout);
    return 0;
}
