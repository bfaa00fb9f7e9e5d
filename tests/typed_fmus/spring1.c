/* An FMI 1.0 co-simulation FMU for the tests of the master's FMI 1.0 calls
 * (tests/runtime/test_fmi1.py), in the manner of OSP's tutorial FMUs: a
 * spring whose force answers the displacement it is given,
 *
 *   f = enabled ? -k * (x - x0) : 0      (k, x0, enabled: parameters)
 *
 * with a step count (an Integer output) and the work the force did,
 * W += f * dx over each step (a Real state: W(t) of the displacements
 * received).  Every value is set before fmiInitializeSlave, as FMI 1.0
 * for Co-Simulation asks; a value set after it is refused. */
#include <stdlib.h>
#include <string.h>

#define F(name) Spring1_fmi##name
typedef void *fmiComponent;
typedef int fmiStatus;
typedef char fmiBoolean;
typedef void (*logger_fn)(fmiComponent c, const char *name, fmiStatus status, const char *category,
                          const char *message, ...);
typedef struct {
    logger_fn logger;
    void *allocate, *free, *step_finished;
} Callbacks;

enum { OK = 0, ERROR = 3 };
enum { VR_K, VR_X0, VR_X, VR_F, VR_W };   /* Real */
enum { VR_COUNT };                         /* Integer */
enum { VR_ENABLED };                       /* Boolean */

typedef struct {
    double k, x0, x, x_last, w;
    int count, initialized;
    fmiBoolean enabled;
    logger_fn logger;
    char name[64];
} Spring;

static double force(Spring *s) { return s->enabled ? -s->k * (s->x - s->x0) : 0.0; }

const char *F(GetTypesPlatform)(void) { return "standard32"; }
const char *F(GetVersion)(void) { return "1.0"; }
fmiStatus F(SetDebugLogging)(fmiComponent c, fmiBoolean on) { return OK; }

fmiComponent F(InstantiateSlave)(const char *name, const char *guid, const char *location, const char *mime,
                                  double timeout, fmiBoolean visible, fmiBoolean interactive, Callbacks callbacks,
                                  fmiBoolean logging) {
    Spring *s = calloc(1, sizeof(Spring));
    if (s == NULL) return NULL;
    s->k = 5.0;
    s->enabled = 1;
    s->logger = callbacks.logger;
    strncpy(s->name, name, sizeof(s->name) - 1);
    return s;
}

fmiStatus F(InitializeSlave)(fmiComponent c, double start, fmiBoolean stop_defined, double stop) {
    Spring *s = c;
    s->initialized = 1;
    s->x_last = s->x;
    return OK;
}

fmiStatus F(TerminateSlave)(fmiComponent c) { return OK; }
fmiStatus F(ResetSlave)(fmiComponent c) { return ERROR; }
void F(FreeSlaveInstance)(fmiComponent c) { free(c); }

fmiStatus F(DoStep)(fmiComponent c, double t, double h, fmiBoolean new_step) {
    Spring *s = c;
    /* the force over the step, its input held: the work of moving from
     * the last displacement to this one at the force of this one */
    s->w += force(s) * (s->x - s->x_last);
    s->x_last = s->x;
    s->count += 1;
    return OK;
}

fmiStatus F(GetReal)(fmiComponent c, const unsigned vr[], size_t n, double value[]) {
    Spring *s = c;
    for (size_t i = 0; i < n; i++) {
        switch (vr[i]) {
            case VR_K: value[i] = s->k; break;
            case VR_X0: value[i] = s->x0; break;
            case VR_X: value[i] = s->x; break;
            case VR_F: value[i] = force(s); break;
            case VR_W: value[i] = s->w; break;
            default: return ERROR;
        }
    }
    return OK;
}

fmiStatus F(SetReal)(fmiComponent c, const unsigned vr[], size_t n, const double value[]) {
    Spring *s = c;
    for (size_t i = 0; i < n; i++) {
        if (vr[i] == VR_X) {
            s->x = value[i];
        } else if (vr[i] == VR_K && !s->initialized) {
            s->k = value[i];
        } else if (vr[i] == VR_X0 && !s->initialized) {
            s->x0 = value[i];
        } else {
            s->logger(c, s->name, ERROR, "error", "value reference %u may not be set now", vr[i]);
            return ERROR;
        }
    }
    return OK;
}

fmiStatus F(GetInteger)(fmiComponent c, const unsigned vr[], size_t n, int value[]) {
    for (size_t i = 0; i < n; i++) {
        if (vr[i] != VR_COUNT) return ERROR;
        value[i] = ((Spring *)c)->count;
    }
    return OK;
}

fmiStatus F(GetBoolean)(fmiComponent c, const unsigned vr[], size_t n, fmiBoolean value[]) {
    for (size_t i = 0; i < n; i++) {
        if (vr[i] != VR_ENABLED) return ERROR;
        value[i] = ((Spring *)c)->enabled;
    }
    return OK;
}

fmiStatus F(SetBoolean)(fmiComponent c, const unsigned vr[], size_t n, const fmiBoolean value[]) {
    Spring *s = c;
    for (size_t i = 0; i < n; i++) {
        if (vr[i] != VR_ENABLED || s->initialized) return ERROR;
        s->enabled = value[i];
    }
    return OK;
}

fmiStatus F(SetInteger)(fmiComponent c, const unsigned vr[], size_t n, const int value[]) { return ERROR; }
fmiStatus F(GetString)(fmiComponent c, const unsigned vr[], size_t n, const char *value[]) { return ERROR; }
fmiStatus F(SetString)(fmiComponent c, const unsigned vr[], size_t n, const char *const value[]) { return ERROR; }
fmiStatus F(SetRealInputDerivatives)(fmiComponent c, const unsigned vr[], size_t n, const int order[],
                                     const double value[]) { return ERROR; }
fmiStatus F(GetRealOutputDerivatives)(fmiComponent c, const unsigned vr[], size_t n, const int order[],
                                      double value[]) { return ERROR; }
fmiStatus F(CancelStep)(fmiComponent c) { return ERROR; }
fmiStatus F(GetStatus)(fmiComponent c, int kind, fmiStatus *value) { return ERROR; }
fmiStatus F(GetRealStatus)(fmiComponent c, int kind, double *value) { return ERROR; }
fmiStatus F(GetIntegerStatus)(fmiComponent c, int kind, int *value) { return ERROR; }
fmiStatus F(GetBooleanStatus)(fmiComponent c, int kind, fmiBoolean *value) { return ERROR; }
fmiStatus F(GetStringStatus)(fmiComponent c, int kind, const char **value) { return ERROR; }
