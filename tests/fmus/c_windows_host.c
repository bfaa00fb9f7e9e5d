/* A minimal FMI 2.0 co-simulation host for Windows in plain C, for
 * tests/fmus/test_windows.py: it runs a portable FMU's reference experiment
 * (FMI-LS-REF, fmus/ls_ref.py) with no Python anywhere in its process or on
 * its machine.
 *
 *   c_windows_host UNZIPDIR MODEL_IDENTIFIER GUID STEPS STEP_SIZE EVERY SETS GETS
 *
 * SETS is "vr=value,..." (Real values set in initialization mode, "" for
 * none), GETS is "vr,..." (the Real outputs).  It loads
 * UNZIPDIR\binaries\win64\MODEL_IDENTIFIER.dll, runs the FMU from t = 0 for
 * STEPS steps of STEP_SIZE and prints the time and the outputs after
 * initialization, after every EVERY-th step and after the last, a row a line, each value as
 * %.17g.  A call that fails prints one line to stderr and exits with status
 * 2; the FMU's log messages go to stderr, and so does the line
 * "c_windows_host: stepping" once it reads nothing more until the
 * EVERY-th step. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#define HOST "c_windows_host"
#include "c_fmi2_host.h"

static HMODULE lib;

static void *sym(const char *name)
{
    void *p = (void *)GetProcAddress(lib, name);
    if (!p) {
        fprintf(stderr, "c_windows_host: the FMU binary has no %s\n", name);
        exit(2);
    }
    return p;
}

int main(int argc, char **argv)
{
    if (argc != 9) {
        fprintf(stderr, "usage: c_windows_host UNZIPDIR MODEL_IDENTIFIER GUID STEPS STEP_SIZE EVERY SETS GETS\n");
        return 2;
    }
    const char *dir = argv[1], *model = argv[2], *guid = argv[3];
    long steps = strtol(argv[4], NULL, 10), every = strtol(argv[6], NULL, 10);
    double h = strtod(argv[5], NULL);
    char path[4096], resources[4096 + 16];
    snprintf(path, sizeof path, "%s\\binaries\\win64\\%s.dll", dir, model);
    snprintf(resources, sizeof resources, "file:///%s/resources", dir);
    for (char *c = resources; *c; ++c)
        if (*c == '\\')
            *c = '/';
    lib = LoadLibraryA(path);
    if (!lib) {
        fprintf(stderr, "c_windows_host: cannot load %s: error %lu\n", path, GetLastError());
        return 2;
    }
    fmi2Component (*instantiate)(fmi2String, fmi2Type, fmi2String, fmi2String, const fmi2CallbackFunctions *,
                                 fmi2Boolean, fmi2Boolean) = sym("fmi2Instantiate");
    fmi2Status (*setup)(fmi2Component, fmi2Boolean, fmi2Real, fmi2Real, fmi2Boolean, fmi2Real) =
        sym("fmi2SetupExperiment");
    fmi2Status (*enter)(fmi2Component) = sym("fmi2EnterInitializationMode");
    fmi2Status (*exit_init)(fmi2Component) = sym("fmi2ExitInitializationMode");
    fmi2Status (*set_real)(fmi2Component, const fmi2ValueReference *, size_t, const fmi2Real *) = sym("fmi2SetReal");
    fmi2Status (*get_real)(fmi2Component, const fmi2ValueReference *, size_t, fmi2Real *) = sym("fmi2GetReal");
    fmi2Status (*do_step)(fmi2Component, fmi2Real, fmi2Real, fmi2Boolean) = sym("fmi2DoStep");
    fmi2Status (*terminate)(fmi2Component) = sym("fmi2Terminate");
    void (*free_instance)(fmi2Component) = sym("fmi2FreeInstance");

    fmi2CallbackFunctions callbacks = {stderr_logger, calloc, free, NULL, NULL};
    fmi2Component c = instantiate("c_windows_host", fmi2CoSimulation, guid, resources, &callbacks, 0, 0);
    if (!c) {
        fprintf(stderr, "c_windows_host: fmi2Instantiate failed\n");
        return 2;
    }
    CHECK(setup(c, 0, 0.0, 0.0, 0, 0.0));
    CHECK(enter(c));
    for (char *item = strtok(argv[7], ","); item; item = strtok(NULL, ",")) {
        fmi2ValueReference vr = (fmi2ValueReference)strtoul(item, NULL, 10);
        char *eq = strchr(item, '=');
        fmi2Real value = eq ? strtod(eq + 1, NULL) : 0.0;
        CHECK(set_real(c, &vr, 1, &value));
    }
    CHECK(exit_init(c));
    fmi2ValueReference vrs[256];
    fmi2Real values[256];
    size_t n = 0;
    for (char *item = strtok(argv[8], ","); item && n < 256; item = strtok(NULL, ","))
        vrs[n++] = (fmi2ValueReference)strtoul(item, NULL, 10);
    for (long k = 0; k <= steps; ++k) {
        if (k > 0)
            CHECK(do_step(c, (k - 1) * h, h, 1));
        if (k % every == 0 || k == steps) {
            CHECK(get_real(c, vrs, n, values));
            printf("%.17g", k * h);
            for (size_t i = 0; i < n; ++i)
                printf(" %.17g", values[i]);
            printf("\n");
        }
        if (k == 0) {
            fprintf(stderr, "c_windows_host: stepping\n");
            fflush(stderr);
        }
    }
    CHECK(terminate(c));
    free_instance(c);
    FreeLibrary(lib);
    fflush(stdout);
    return 0;
}
