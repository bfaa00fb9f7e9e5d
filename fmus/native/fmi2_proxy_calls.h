/* crane-cosim's out-of-process FMI 2.0 binary: the FMI calls that take an
 * instance, each its arguments written into a request and its results read
 * from the answer (fmi2_wire.h).  Included at the end of fmi2_proxy.c: the
 * two make one translation unit (fmus/native.py compiles fmi2_proxy.c
 * alone). */

/* -- the calls ------------------------------------------------------------------------------- */

#define PROXY_OF(c)                                                                                                \
    Proxy *p = (c);                                                                                                \
    if (!p)                                                                                                        \
        return fmi2Error;                                                                                          \
    In r = {0}

static fmi2Status simple(Proxy *p, uint32_t op, const char *function)
{
    In r = {0};
    out_begin(&p->out, op);
    return call(p, function, &r);
}

EXPORT fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean on, size_t n, const fmi2String categories[])
{
    PROXY_OF(c);
    out_begin(&p->out, OP_SET_DEBUG_LOGGING);
    put_u32(&p->out, (uint32_t)on);
    put_u32(&p->out, categories ? 0 : WIRE_NULL);
    put_u64(&p->out, n);
    for (size_t i = 0; categories && i < n; ++i)
        put_string(&p->out, categories[i]);
    return call(p, "fmi2SetDebugLogging", &r);
}

EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean tolDefined, fmi2Real tol, fmi2Real start,
                                      fmi2Boolean stopDefined, fmi2Real stop)
{
    PROXY_OF(c);
    out_begin(&p->out, OP_SETUP_EXPERIMENT);
    put_u32(&p->out, (uint32_t)tolDefined);
    put_f64(&p->out, tol);
    put_f64(&p->out, start);
    put_u32(&p->out, (uint32_t)stopDefined);
    put_f64(&p->out, stop);
    return call(p, "fmi2SetupExperiment", &r);
}

EXPORT fmi2Status fmi2EnterInitializationMode(fmi2Component c)
{
    return c ? simple(c, OP_ENTER_INITIALIZATION_MODE, "fmi2EnterInitializationMode") : fmi2Error;
}
EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c)
{
    if (!c)
        return fmi2Error;
    fmi2Status status = simple(c, OP_EXIT_INITIALIZATION_MODE, "fmi2ExitInitializationMode");
    if (status <= fmi2Warning)
        ((Proxy *)c)->initialized = 1;
    return status;
}
EXPORT fmi2Status fmi2Terminate(fmi2Component c) { return c ? simple(c, OP_TERMINATE, "fmi2Terminate") : fmi2Error; }
EXPORT fmi2Status fmi2Reset(fmi2Component c) { return c ? simple(c, OP_RESET, "fmi2Reset") : fmi2Error; }
EXPORT fmi2Status fmi2CancelStep(fmi2Component c) { return c ? simple(c, OP_CANCEL_STEP, "fmi2CancelStep") : fmi2Error; }

/* The values answered, copied to v (n of them, `size` bytes each). */
static void take_values(In *r, void *v, size_t n, size_t size)
{
    size_t count;
    const void *values = get_array(r, &count, size);
    if (v && values && count == n && !r->bad)
        memcpy(v, values, n * size);
}

/* call(), then the n values of `size` bytes each it answers copied to v
 * (unless the process is gone). */
static fmi2Status call_for_values(Proxy *p, const char *function, In *r, void *v, size_t n, size_t size)
{
    fmi2Status status = call(p, function, r);
    if (status != fmi2Fatal)
        take_values(r, v, n, size);
    return status;
}

#define GET_VALUES(function, op, type)                                                                             \
    EXPORT fmi2Status function(fmi2Component c, const fmi2ValueReference vr[], size_t n, type v[])                 \
    {                                                                                                              \
        PROXY_OF(c);                                                                                               \
        out_begin(&p->out, op);                                                                                    \
        put_array(&p->out, vr, n, sizeof *vr);                                                                     \
        put_u32(&p->out, v != NULL);                                                                               \
        return call_for_values(p, #function, &r, v, n, sizeof(type));                                              \
    }

#define SET_VALUES(function, op, type)                                                                             \
    EXPORT fmi2Status function(fmi2Component c, const fmi2ValueReference vr[], size_t n, const type v[])           \
    {                                                                                                              \
        PROXY_OF(c);                                                                                               \
        out_begin(&p->out, op);                                                                                    \
        put_array(&p->out, vr, n, sizeof *vr);                                                                     \
        put_array(&p->out, v, n, sizeof(type));                                                                    \
        return call(p, #function, &r);                                                                             \
    }

GET_VALUES(fmi2GetReal, OP_GET_REAL, fmi2Real)
GET_VALUES(fmi2GetInteger, OP_GET_INTEGER, fmi2Integer)
GET_VALUES(fmi2GetBoolean, OP_GET_BOOLEAN, fmi2Boolean)
SET_VALUES(fmi2SetReal, OP_SET_REAL, fmi2Real)
SET_VALUES(fmi2SetInteger, OP_SET_INTEGER, fmi2Integer)
SET_VALUES(fmi2SetBoolean, OP_SET_BOOLEAN, fmi2Boolean)

/* Strings of the answer kept until the next call that answers strings. */
static int keep_strings(Proxy *p, In *r, size_t n)
{
    size_t size = (size_t)(r->end - r->base);
    unsigned char *kept = malloc(size ? size : 1);
    if (!kept)
        return 0;
    memcpy(kept, r->base, size);
    free(p->kept);
    p->kept = kept;
    r->at = kept + (r->at - r->base);
    r->end = kept + size;
    r->base = kept;
    if (n > p->strings_capacity) {
        const char **strings = realloc(p->strings, n * sizeof *strings);
        if (!strings)
            return 0;
        p->strings = strings;
        p->strings_capacity = n;
    }
    for (size_t i = 0; i < n; ++i)
        p->strings[i] = get_string(r);
    return !r->bad;
}

EXPORT fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2String v[])
{
    PROXY_OF(c);
    out_begin(&p->out, OP_GET_STRING);
    put_array(&p->out, vr, n, sizeof *vr);
    put_u32(&p->out, v != NULL);
    fmi2Status status = call(p, "fmi2GetString", &r);
    if (status == fmi2Fatal)
        return status;
    uint32_t null = get_u32(&r);
    size_t count = (size_t)get_u64(&r);
    if (v && null != WIRE_NULL && count == n && keep_strings(p, &r, n))
        memcpy(v, p->strings, n * sizeof *v);
    return status;
}

EXPORT fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2String v[])
{
    PROXY_OF(c);
    out_begin(&p->out, OP_SET_STRING);
    put_array(&p->out, vr, n, sizeof *vr);
    put_u32(&p->out, v ? 0 : WIRE_NULL);
    put_u64(&p->out, n);
    for (size_t i = 0; v && i < n; ++i)
        put_string(&p->out, v[i]);
    return call(p, "fmi2SetString", &r);
}

/* -- the FMU state: the process's, behind a handle of the host's ------------------------------------- */

static uint64_t id_of(fmi2FMUstate state) { return state ? ((State *)state)->id : 0; }

/* *state made to hold the process's state `id` (a new handle, or the one given). */
static fmi2Status hold_state(Proxy *p, fmi2FMUstate *state, uint64_t id, fmi2Status status)
{
    if (!state || status > fmi2Warning)
        return status;
    if (!id) {
        if (*state)
            free(*state);
        *state = NULL;
        return status;
    }
    State *held = *state;
    if (!held && !(held = malloc(sizeof *held))) {
        say(p, fmi2Error, "logStatusError", "%s: cannot keep an FMU state: out of memory", p->name);
        return fmi2Error;
    }
    held->id = id;
    *state = held;
    return status;
}

/* A call that may make or change the state *state (the process's `id` in
 * the request, its answer's id held): fmi2GetFMUstate, fmi2FreeFMUstate. */
static fmi2Status state_call(Proxy *p, uint32_t op, const char *function, fmi2FMUstate *state)
{
    In r = {0};
    out_begin(&p->out, op);
    put_u32(&p->out, state != NULL);
    put_u64(&p->out, state ? id_of(*state) : 0);
    fmi2Status status = call(p, function, &r);
    uint64_t id = get_u64(&r);
    if (status == fmi2Fatal) {
        if (op == OP_FREE_FMU_STATE && state && *state) /* the process and its states are gone */
            free(*state), *state = NULL;
        return status;
    }
    return hold_state(p, state, id, status);
}

EXPORT fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate *state)
{
    return c ? state_call(c, OP_GET_FMU_STATE, "fmi2GetFMUstate", state) : fmi2Error;
}

EXPORT fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate state)
{
    PROXY_OF(c);
    out_begin(&p->out, OP_SET_FMU_STATE);
    put_u64(&p->out, id_of(state));
    return call(p, "fmi2SetFMUstate", &r);
}

EXPORT fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate *state)
{
    return c ? state_call(c, OP_FREE_FMU_STATE, "fmi2FreeFMUstate", state) : fmi2Error;
}

EXPORT fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate state, size_t *size)
{
    PROXY_OF(c);
    out_begin(&p->out, OP_SERIALIZED_FMU_STATE_SIZE);
    put_u64(&p->out, id_of(state));
    put_u32(&p->out, size != NULL);
    fmi2Status status = call(p, "fmi2SerializedFMUstateSize", &r);
    uint64_t n = get_u64(&r);
    if (size && status <= fmi2Warning)
        *size = (size_t)n;
    return status;
}

EXPORT fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate state, fmi2Byte bytes[], size_t size)
{
    PROXY_OF(c);
    out_begin(&p->out, OP_SERIALIZE_FMU_STATE);
    put_u64(&p->out, id_of(state));
    put_u32(&p->out, bytes != NULL);
    put_u64(&p->out, size);
    fmi2Status status = call(p, "fmi2SerializeFMUstate", &r);
    if (status != fmi2Fatal)
        take_values(&r, bytes, size, 1);
    return status;
}

EXPORT fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte bytes[], size_t size, fmi2FMUstate *state)
{
    PROXY_OF(c);
    out_begin(&p->out, OP_DESERIALIZE_FMU_STATE);
    put_array(&p->out, bytes, size, 1);
    put_u32(&p->out, state != NULL);
    put_u64(&p->out, state ? id_of(*state) : 0);
    fmi2Status status = call(p, "fmi2DeSerializeFMUstate", &r);
    uint64_t id = get_u64(&r);
    return status == fmi2Fatal ? status : hold_state(p, state, id, status);
}

/* -- derivatives, the step, status inquiries ---------------------------------------------------- */

EXPORT fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference unknowns[], size_t nu,
                                               const fmi2ValueReference knowns[], size_t nk,
                                               const fmi2Real dv_known[], fmi2Real dv_unknown[])
{
    PROXY_OF(c);
    out_begin(&p->out, OP_GET_DIRECTIONAL_DERIVATIVE);
    put_array(&p->out, unknowns, nu, sizeof *unknowns);
    put_array(&p->out, knowns, nk, sizeof *knowns);
    put_array(&p->out, dv_known, nk, sizeof *dv_known);
    put_u32(&p->out, dv_unknown != NULL);
    return call_for_values(p, "fmi2GetDirectionalDerivative", &r, dv_unknown, nu, sizeof *dv_unknown);
}

EXPORT fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                              const fmi2Integer order[], const fmi2Real v[])
{
    PROXY_OF(c);
    out_begin(&p->out, OP_SET_REAL_INPUT_DERIVATIVES);
    put_array(&p->out, vr, n, sizeof *vr);
    put_array(&p->out, order, n, sizeof *order);
    put_array(&p->out, v, n, sizeof *v);
    return call(p, "fmi2SetRealInputDerivatives", &r);
}

EXPORT fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                               const fmi2Integer order[], fmi2Real v[])
{
    PROXY_OF(c);
    out_begin(&p->out, OP_GET_REAL_OUTPUT_DERIVATIVES);
    put_array(&p->out, vr, n, sizeof *vr);
    put_array(&p->out, order, n, sizeof *order);
    put_u32(&p->out, v != NULL);
    return call_for_values(p, "fmi2GetRealOutputDerivatives", &r, v, n, sizeof *v);
}

EXPORT fmi2Status fmi2DoStep(fmi2Component c, fmi2Real t, fmi2Real h, fmi2Boolean noSetPrior)
{
    PROXY_OF(c);
    out_begin(&p->out, OP_DO_STEP);
    put_f64(&p->out, t);
    put_f64(&p->out, h);
    put_u32(&p->out, (uint32_t)noSetPrior);
    return call(p, "fmi2DoStep", &r);
}

#define STATUS_INQUIRY(function, op, type, read)                                                                   \
    EXPORT fmi2Status function(fmi2Component c, const fmi2StatusKind s, type *value)                               \
    {                                                                                                              \
        PROXY_OF(c);                                                                                               \
        out_begin(&p->out, op);                                                                                    \
        put_u32(&p->out, (uint32_t)s);                                                                             \
        put_u32(&p->out, value != NULL);                                                                           \
        fmi2Status status = call(p, #function, &r);                                                                \
        type got = (type)read(&r);                                                                                 \
        if (value && status <= fmi2Warning)                                                                        \
            *value = got;                                                                                          \
        return status;                                                                                             \
    }

STATUS_INQUIRY(fmi2GetStatus, OP_GET_STATUS, fmi2Status, get_u32)
STATUS_INQUIRY(fmi2GetRealStatus, OP_GET_REAL_STATUS, fmi2Real, get_f64)
STATUS_INQUIRY(fmi2GetIntegerStatus, OP_GET_INTEGER_STATUS, fmi2Integer, get_u32)
STATUS_INQUIRY(fmi2GetBooleanStatus, OP_GET_BOOLEAN_STATUS, fmi2Boolean, get_u32)

EXPORT fmi2Status fmi2GetStringStatus(fmi2Component c, const fmi2StatusKind s, fmi2String *value)
{
    PROXY_OF(c);
    out_begin(&p->out, OP_GET_STRING_STATUS);
    put_u32(&p->out, (uint32_t)s);
    put_u32(&p->out, value != NULL);
    fmi2Status status = call(p, "fmi2GetStringStatus", &r);
    if (status == fmi2Fatal)
        return status;
    if (value && keep_strings(p, &r, 1))
        *value = p->strings[0];
    return status;
}

/* -- a step's calls in one crossing (the project's own entry points) ------------------------------------

 * crane_cosim_fmi2_post_steps sends, without waiting, the calls a master
 * makes of a component for one step: fmi2GetFMUstate(save) where save is
 * not NULL, fmi2SetFMUstate(state) where state is not NULL, fmi2SetReal of
 * the n_in inputs where n_in > 0, fmi2DoStep(t, h1) where h1 > 0,
 * fmi2GetReal of the n_out outputs where n_out > 0, and fmi2DoStep(t + h1,
 * h2) where h2 > 0, in this order; the process makes them one after
 * another and stops after the first whose status is above fmi2Warning.
 * crane_cosim_fmi2_collect_steps waits for them and returns (which << 8) |
 * status: `which` the last call made (1 to 6 in the order above, 0 none),
 * `status` its status where above fmi2Warning, else the worst of the
 * calls'; the outputs in y (n_out values) where fmi2GetReal was made, and
 * the state saved in *save.  Several components posted one after another
 * then step at the same time, each in its process.  Any other call of the
 * instance made before the sequence is collected is an error. */
EXPORT fmi2Status crane_cosim_fmi2_post_steps(fmi2Component c, fmi2FMUstate *save, fmi2FMUstate state,
                                              const fmi2ValueReference vr_in[], size_t n_in, const fmi2Real u[],
                                              fmi2Real t, fmi2Real h1, fmi2Boolean noSetPrior,
                                              const fmi2ValueReference vr_out[], size_t n_out, fmi2Real h2)
{
    PROXY_OF(c);
    (void)r;
    out_begin(&p->out, OP_STEP_SEQUENCE);
    put_u32(&p->out, save != NULL);
    put_u64(&p->out, save ? id_of(*save) : 0);
    put_u64(&p->out, id_of(state));
    put_array(&p->out, vr_in, n_in, sizeof *vr_in);
    put_array(&p->out, u, n_in, sizeof *u);
    put_f64(&p->out, t);
    put_f64(&p->out, h1);
    put_u32(&p->out, (uint32_t)noSetPrior);
    put_array(&p->out, vr_out, n_out, sizeof *vr_out);
    put_f64(&p->out, h2);
    fmi2Status status = post(p, "fmi2DoStep");
    p->save = status == fmi2OK ? save : NULL;
    return status;
}

EXPORT int crane_cosim_fmi2_collect_steps(fmi2Component c, fmi2Real y[], size_t n_out)
{
    PROXY_OF(c);
    fmi2FMUstate *save = p->save;
    p->save = NULL;
    fmi2Status status = collect(p, "fmi2DoStep", &r);
    if (status == fmi2Fatal)
        return fmi2Fatal;
    uint32_t which = get_u32(&r);
    uint64_t saved = get_u64(&r);
    take_values(&r, y, n_out, sizeof *y);
    if (save && which >= 1 && (which > 1 || status <= fmi2Warning)
        && hold_state(p, save, saved, fmi2OK) > fmi2Warning)
        return (int)((1u << 8) | (uint32_t)fmi2Error);
    return (int)((which << 8) | (uint32_t)status);
}
