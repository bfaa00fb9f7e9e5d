/* An FMI 2.0 Model Exchange FMU for the tests of the master's integration
 * (tests/runtime/test_model_exchange.py): a first-order lag driven by its
 * input, with one event of each kind that a state and a step can raise.
 *
 *   der(x) = (u - x) / T          x(0) = x0 (the start of x)
 *   z      = x - threshold        its event indicator: crossings counts the
 *                                 events where x reached the threshold (to
 *                                 1e-9) from the side it was on, and
 *                                 crossed_at [s] is the time of the last
 *   held                          x as it was at the last event: the FMU asks
 *                                 for event mode after every completed
 *                                 integrator step (a step event), so held
 *                                 equals x at each of them
 *
 * It is strict about its modes as FMI 2.0 section 3.2.3 draws them: a call
 * made in a mode that does not allow it logs an error and returns
 * fmi2Error.  Its state can be got and set (a copy of the instance). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void *fmi2Component;
typedef int fmi2Status;
typedef void (*logger_fn)(void *env, const char *name, int status, const char *category, const char *message, ...);
typedef struct {
    logger_fn logger;
    void *allocate, *free, *step_finished;
    void *env;
} Callbacks;
typedef struct {
    int new_discrete_states_needed, terminate, nominals_changed, values_changed, next_time_defined;
    double next_time;
} EventInfo;

enum { OK = 0, ERROR = 3 };
#define HYSTERESIS 1e-9
enum { INSTANTIATED = 1, INITIALIZATION = 2, EVENT = 4, CONTINUOUS = 8, TERMINATED = 16 };
enum { VR_X, VR_DER_X, VR_U, VR_T, VR_THRESHOLD, VR_HELD, VR_CROSSED_AT, VR_CROSSINGS = 0 };

typedef struct {
    int mode, above, crossings;
    double time, x, u, T, threshold, held, crossed_at;
    char name[64];
    logger_fn logger;
    void *env;
} Lag;

static int allowed(Lag *c, int modes, const char *call) {
    if (c->mode & modes) return 1;
    if (c->logger) c->logger(c->env, c->name, ERROR, "logStatusError", "%s is not allowed in mode %d", call, c->mode);
    return 0;
}

fmi2Component fmi2Instantiate(const char *name, int type, const char *guid, const char *resources,
                              const Callbacks *callbacks, int visible, int logging) {
    Lag *c = calloc(1, sizeof(Lag));
    if (c == NULL || type != 0) { free(c); return NULL; }   /* Model Exchange only */
    c->mode = INSTANTIATED;
    c->T = 0.5;
    c->threshold = 0.5;
    c->crossed_at = -1;
    strncpy(c->name, name, sizeof(c->name) - 1);
    c->logger = callbacks->logger;
    c->env = callbacks->env;
    return c;
}

void fmi2FreeInstance(fmi2Component c) { free(c); }
const char *fmi2GetTypesPlatform(void) { return "default"; }
const char *fmi2GetVersion(void) { return "2.0"; }
fmi2Status fmi2SetDebugLogging(fmi2Component c, int on, size_t n, const char *const categories[]) { return OK; }

fmi2Status fmi2SetupExperiment(fmi2Component c, int tolerance_defined, double tolerance, double start,
                               int stop_defined, double stop) {
    Lag *l = c;
    if (!allowed(l, INSTANTIATED, "fmi2SetupExperiment")) return ERROR;
    l->time = start;
    return OK;
}

fmi2Status fmi2EnterInitializationMode(fmi2Component c) {
    Lag *l = c;
    if (!allowed(l, INSTANTIATED, "fmi2EnterInitializationMode")) return ERROR;
    l->mode = INITIALIZATION;
    return OK;
}

fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
    Lag *l = c;
    if (!allowed(l, INITIALIZATION, "fmi2ExitInitializationMode")) return ERROR;
    if (!(l->T > 0)) {
        l->logger(l->env, l->name, ERROR, "logStatusError", "T = %g must be positive", l->T);
        return ERROR;
    }
    l->above = l->x > l->threshold;
    l->held = l->x;
    l->mode = EVENT;
    return OK;
}

fmi2Status fmi2Terminate(fmi2Component c) { ((Lag *)c)->mode = TERMINATED; return OK; }
fmi2Status fmi2Reset(fmi2Component c) { return ERROR; }

fmi2Status fmi2GetReal(fmi2Component c, const unsigned vr[], size_t n, double values[]) {
    Lag *l = c;
    for (size_t i = 0; i < n; i++) {
        switch (vr[i]) {
            case VR_X: values[i] = l->x; break;
            case VR_DER_X: values[i] = (l->u - l->x) / l->T; break;
            case VR_U: values[i] = l->u; break;
            case VR_T: values[i] = l->T; break;
            case VR_THRESHOLD: values[i] = l->threshold; break;
            case VR_HELD: values[i] = l->held; break;
            case VR_CROSSED_AT: values[i] = l->crossed_at; break;
            default: return ERROR;
        }
    }
    return OK;
}

fmi2Status fmi2SetReal(fmi2Component c, const unsigned vr[], size_t n, const double values[]) {
    Lag *l = c;
    for (size_t i = 0; i < n; i++) {
        switch (vr[i]) {
            case VR_U: l->u = values[i]; break;
            case VR_X:
                if (!allowed(l, INSTANTIATED | INITIALIZATION, "setting x")) return ERROR;
                l->x = values[i]; break;
            case VR_T:
                if (!allowed(l, INSTANTIATED | INITIALIZATION, "setting T")) return ERROR;
                l->T = values[i]; break;
            case VR_THRESHOLD:
                if (!allowed(l, INSTANTIATED | INITIALIZATION, "setting threshold")) return ERROR;
                l->threshold = values[i]; break;
            default: return ERROR;
        }
    }
    return OK;
}

fmi2Status fmi2GetInteger(fmi2Component c, const unsigned vr[], size_t n, int values[]) {
    for (size_t i = 0; i < n; i++) {
        if (vr[i] != VR_CROSSINGS) return ERROR;
        values[i] = ((Lag *)c)->crossings;
    }
    return OK;
}

fmi2Status fmi2SetInteger(fmi2Component c, const unsigned vr[], size_t n, const int values[]) { return ERROR; }
fmi2Status fmi2GetBoolean(fmi2Component c, const unsigned vr[], size_t n, int values[]) { return ERROR; }
fmi2Status fmi2SetBoolean(fmi2Component c, const unsigned vr[], size_t n, const int values[]) { return ERROR; }
fmi2Status fmi2GetString(fmi2Component c, const unsigned vr[], size_t n, const char *values[]) { return ERROR; }
fmi2Status fmi2SetString(fmi2Component c, const unsigned vr[], size_t n, const char *const values[]) { return ERROR; }

fmi2Status fmi2GetFMUstate(fmi2Component c, void **state) {
    if (*state == NULL) *state = malloc(sizeof(Lag));
    if (*state == NULL) return ERROR;
    memcpy(*state, c, sizeof(Lag));
    return OK;
}

fmi2Status fmi2SetFMUstate(fmi2Component c, void *state) {
    if (state == NULL) return ERROR;
    memcpy(c, state, sizeof(Lag));
    return OK;
}

fmi2Status fmi2FreeFMUstate(fmi2Component c, void **state) {
    free(*state);
    *state = NULL;
    return OK;
}

fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, void *state, size_t *size) { return ERROR; }
fmi2Status fmi2SerializeFMUstate(fmi2Component c, void *state, char data[], size_t size) { return ERROR; }
fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const char data[], size_t size, void **state) { return ERROR; }
fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const unsigned u[], size_t nu, const unsigned z[], size_t nz,
                                        const double dv[], double dz[]) { return ERROR; }

fmi2Status fmi2EnterEventMode(fmi2Component c) {
    Lag *l = c;
    if (!allowed(l, EVENT | CONTINUOUS, "fmi2EnterEventMode")) return ERROR;
    l->mode = EVENT;
    return OK;
}

fmi2Status fmi2NewDiscreteStates(fmi2Component c, EventInfo *info) {
    Lag *l = c;
    if (!allowed(l, EVENT, "fmi2NewDiscreteStates")) return ERROR;
    /* at a state event x stands at the threshold, to the solver's root
     * tolerance, on either side of it: a crossing is x reaching it from the
     * side it was on, to within HYSTERESIS */
    int above = l->above ? l->x > l->threshold + HYSTERESIS : l->x >= l->threshold - HYSTERESIS;
    if (above != l->above) {
        l->crossings += 1;
        l->crossed_at = l->time;
        l->above = above;
    }
    l->held = l->x;
    memset(info, 0, sizeof(EventInfo));
    return OK;
}

fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) {
    Lag *l = c;
    if (!allowed(l, EVENT, "fmi2EnterContinuousTimeMode")) return ERROR;
    l->mode = CONTINUOUS;
    return OK;
}

fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, int no_prior, int *enter_event_mode, int *terminate) {
    Lag *l = c;
    if (!allowed(l, CONTINUOUS, "fmi2CompletedIntegratorStep")) return ERROR;
    *enter_event_mode = 1;
    *terminate = 0;
    return OK;
}

fmi2Status fmi2SetTime(fmi2Component c, double time) {
    Lag *l = c;
    if (!allowed(l, EVENT | CONTINUOUS, "fmi2SetTime")) return ERROR;
    l->time = time;
    return OK;
}

fmi2Status fmi2SetContinuousStates(fmi2Component c, const double x[], size_t nx) {
    Lag *l = c;
    if (!allowed(l, CONTINUOUS, "fmi2SetContinuousStates") || nx != 1) return ERROR;
    l->x = x[0];
    return OK;
}

fmi2Status fmi2GetDerivatives(fmi2Component c, double dx[], size_t nx) {
    Lag *l = c;
    if (!allowed(l, EVENT | CONTINUOUS | TERMINATED, "fmi2GetDerivatives") || nx != 1) return ERROR;
    dx[0] = (l->u - l->x) / l->T;
    return OK;
}

fmi2Status fmi2GetEventIndicators(fmi2Component c, double z[], size_t nz) {
    Lag *l = c;
    if (!allowed(l, INITIALIZATION | EVENT | CONTINUOUS | TERMINATED, "fmi2GetEventIndicators") || nz != 1)
        return ERROR;
    z[0] = l->x - l->threshold;
    return OK;
}

fmi2Status fmi2GetContinuousStates(fmi2Component c, double x[], size_t nx) {
    if (nx != 1) return ERROR;
    x[0] = ((Lag *)c)->x;
    return OK;
}

fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, double nominals[], size_t nx) {
    if (nx != 1) return ERROR;
    nominals[0] = 1.0;
    return OK;
}
