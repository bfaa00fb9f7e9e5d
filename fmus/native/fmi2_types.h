/* FMI 2.0 co-simulation types (fmi2TypesPlatform.h, fmi2FunctionTypes.h)
 * and the list of the functions that take an instance, shared by the FMUs'
 * in-process binary (fmi2_shim.c), the out-of-process proxy (fmi2_proxy.c)
 * and the process that runs an FMU for the proxy (fmi2_child.c). */
#ifndef CRANE_COSIM_FMI2_TYPES_H
#define CRANE_COSIM_FMI2_TYPES_H

#include <stddef.h>

typedef void *fmi2Component;
typedef void *fmi2ComponentEnvironment;
typedef void *fmi2FMUstate;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
#define fmi2True 1
#define fmi2False 0
typedef char fmi2Char;
typedef const fmi2Char *fmi2String;
typedef char fmi2Byte;
typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;
typedef enum { fmi2DoStepStatus, fmi2PendingStatus, fmi2LastSuccessfulTime, fmi2Terminated } fmi2StatusKind;
typedef struct {
    void (*logger)(fmi2ComponentEnvironment, fmi2String, fmi2Status, fmi2String, fmi2String, ...);
    void *(*allocateMemory)(size_t, size_t);
    void (*freeMemory)(void *);
    void (*stepFinished)(fmi2ComponentEnvironment, fmi2Status);
    fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;

/* Every FMI 2.0 co-simulation function that takes a component and returns a
 * status: X(name, parameter list, argument list). */
#define FMI2_STATUS_FUNCTIONS(X)                                                                                   \
    X(fmi2SetDebugLogging, (fmi2Component c, fmi2Boolean on, size_t n, const fmi2String categories[]),            \
      (c, on, n, categories))                                                                                      \
    X(fmi2SetupExperiment, (fmi2Component c, fmi2Boolean tolDefined, fmi2Real tol, fmi2Real start,                \
                            fmi2Boolean stopDefined, fmi2Real stop),                                               \
      (c, tolDefined, tol, start, stopDefined, stop))                                                              \
    X(fmi2EnterInitializationMode, (fmi2Component c), (c))                                                         \
    X(fmi2ExitInitializationMode, (fmi2Component c), (c))                                                          \
    X(fmi2Terminate, (fmi2Component c), (c))                                                                       \
    X(fmi2Reset, (fmi2Component c), (c))                                                                           \
    X(fmi2GetReal, (fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Real v[]), (c, vr, n, v))        \
    X(fmi2GetInteger, (fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Integer v[]), (c, vr, n, v))  \
    X(fmi2GetBoolean, (fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Boolean v[]), (c, vr, n, v))  \
    X(fmi2GetString, (fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2String v[]), (c, vr, n, v))    \
    X(fmi2SetReal, (fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Real v[]), (c, vr, n, v))  \
    X(fmi2SetInteger, (fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Integer v[]),           \
      (c, vr, n, v))                                                                                               \
    X(fmi2SetBoolean, (fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Boolean v[]),           \
      (c, vr, n, v))                                                                                               \
    X(fmi2SetString, (fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2String v[]),             \
      (c, vr, n, v))                                                                                               \
    X(fmi2GetFMUstate, (fmi2Component c, fmi2FMUstate * s), (c, s))                                                \
    X(fmi2SetFMUstate, (fmi2Component c, fmi2FMUstate s), (c, s))                                                  \
    X(fmi2FreeFMUstate, (fmi2Component c, fmi2FMUstate * s), (c, s))                                              \
    X(fmi2SerializedFMUstateSize, (fmi2Component c, fmi2FMUstate s, size_t * size), (c, s, size))                  \
    X(fmi2SerializeFMUstate, (fmi2Component c, fmi2FMUstate s, fmi2Byte bytes[], size_t size), (c, s, bytes, size)) \
    X(fmi2DeSerializeFMUstate, (fmi2Component c, const fmi2Byte bytes[], size_t size, fmi2FMUstate * s),           \
      (c, bytes, size, s))                                                                                         \
    X(fmi2GetDirectionalDerivative, (fmi2Component c, const fmi2ValueReference unknowns[], size_t nu,              \
                                     const fmi2ValueReference knowns[], size_t nk, const fmi2Real dv_known[],      \
                                     fmi2Real dv_unknown[]),                                                       \
      (c, unknowns, nu, knowns, nk, dv_known, dv_unknown))                                                         \
    X(fmi2GetRealOutputDerivatives, (fmi2Component c, const fmi2ValueReference vr[], size_t n,                     \
                                     const fmi2Integer order[], fmi2Real v[]),                                     \
      (c, vr, n, order, v))                                                                                        \
    X(fmi2DoStep, (fmi2Component c, fmi2Real t, fmi2Real h, fmi2Boolean noSetPrior), (c, t, h, noSetPrior))        \
    X(fmi2CancelStep, (fmi2Component c), (c))                                                                      \
    X(fmi2GetStatus, (fmi2Component c, const fmi2StatusKind s, fmi2Status * v), (c, s, v))                         \
    X(fmi2GetRealStatus, (fmi2Component c, const fmi2StatusKind s, fmi2Real * v), (c, s, v))                       \
    X(fmi2GetIntegerStatus, (fmi2Component c, const fmi2StatusKind s, fmi2Integer * v), (c, s, v))                 \
    X(fmi2GetBooleanStatus, (fmi2Component c, const fmi2StatusKind s, fmi2Boolean * v), (c, s, v))                 \
    X(fmi2GetStringStatus, (fmi2Component c, const fmi2StatusKind s, fmi2String * v), (c, s, v))

#endif
