/* A minimal FMI 2.0 co-simulation host in plain C, for tests/fmus/test_c_host.py.
 *
 *   c_master UNZIPDIR MODEL_IDENTIFIER GUID STEPS STEP_SIZE SETS GETS
 *
 * SETS is "vr=value,vr=value" (Real parameters, set before initialization;
 * "" for none), GETS is "vr,vr,..." (Real outputs read after the last step).
 * It loads UNZIPDIR/binaries/linux64/MODEL_IDENTIFIER.so with dlopen, like
 * any C host (no libpython linked or preloaded), runs the FMU from t = 0 and
 * prints whether SIGINT still has the handler it had before, whether the library
 * is still loaded after dlclose, "outputs" and the values, one per line, to
 * stdout.  Every failure
 * prints one line to stderr and exits with status 2; the FMU's log messages
 * go to stderr.  The library is dlclosed at the end, as hosts do.
 *
 * With C_MASTER_PYTHON set, its value is run as Python code in the FMU's
 * interpreter after the instance is freed (through the Python C API that the
 * FMU made global), so a test can ask where that interpreter found itself. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOST "c_master"
#include "c_fmi2_host.h"

static void *sym(void *lib, const char *name)
{
    void *p = dlsym(lib, name);
    if (!p) {
        fprintf(stderr, "c_master: the FMU binary has no %s\n", name);
        exit(2);
    }
    return p;
}

int main(int argc, char **argv)
{
    if (argc != 8) {
        fprintf(stderr, "usage: c_master UNZIPDIR MODEL_IDENTIFIER GUID STEPS STEP_SIZE SETS GETS\n");
        return 2;
    }
    const char *dir = argv[1], *model = argv[2], *guid = argv[3];
    long steps = strtol(argv[4], NULL, 10);
    double h = strtod(argv[5], NULL);
    char path[4096], resources[4096 + 16];
    snprintf(path, sizeof path, "%s/binaries/linux64/%s.so", dir, model);
    snprintf(resources, sizeof resources, "file://%s/resources", dir);

    /* the host's own SIGINT handler (default, or ignored in a background
     * job of a shell), which the FMU must leave as it is */
    struct sigaction before;
    sigaction(SIGINT, NULL, &before);
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "c_master: cannot load %s: %s\n", path, dlerror());
        return 2;
    }
    fmi2Component (*instantiate)(fmi2String, fmi2Type, fmi2String, fmi2String, const fmi2CallbackFunctions *,
                                 fmi2Boolean, fmi2Boolean) = sym(lib, "fmi2Instantiate");
    fmi2Status (*setup)(fmi2Component, fmi2Boolean, fmi2Real, fmi2Real, fmi2Boolean, fmi2Real) =
        sym(lib, "fmi2SetupExperiment");
    fmi2Status (*enter)(fmi2Component) = sym(lib, "fmi2EnterInitializationMode");
    fmi2Status (*exit_init)(fmi2Component) = sym(lib, "fmi2ExitInitializationMode");
    fmi2Status (*set_real)(fmi2Component, const fmi2ValueReference *, size_t, const fmi2Real *) =
        sym(lib, "fmi2SetReal");
    fmi2Status (*get_real)(fmi2Component, const fmi2ValueReference *, size_t, fmi2Real *) =
        sym(lib, "fmi2GetReal");
    fmi2Status (*do_step)(fmi2Component, fmi2Real, fmi2Real, fmi2Boolean) = sym(lib, "fmi2DoStep");
    fmi2Status (*terminate)(fmi2Component) = sym(lib, "fmi2Terminate");
    void (*free_instance)(fmi2Component) = sym(lib, "fmi2FreeInstance");
    const char *(*version)(void) = sym(lib, "fmi2GetVersion");
    if (strcmp(version(), "2.0") != 0) {
        fprintf(stderr, "c_master: fmi2GetVersion returned %s\n", version());
        return 2;
    }

    fmi2CallbackFunctions callbacks = {stderr_logger, calloc, free, NULL, NULL};
    fmi2Component c = instantiate("c_master", fmi2CoSimulation, guid, resources, &callbacks, 0, 1);
    if (!c) {
        fprintf(stderr, "c_master: fmi2Instantiate failed\n");
        return 2;
    }
    CHECK(setup(c, 0, 0.0, 0.0, 0, 0.0));
    CHECK(enter(c));
    for (char *item = strtok(argv[6], ","); item; item = strtok(NULL, ",")) {
        fmi2ValueReference vr = (fmi2ValueReference)strtoul(item, NULL, 10);
        char *eq = strchr(item, '=');
        fmi2Real value = eq ? strtod(eq + 1, NULL) : 0.0;
        CHECK(set_real(c, &vr, 1, &value));
    }
    CHECK(exit_init(c));
    /* C_MASTER_DERIVATIVES="vr:order=value,...": input derivatives set once,
     * after initialization */
    const char *derivatives = getenv("C_MASTER_DERIVATIVES");
    if (derivatives) {
        fmi2Status (*set_derivatives)(fmi2Component, const fmi2ValueReference *, size_t, const fmi2Integer *,
                                      const fmi2Real *) = sym(lib, "fmi2SetRealInputDerivatives");
        char list[1024];
        snprintf(list, sizeof list, "%s", derivatives);
        for (char *item = strtok(list, ","); item; item = strtok(NULL, ",")) {
            char *end;
            fmi2ValueReference vr = (fmi2ValueReference)strtoul(item, &end, 10);
            fmi2Integer order = (fmi2Integer)strtol(end + 1, &end, 10);
            fmi2Real value = strtod(end + 1, NULL);
            CHECK(set_derivatives(c, &vr, 1, &order, &value));
        }
    }
    for (long k = 0; k < steps; ++k)
        CHECK(do_step(c, k * h, h, 1));

    fmi2ValueReference vrs[256];
    fmi2Real values[256];
    size_t n = 0;
    for (char *item = strtok(argv[7], ","); item && n < 256; item = strtok(NULL, ","))
        vrs[n++] = (fmi2ValueReference)strtoul(item, NULL, 10);
    CHECK(get_real(c, vrs, n, values));
    CHECK(terminate(c));
    free_instance(c);
    const char *code = getenv("C_MASTER_PYTHON");
    if (code) {
        int (*ensure)(void) = dlsym(RTLD_DEFAULT, "PyGILState_Ensure");
        void (*release)(int) = dlsym(RTLD_DEFAULT, "PyGILState_Release");
        int (*run)(const char *) = dlsym(RTLD_DEFAULT, "PyRun_SimpleString");
        if (!ensure || !release || !run) {
            fprintf(stderr, "c_master: the Python C API is not global\n");
            return 2;
        }
        int gil = ensure();
        int failed = run(code);
        release(gil);
        if (failed) {
            fprintf(stderr, "c_master: C_MASTER_PYTHON failed\n");
            return 2;
        }
    }
    dlclose(lib);
    struct sigaction sigint;
    sigaction(SIGINT, NULL, &sigint);
    printf("SIGINT handler: %s\n", sigint.sa_handler == before.sa_handler ? "unchanged" : "changed");
    /* hosts unload FMUs; a pinned library stays, and so does pythonfmu's
     * binary beside it when the FMU has one */
    printf("library after dlclose: %s\n", dlopen(path, RTLD_NOW | RTLD_NOLOAD) ? "loaded" : "unloaded");
    snprintf(path, sizeof path, "%s/binaries/linux64/libpythonfmu-export.so", dir);
    printf("pythonfmu's binary after dlclose: %s\n", dlopen(path, RTLD_NOW | RTLD_NOLOAD) ? "loaded" : "unloaded");
    printf("outputs\n");
    for (size_t i = 0; i < n; ++i)
        printf("%.17g\n", values[i]);
    /* written now: an FMU whose exit-time teardown aborts the process
     * (pythonfmu's binary alone, now and then) must not take the buffered
     * output with it */
    fflush(stdout);
    return 0;
}
