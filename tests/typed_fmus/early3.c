/* An FMI 3.0 co-simulation FMU written to misbehave (tests/runtime):
 * its step returns early (earlyReturn true, lastSuccessfulTime early_at)
 * when it would pass early_at, although the host instantiated it with
 * earlyReturnAllowed false (FMI 3.0 section 4.2.1).  Beside that, the
 * types the master converts at its calls: a Float32 parameter (gain), an
 * Int64 parameter echoed by an Int64 output (big, big_out) and an Int64
 * output a host may set (count, initial exact), which counts the steps.
 * Every other function of the FMI 3.0 API that fmpy looks up is a stub
 * that fails (this FMU never needs them). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef void (*log_fn)(void *env, int status, const char *category, const char *message);

typedef struct {
    double time, early_at, x;
    float gain;
    int64_t big, count;
    void *env;
    log_fn log;
} Early;

enum { VR_TIME, VR_EARLY_AT, VR_X, VR_GAIN, VR_BIG, VR_BIG_OUT, VR_COUNT };
enum { OK = 0, ERROR = 3 };

void *fmi3InstantiateCoSimulation(const char *name, const char *token, const char *resources, bool visible,
                                  bool logging, bool event_mode, bool early_allowed, const uint32_t *required,
                                  size_t n_required, void *env, log_fn log, void *update) {
    Early *e = calloc(1, sizeof(Early));
    if (e == NULL) return NULL;
    e->early_at = 0.453;
    e->gain = 1.0f;
    e->env = env;
    e->log = log;
    return e;
}

void fmi3FreeInstance(void *instance) { free(instance); }

int fmi3EnterInitializationMode(void *instance, bool tolerance_defined, double tolerance, double start,
                                bool stop_defined, double stop) {
    ((Early *)instance)->time = start;
    return OK;
}

int fmi3ExitInitializationMode(void *instance) { return OK; }
int fmi3Terminate(void *instance) { return OK; }

int fmi3DoStep(void *instance, double t, double h, bool no_prior, bool *event_needed, bool *terminate,
               bool *early_return, double *last_time) {
    Early *e = instance;
    double end = t + h;
    *event_needed = false;
    *terminate = false;
    *early_return = e->early_at > t && e->early_at < end;
    if (*early_return) end = e->early_at;
    e->x += (end - t) * e->gain;
    e->time = end;
    *last_time = end;
    e->count += 1;
    return OK;
}

int fmi3GetFloat64(void *instance, const uint32_t *vr, size_t n, double *values, size_t n_values) {
    Early *e = instance;
    for (size_t i = 0; i < n; i++) {
        switch (vr[i]) {
        case VR_TIME: values[i] = e->time; break;
        case VR_EARLY_AT: values[i] = e->early_at; break;
        case VR_X: values[i] = e->x; break;
        default: return ERROR;
        }
    }
    return OK;
}

int fmi3SetFloat64(void *instance, const uint32_t *vr, size_t n, const double *values, size_t n_values) {
    for (size_t i = 0; i < n; i++) {
        if (vr[i] != VR_EARLY_AT) return ERROR;
        ((Early *)instance)->early_at = values[i];
    }
    return OK;
}

int fmi3GetFloat32(void *instance, const uint32_t *vr, size_t n, float *values, size_t n_values) {
    for (size_t i = 0; i < n; i++) {
        if (vr[i] != VR_GAIN) return ERROR;
        values[i] = ((Early *)instance)->gain;
    }
    return OK;
}

int fmi3SetFloat32(void *instance, const uint32_t *vr, size_t n, const float *values, size_t n_values) {
    for (size_t i = 0; i < n; i++) {
        if (vr[i] != VR_GAIN) return ERROR;
        ((Early *)instance)->gain = values[i];
    }
    return OK;
}

int fmi3GetInt64(void *instance, const uint32_t *vr, size_t n, int64_t *values, size_t n_values) {
    Early *e = instance;
    for (size_t i = 0; i < n; i++) {
        switch (vr[i]) {
        case VR_BIG: case VR_BIG_OUT: values[i] = e->big; break;
        case VR_COUNT: values[i] = e->count; break;
        default: return ERROR;
        }
    }
    return OK;
}

int fmi3SetInt64(void *instance, const uint32_t *vr, size_t n, const int64_t *values, size_t n_values) {
    Early *e = instance;
    for (size_t i = 0; i < n; i++) {
        switch (vr[i]) {
        case VR_BIG: e->big = values[i]; break;
        case VR_COUNT: e->count = values[i]; break;
        default: return ERROR;
        }
    }
    return OK;
}

const char *fmi3GetVersion(void) { return "3.0"; }
int fmi3SetDebugLogging(void *instance, bool on, size_t n, const char *const categories[]) { return OK; }

#define STUB(name) int name(void) { return ERROR; }
STUB(fmi3ActivateModelPartition) STUB(fmi3CompletedIntegratorStep) STUB(fmi3DeserializeFMUState)
STUB(fmi3EnterConfigurationMode) STUB(fmi3EnterContinuousTimeMode) STUB(fmi3EnterEventMode)
STUB(fmi3EnterStepMode) STUB(fmi3EvaluateDiscreteStates) STUB(fmi3ExitConfigurationMode) STUB(fmi3FreeFMUState)
STUB(fmi3GetAdjointDerivative) STUB(fmi3GetBinary) STUB(fmi3GetBoolean) STUB(fmi3GetClock)
STUB(fmi3GetContinuousStateDerivatives) STUB(fmi3GetContinuousStates) STUB(fmi3GetDirectionalDerivative)
STUB(fmi3GetEventIndicators) STUB(fmi3GetFMUState) STUB(fmi3GetInt16) STUB(fmi3GetInt32) STUB(fmi3GetInt8)
STUB(fmi3GetIntervalDecimal) STUB(fmi3GetIntervalFraction) STUB(fmi3GetNominalsOfContinuousStates)
STUB(fmi3GetNumberOfContinuousStates) STUB(fmi3GetNumberOfEventIndicators)
STUB(fmi3GetNumberOfVariableDependencies) STUB(fmi3GetOutputDerivatives) STUB(fmi3GetShiftDecimal)
STUB(fmi3GetShiftFraction) STUB(fmi3GetString) STUB(fmi3GetUInt16) STUB(fmi3GetUInt32) STUB(fmi3GetUInt64)
STUB(fmi3GetUInt8) STUB(fmi3GetVariableDependencies) STUB(fmi3InstantiateModelExchange)
STUB(fmi3InstantiateScheduledExecution) STUB(fmi3Reset) STUB(fmi3SerializeFMUState)
STUB(fmi3SerializedFMUStateSize) STUB(fmi3SetBinary) STUB(fmi3SetBoolean) STUB(fmi3SetClock)
STUB(fmi3SetContinuousStates) STUB(fmi3SetFMUState) STUB(fmi3SetInt16) STUB(fmi3SetInt32) STUB(fmi3SetInt8)
STUB(fmi3SetIntervalDecimal) STUB(fmi3SetIntervalFraction) STUB(fmi3SetShiftDecimal) STUB(fmi3SetShiftFraction)
STUB(fmi3SetString) STUB(fmi3SetTime) STUB(fmi3SetUInt16) STUB(fmi3SetUInt32) STUB(fmi3SetUInt64)
STUB(fmi3SetUInt8) STUB(fmi3UpdateDiscreteStates)
