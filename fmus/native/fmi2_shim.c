/* crane-cosim's FMI 2.0 co-simulation binary for Linux: a shim in front of
 * pythonfmu's binary.
 *
 * `crane-cosim build-fmus` compiles this file (fmus/native.py) and puts it in
 * each FMU as binaries/linux64/<modelIdentifier>.so; pythonfmu's own binary
 * goes beside it as binaries/linux64/libpythonfmu-export.so.  The fmi2*
 * functions call pythonfmu's binary to run the FMU's Python side.  The shim
 * adds what that binary lacks (docs/fmus.md, "Running the FMUs in a C host"
 * and "What a call returns"):
 *
 *  1. pythonfmu's binary leaves every Py* symbol undefined and has no
 *     DT_NEEDED on libpython, so it loads only where the Python C API is
 *     already global: in a Python host.  Elsewhere the shim loads the
 *     libpython recorded at build time with RTLD_GLOBAL first.
 *  2. In a C host the shim starts Python itself, configured to find the
 *     environment that built the FMU (its site-packages: numpy, scipy,
 *     numba), and releases the GIL; pythonfmu then sees a running
 *     interpreter and takes the GIL around each call from any thread, as in
 *     a Python host.  pythonfmu's own start-up would instead guess the
 *     installation from the host's PATH and finalize Python from a C++
 *     static destructor at exit.
 *  3. At exit pythonfmu's binary destroys its global
 *     std::shared_ptr<PyState> (a C++ static destructor) and then, from its
 *     __attribute__((destructor)), assigns to that destroyed pointer again
 *     (finalizePythonInterpreter), a write into freed heap memory that
 *     aborts the process now and then.  The shim calls
 *     finalizePythonInterpreter from a C atexit handler registered after the
 *     binary is loaded, so it runs first (exit handlers run in reverse order
 *     of registration), while the pointer is valid; both later calls find it
 *     null.  Both libraries are pinned in memory (RTLD_NODELETE), so a
 *     host's dlclose never runs that teardown before exit.
 *  4. pythonfmu's binary refuses fmi2SetRealInputDerivatives.  The shim
 *     takes it (the FMUs declare canInterpolateInputs) and passes the
 *     derivatives on as one fmi2SetReal of the value references
 *     order * CRANE_COSIM_DERIVATIVE_VR + vr, which only the FMU's Python
 *     side reads (fmus/values.py, DERIVATIVE_VR).
 *  5. pythonfmu's binary returns a status that depends on whether the host
 *     switched logging on, and checks no calling sequence.  The shim's
 *     functions that take an instance (fmi2_instance.h, fmi2_calls.h and
 *     fmi2_saved.h, included at the end) return one status for one
 *     situation, following FMI 2.0's state machine, and pass every error to
 *     the host's logger.
 *  6. pythonfmu's binary builds Python lists of the value references and
 *     values in every fmi2GetReal and fmi2SetReal.  The shim reads the
 *     outputs and writes the inputs of a stepping instance through the
 *     buffer protocol instead (fmi2_fast.h).
 *
 * The Python C API is reached through dlsym only (Python.h is included for
 * the types): the shim has no undefined Python symbol, so a host that loads
 * it with RTLD_NOW gets as far as the constructor, and a failure is reported
 * in one sentence through the FMU logger of fmi2Instantiate.
 *
 * Compiled with -D definitions made at build time (fmus/native.py):
 *   CRANE_COSIM_LIBPYTHON         path of libpython3.X.so of the building Python
 *   CRANE_COSIM_LIBPYTHON_SONAME  its soname, searched the usual way if the path is gone
 *   CRANE_COSIM_PYTHON            sys.executable of the building Python (a venv's
 *                                 bin/python finds that venv); the environment
 *                                 variable CRANE_COSIM_PYTHON overrides it
 *   CRANE_COSIM_DERIVATIVE_VR     the value reference offset of an input derivative
 *                                 of order 1 (item 4)
 */
#define _GNU_SOURCE
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <dlfcn.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if !defined(CRANE_COSIM_LIBPYTHON) || !defined(CRANE_COSIM_LIBPYTHON_SONAME) || !defined(CRANE_COSIM_PYTHON) \
    || !defined(CRANE_COSIM_DERIVATIVE_VR)
#error "compile with -DCRANE_COSIM_LIBPYTHON=... -DCRANE_COSIM_LIBPYTHON_SONAME=... -DCRANE_COSIM_PYTHON=... -DCRANE_COSIM_DERIVATIVE_VR=... (fmus/native.py)"
#endif

#define EXPORT __attribute__((visibility("default")))
#define PYTHONFMU_BINARY "libpythonfmu-export.so"

#include "fmi2_types.h"

/* Marker the FMU's Python adapter looks for: with this shim it need not
 * reset pythonfmu's state pointer itself (fmus/adapter.py). */
EXPORT const char crane_cosim_fmi2_shim[] = "crane-cosim FMI 2.0 shim 1";

/* pointers into pythonfmu's binary */
#define DECLARE_POINTER(name, params, args) static fmi2Status (*p_##name) params;
FMI2_STATUS_FUNCTIONS(DECLARE_POINTER)
static const char *(*p_fmi2GetTypesPlatform)(void);
static const char *(*p_fmi2GetVersion)(void);
static fmi2Component (*p_fmi2Instantiate)(fmi2String, fmi2Type, fmi2String, fmi2String,
                                          const fmi2CallbackFunctions *, fmi2Boolean, fmi2Boolean);
static void (*p_fmi2FreeInstance)(fmi2Component);
static void (*p_finalizePythonInterpreter)(void);

/* Python C API, through dlsym (see above) */
#define PYTHON_FUNCTIONS(X)                                                                                        \
    X(Py_IsInitialized) X(PyPreConfig_InitPythonConfig) X(Py_PreInitialize) X(PyConfig_InitPythonConfig)          \
    X(PyConfig_SetBytesString) X(Py_InitializeFromConfig) X(PyConfig_Clear) X(PyStatus_Exception)                 \
    X(PyEval_SaveThread) X(PyImport_ImportModule) X(Py_DecRef) X(PyErr_Clear)                                    \
    X(PyGILState_Ensure) X(PyGILState_Release) X(PyObject_GetAttrString) X(PyObject_CallNoArgs) X(Py_IncRef)      \
    X(PyObject_GetBuffer) X(PyBuffer_Release) X(PyTuple_Size) X(PyTuple_GetItem) X(PyLong_AsLong)
#define DECLARE_PY(name) static __typeof__(&name) py_##name;
PYTHON_FUNCTIONS(DECLARE_PY)

/* The FMU's modelIdentifier (this file's name without ".so"), for messages. */
static char model_name[256] = "crane-cosim FMU";

/* Why the set-up failed, in one sentence; empty when it succeeded.  The
 * constructor cannot report it (no logger yet): fmi2Instantiate does. */
static char setup_error[4096];

static void fail(const char *fmt, ...)
{
    if (setup_error[0])
        return; /* keep the first cause */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(setup_error, sizeof setup_error, fmt, ap);
    va_end(ap);
}

/* Make the Python C API global (item 1 above).  In a Python host it already
 * is: the python executable exports it, or loaded libpython as a dependency. */
static int load_libpython(void)
{
    if (dlsym(RTLD_DEFAULT, "Py_IsInitialized"))
        return 1;
    char first[1024];
    /* RTLD_NODELETE: Python is never unloaded while extension modules run */
    if (dlopen(CRANE_COSIM_LIBPYTHON, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE))
        return 1;
    snprintf(first, sizeof first, "%s", dlerror());
    if (dlopen(CRANE_COSIM_LIBPYTHON_SONAME, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE))
        return 1;
    fail("crane-cosim FMU: cannot load the Python library: %s (recorded when the FMU was built); and %s; "
         "install that Python or add the folder holding " CRANE_COSIM_LIBPYTHON_SONAME " to LD_LIBRARY_PATH",
         first, dlerror());
    return 0;
}

static int resolve_python(void)
{
#define RESOLVE_PY(name)                                                                                           \
    if (!(py_##name = (__typeof__(&name))dlsym(RTLD_DEFAULT, #name))) {                                            \
        fail("crane-cosim FMU: the loaded Python library has no %s (the FMU needs Python %d.%d)", #name,           \
             PY_MAJOR_VERSION, PY_MINOR_VERSION);                                                                  \
        return 0;                                                                                                  \
    }
    PYTHON_FUNCTIONS(RESOLVE_PY)
    return 1;
}

static int check(PyStatus status, const char *what)
{
    if (!py_PyStatus_Exception(status))
        return 1;
    fail("crane-cosim FMU: Python could not start (%s: %s%s%s)", what, status.func ? status.func : "",
         status.func ? ": " : "", status.err_msg ? status.err_msg : "exit requested");
    return 0;
}

/* Start Python in a C host (item 2 above). */
static int start_python(void)
{
    /* The host's locale is the host's: Python does not call setlocale, and
     * reads and writes UTF-8 whatever the locale (as `python -X utf8`). */
    PyPreConfig pre;
    py_PyPreConfig_InitPythonConfig(&pre);
    pre.configure_locale = 0;
    pre.utf8_mode = 1;
    if (!check(py_Py_PreInitialize(&pre), "pre-initialization"))
        return 0;

    PyConfig config;
    py_PyConfig_InitPythonConfig(&config); /* PYTHONPATH, PYTHONHOME, ... still apply */
    config.parse_argv = 0;
    config.install_signal_handlers = 0; /* the host owns its signals (see also below) */
    /* Python is never finalized in a C host (see at_exit): unbuffered
     * sys.stdout and sys.stderr lose nothing when the process ends. */
    config.buffered_stdio = 0;
    /* Python finds its installation and a venv's pyvenv.cfg from the path
     * of its executable: the building interpreter's, so the FMU sees the
     * packages it was built with. */
    const char *python = getenv("CRANE_COSIM_PYTHON");
    if (python && *python) {
        if (access(python, X_OK) != 0) {
            fail("crane-cosim FMU: CRANE_COSIM_PYTHON=%s is not an executable file", python);
            py_PyConfig_Clear(&config);
            return 0;
        }
    } else if (access(CRANE_COSIM_PYTHON, X_OK) == 0) {
        python = CRANE_COSIM_PYTHON;
    } else {
        python = NULL; /* gone: Python looks for its installation as any embedded
                          Python does (python3 on PATH, then its built-in prefix) */
    }
    struct sigaction host_sigint;
    sigaction(SIGINT, NULL, &host_sigint);
    int ok = 1;
    if (python)
        ok = check(py_PyConfig_SetBytesString(&config, &config.executable, python), "executable") &&
             check(py_PyConfig_SetBytesString(&config, &config.program_name, python), "program name");
    ok = ok && check(py_Py_InitializeFromConfig(&config), "initialization");
    py_PyConfig_Clear(&config);
    if (!ok)
        return 0;
    /* Importing Python's signal module (subprocess and many others do)
     * puts Python's own SIGINT handler where the host had the default one;
     * Ctrl-C would then only set a flag for Python code that never runs on
     * the host's main thread.  Import it now and give the host its handler
     * back: later imports find the module loaded and change nothing. */
    PyObject *signal_module = py_PyImport_ImportModule("signal");
    if (signal_module)
        py_Py_DecRef(signal_module);
    else
        py_PyErr_Clear();
    sigaction(SIGINT, &host_sigint, NULL);
    /* Release the GIL: pythonfmu takes it with PyGILState_Ensure in every
     * call, from whichever thread the host calls. */
    py_PyEval_SaveThread();
    return 1;
}

static int load_pythonfmu(void)
{
    Dl_info self;
    char path[PATH_MAX], folder[PATH_MAX];
    if (!dladdr((void *)&crane_cosim_fmi2_shim, &self) || !self.dli_fname || !realpath(self.dli_fname, path)) {
        fail("crane-cosim FMU: the FMU binary cannot find its own file");
        return 0;
    }
    /* Pin the shim too: its atexit handler must stay in place until exit
     * (glibc runs a library's atexit handlers when it is unloaded). */
    dlopen(path, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    snprintf(folder, sizeof folder, "%s", path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t length = strlen(base) < sizeof model_name ? strlen(base) : sizeof model_name - 1;
    memcpy(model_name, base, length);
    model_name[length] = '\0';
    char *dot = strrchr(model_name, '.');
    if (dot)
        *dot = '\0';
    char *slash = strrchr(folder, '/');
    if (slash)
        *slash = '\0';
    if ((size_t)snprintf(path, sizeof path, "%s/" PYTHONFMU_BINARY, folder) >= sizeof path) {
        fail("crane-cosim FMU: the FMU's folder path %s is too long", folder);
        return 0;
    }
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!lib) {
        fail("crane-cosim FMU: cannot load pythonfmu's binary %s: %s", path, dlerror());
        return 0;
    }
#define RESOLVE(name, params, args)                                                                                \
    if (!(*(void **)&p_##name = dlsym(lib, #name))) {                                                              \
        fail("crane-cosim FMU: pythonfmu's binary %s has no %s", path, #name);                                     \
        return 0;                                                                                                  \
    }
    FMI2_STATUS_FUNCTIONS(RESOLVE)
    RESOLVE(fmi2GetTypesPlatform, , )
    RESOLVE(fmi2GetVersion, , )
    RESOLVE(fmi2Instantiate, , )
    RESOLVE(fmi2FreeInstance, , )
    RESOLVE(finalizePythonInterpreter, , )
    return 1;
}

/* Item 3 above.  Python itself is not finalized in a C host: finalization
 * would run Python code (atexit functions, module teardown, thread joins,
 * numpy's and numba's cleanup) inside the host's exit, while host threads
 * may still run or hold the GIL, and after the host may have torn down what
 * that code uses; the process ends anyway and the OS frees its memory.  In a
 * Python host the interpreter is finalized before this runs, and the state
 * object reset here holds no Python object. */
static void at_exit(void)
{
    p_finalizePythonInterpreter();
}

__attribute__((constructor)) static void shim_load(void)
{
    /* Runs inside dlopen, under the dynamic loader's lock: two FMUs loaded
     * by two host threads cannot both start Python. */
    if (!load_libpython() || !resolve_python())
        return;
    if (!py_Py_IsInitialized() && !start_python())
        return;
    if (!load_pythonfmu())
        return;
    /* after the binary was loaded, so that it runs before the binary's own
     * exit-time destructor */
    atexit(at_exit);
}

static void report(const fmi2CallbackFunctions *functions, fmi2String instanceName)
{
    /* The message is a printf format for the host's logger: escape '%'. */
    char message[2 * sizeof setup_error];
    size_t j = 0;
    for (size_t i = 0; setup_error[i] && j + 2 < sizeof message; ++i) {
        if (setup_error[i] == '%')
            message[j++] = '%';
        message[j++] = setup_error[i];
    }
    message[j] = '\0';
    if (functions && functions->logger)
        functions->logger(functions->componentEnvironment, instanceName, fmi2Fatal, "logStatusFatal", message);
    else
        fprintf(stderr, "%s\n", setup_error);
}

EXPORT const char *fmi2GetTypesPlatform(void)
{
    return p_fmi2GetTypesPlatform ? p_fmi2GetTypesPlatform() : "default";
}

EXPORT const char *fmi2GetVersion(void)
{
    return p_fmi2GetVersion ? p_fmi2GetVersion() : "2.0";
}

/* The FMI 2.0 functions that take an instance, with the status rules and
 * the calling sequence (item 5 above). */
#include "fmi2_instance.h"
#include "fmi2_fast.h"
#include "fmi2_calls.h"
#include "fmi2_saved.h"
