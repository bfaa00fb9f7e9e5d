/* crane-cosim's FMI 2.0 co-simulation binary for Linux: the instance, its
 * state, its logging and the status rules (item 5 of fmi2_shim.c).  Included
 * at the end of fmi2_shim.c with fmi2_calls.h and fmi2_saved.h: the four make
 * one translation unit (fmus/native.py compiles fmi2_shim.c alone).
 *
 * The status of every call follows one rule, whatever the host's logging
 * (docs/fmus.md, "What a call returns", has the table):
 *
 *  - pythonfmu's binary passes the Python side's log messages to the logger
 *    only while its debug logging is on, and returns fmi2OK from a call
 *    whose Python side logged an error without raising (ours never raise:
 *    fmus/values.py).  So its instance is made with logging always on and
 *    the shim's own logger in front: a call during which the Python side
 *    logged an error returns fmi2Error, and that message reaches the host's
 *    logger whatever loggingOn says (FMI 2.0 section 2.1.3: with fmi2Error
 *    the logger "has shown the prepared information message to the user");
 *    messages of a lower status reach it only in the categories the host
 *    switched on (fmi2Instantiate's loggingOn, fmi2SetDebugLogging).
 *  - The calling sequence is FMI 2.0's state machine (section 4.2.4): a
 *    call its table does not allow in the instance's state is refused with
 *    fmi2Error and a message saying what to do.  After any fmi2Error the
 *    instance is in the error state, where FMI allows only reading values
 *    (for diagnosis), the FMU state functions, fmi2Reset and
 *    fmi2FreeInstance: a host that reads no status cannot step on.
 *  - fmi2DoStep refuses a step size that is not a positive finite number, a
 *    communication point that is not the FMU's time (FMI 2.0 section 4.2.2)
 *    and a step past the stop time of fmi2SetupExperiment (section 2.1.6).
 *    A step that fails is fmi2Error (pythonfmu says fmi2Discard, which FMI
 *    keeps for a step done in part); fmi2Discard comes only from the status
 *    inquiries the FMU cannot answer (section 4.2.3).
 *
 * The states stepInProgress, stepFailed and stepCanceled never occur: no
 * step is asynchronous (fmi2Pending) or done in part (fmi2Discard).  The FMU
 * state the host gets is the shim's: pythonfmu's, with the instance's state
 * and time, so that fmi2SetFMUstate restores those too (serialized behind a
 * header of the shim's).
 */
#include <math.h> /* isfinite only, a macro: the binary needs no libm */
#include <stdint.h>

enum {
    INSTANTIATED = 1 << 0,
    INITIALIZATION_MODE = 1 << 1,
    STEP_COMPLETE = 1 << 2,
    TERMINATED = 1 << 3,
    ERROR_STATE = 1 << 4,
    FATAL_STATE = 1 << 5,
};
/* the columns of FMI 2.0's table that a function's row marks */
#define ANY_BUT_FATAL (INSTANTIATED | INITIALIZATION_MODE | STEP_COMPLETE | TERMINATED | ERROR_STATE)
#define READABLE (INITIALIZATION_MODE | STEP_COMPLETE | TERMINATED | ERROR_STATE)
#define WRITABLE (INSTANTIATED | INITIALIZATION_MODE | STEP_COMPLETE)
#define STATUS_READABLE (STEP_COMPLETE | TERMINATED)

static const char *state_name(int state)
{
    switch (state) {
    case INSTANTIATED: return "instantiated";
    case INITIALIZATION_MODE: return "Initialization Mode";
    case STEP_COMPLETE: return "stepComplete";
    case TERMINATED: return "terminated";
    case ERROR_STATE: return "error";
    default: return "fatal";
    }
}

/* what the host can do about a call refused in that state */
static const char *state_hint(int state)
{
    switch (state) {
    case INSTANTIATED:
        return "; initialize the instance first (fmi2SetupExperiment, fmi2EnterInitializationMode, "
               "fmi2ExitInitializationMode)";
    case INITIALIZATION_MODE: return "; leave Initialization Mode first (fmi2ExitInitializationMode)";
    case TERMINATED: return "; the run was terminated (fmi2Terminate): fmi2Reset the instance to run again";
    case ERROR_STATE:
        return "; an earlier call returned fmi2Error: fmi2Reset the instance, or restore a state saved before "
               "with fmi2SetFMUstate";
    case FATAL_STATE: return "; an earlier call returned fmi2Fatal: free the instance";
    default: return "";
    }
}

/* The log categories of the modelDescription (pythonfmu's Fmi2Slave.log_categories). */
static const char *const CATEGORIES[] = {"logStatusWarning", "logStatusDiscard", "logStatusError",
                                         "logStatusFatal", "logAll"};
#define N_CATEGORIES (sizeof CATEGORIES / sizeof *CATEGORIES)
#define ALL_CATEGORIES ((1u << N_CATEGORIES) - 1)
#define LOG_ALL (1u << 4)

static unsigned category_bit(const char *category)
{
    for (size_t i = 0; category && i < N_CATEGORIES; ++i)
        if (strcmp(category, CATEGORIES[i]) == 0)
            return 1u << i;
    return 0;
}

static const char *category_of(fmi2Status status)
{
    switch (status) {
    case fmi2Warning: return "logStatusWarning";
    case fmi2Discard: return "logStatusDiscard";
    case fmi2Error: return "logStatusError";
    case fmi2Fatal: return "logStatusFatal";
    default: return "logAll";
    }
}

/* What the host holds as a component. */
typedef struct {
    fmi2Component inner; /* pythonfmu's */
    fmi2CallbackFunctions host;
    fmi2CallbackFunctions mine; /* given to pythonfmu, which keeps a pointer: lives with the instance */
    char *name;
    int state;
    int set_up;        /* fmi2SetupExperiment called since the instance was made or reset */
    double time;       /* the start time, then the end of the last step (or the restored state's) */
    int stop_defined;
    double stop;
    unsigned logging;  /* the categories the host switched on (bits of CATEGORIES) */
    int error_logged;  /* the Python side logged an error in the current call */
    int warning_logged;  /* ... or a warning */
    /* the Python slave's methods for the fast fmi2GetReal and fmi2SetReal
     * (fmi2_fast.h; NULL: none), and where its inputs and outputs sit among
     * the value references */
    PyObject *fast_out, *fast_in, *fast_du;
    long first_in, n_in, first_out, n_out;
} Instance;

/* A copy of message for a logger that takes it as a printf format: '%' and
 * '#' doubled (FMI 2.0 section 2.1.5: '#' marks a value reference).  NULL
 * when out of memory. */
static char *escaped(const char *message)
{
    size_t n = 1;
    for (const char *p = message; *p; ++p)
        n += (*p == '%' || *p == '#') ? 2 : 1;
    char *out = malloc(n), *q = out;
    if (!out)
        return NULL;
    for (const char *p = message; *p; ++p) {
        if (*p == '%' || *p == '#')
            *q++ = *p;
        *q++ = *p;
    }
    *q = '\0';
    return out;
}

static void pass_on(Instance *in, fmi2Status status, fmi2String category, fmi2String message)
{
    if (!category || !*category)
        category = category_of(status);
    int shown = status >= fmi2Error || (in->logging & (category_bit(category) | LOG_ALL));
    if (!shown || !in->host.logger)
        return;
    char *text = escaped(message ? message : "");
    in->host.logger(in->host.componentEnvironment, in->name, status, category,
                    text ? text : "(a message was lost: out of memory)");
    free(text);
}

/* pythonfmu's logger (always on): notes an error, passes the message on.
 * pythonfmu gives the text as the format, with no arguments. */
static void from_pythonfmu(fmi2ComponentEnvironment env, fmi2String name, fmi2Status status, fmi2String category,
                           fmi2String message, ...)
{
    Instance *in = env;
    (void)name;
    if (status >= fmi2Error)
        in->error_logged = 1;
    else if (status == fmi2Warning)
        in->warning_logged = 1;
    pass_on(in, status, category, message);
}

static void vsay(Instance *in, fmi2Status status, const char *fmt, va_list ap)
{
    char message[1536];
    int n = snprintf(message, sizeof message, "%s (%s): ", model_name, in->name);
    if (n < 0 || (size_t)n >= sizeof message)
        n = 0;
    vsnprintf(message + n, sizeof message - (size_t)n, fmt, ap);
    pass_on(in, status, NULL, message);
}

__attribute__((format(printf, 3, 4))) static void say(Instance *in, fmi2Status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(in, status, fmt, ap);
    va_end(ap);
}

/* The state after a call that returned status. */
static fmi2Status finish(Instance *in, fmi2Status status)
{
    if (in->state == FATAL_STATE)
        return status;
    if (status == fmi2Error)
        in->state = ERROR_STATE;
    else if (status == fmi2Fatal)
        in->state = FATAL_STATE;
    return status;
}

/* Refuse the call: the message, status error, the instance in the error state. */
__attribute__((format(printf, 2, 3))) static fmi2Status refuse(Instance *in, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(in, fmi2Error, fmt, ap);
    va_end(ap);
    return finish(in, fmi2Error);
}

static fmi2Status refuse_state(Instance *in, const char *function)
{
    return refuse(in, "%s is not allowed in state %s (FMI 2.0 section 4.2.4)%s", function, state_name(in->state),
                  state_hint(in->state));
}

/* Return fmi2Error for no instance, and refuse a call FMI 2.0 does not allow in the instance's state. */
#define GATE(in, allowed, function)                                                                                \
    do {                                                                                                           \
        if (!(in))                                                                                                 \
            return fmi2Error;                                                                                      \
        if (!((in)->state & (allowed)))                                                                            \
            return refuse_state((in), (function));                                                                 \
    } while (0)

/* A call into pythonfmu's binary: fmi2Error if the Python side logged an error meanwhile, fmi2Warning if it
 * logged a warning (and the call was otherwise fine). */
static fmi2Status merged(Instance *in, fmi2Status status)
{
    if (in->error_logged && status < fmi2Error)
        return fmi2Error;
    return in->warning_logged && status == fmi2OK ? fmi2Warning : status;
}
#define INNER(in, call) ((in)->error_logged = 0, (in)->warning_logged = 0, merged((in), (call)))

