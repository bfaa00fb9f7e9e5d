/* crane-cosim's FMU process: each request of the proxy made a call of the
 * FMU's binary, its results written into the answer (fmi2_wire.h).
 * Included by fmi2_child.c: the two make one translation unit
 * (fmus/native.py compiles fmi2_child.c alone). */

/* A value array of n elements of `size` bytes each, in the answer, for the FMU to fill. */
static void *answer_array(size_t n, size_t size, int wanted)
{
    put_u32(&out, wanted ? 0 : WIRE_NULL);
    put_u64(&out, n);
    if (!wanted)
        return NULL;
    unsigned char *room = out_room(&out, n * size, 8);
    return room ? room : (void *)"";
}

/* The status, written where the answer's frame reserved it. */
static void answer_status(size_t at, fmi2Status status)
{
    uint32_t s = (uint32_t)status;
    if (!out.failed)
        memcpy(out.data + at, &s, sizeof s);
}

static size_t begin_answer(void)
{
    out_begin(&out, FRAME_RETURN);
    size_t at = out.size;
    put_u32(&out, fmi2Error);
    return at;
}

#define GET_VALUES(function, type)                                                                                 \
    {                                                                                                              \
        size_t n;                                                                                                  \
        const fmi2ValueReference *vr = get_array(r, &n, sizeof *vr);                                               \
        int wanted = (int)get_u32(r);                                                                              \
        size_t at = begin_answer();                                                                                \
        type *v = answer_array(n, sizeof(type), wanted);                                                           \
        answer_status(at, r->bad ? fmi2Error : p_##function(instance, vr, n, v));                                  \
        break;                                                                                                     \
    }

#define SET_VALUES(function, type)                                                                                 \
    {                                                                                                              \
        size_t n, nv;                                                                                              \
        const fmi2ValueReference *vr = get_array(r, &n, sizeof *vr);                                               \
        const type *v = get_array(r, &nv, sizeof(type));                                                           \
        size_t at = begin_answer();                                                                                \
        answer_status(at, r->bad ? fmi2Error : p_##function(instance, vr, n, v));                                  \
        break;                                                                                                     \
    }

/* n strings written by the proxy's put_string, in an array of pointers */
static const char **strings_of(In *r, size_t *count)
{
    uint32_t null = get_u32(r);
    *count = (size_t)get_u64(r);
    if (null == WIRE_NULL || r->bad || *count > (size_t)(r->end - r->base))
        return NULL;
    const char **strings = calloc(*count ? *count : 1, sizeof *strings);
    for (size_t i = 0; strings && i < *count; ++i)
        strings[i] = get_string(r);
    return strings;
}

static fmi2FMUstate state_of(uint64_t id) { return (fmi2FMUstate)(uintptr_t)id; }

static void answer(In *r, uint32_t op)
{
    switch (op) {
    case OP_SET_DEBUG_LOGGING: {
        fmi2Boolean on = (fmi2Boolean)get_u32(r);
        size_t n;
        const char **categories = strings_of(r, &n);
        size_t at = begin_answer();
        answer_status(at, r->bad ? fmi2Error : p_fmi2SetDebugLogging(instance, on, n, categories));
        free(categories);
        break;
    }
    case OP_SETUP_EXPERIMENT: {
        fmi2Boolean tol_defined = (fmi2Boolean)get_u32(r);
        double tol = get_f64(r), start = get_f64(r);
        fmi2Boolean stop_defined = (fmi2Boolean)get_u32(r);
        double stop = get_f64(r);
        size_t at = begin_answer();
        answer_status(at, p_fmi2SetupExperiment(instance, tol_defined, tol, start, stop_defined, stop));
        break;
    }
    case OP_ENTER_INITIALIZATION_MODE: answer_status(begin_answer(), p_fmi2EnterInitializationMode(instance)); break;
    case OP_EXIT_INITIALIZATION_MODE: answer_status(begin_answer(), p_fmi2ExitInitializationMode(instance)); break;
    case OP_TERMINATE: answer_status(begin_answer(), p_fmi2Terminate(instance)); break;
    case OP_RESET: answer_status(begin_answer(), p_fmi2Reset(instance)); break;
    case OP_CANCEL_STEP: answer_status(begin_answer(), p_fmi2CancelStep(instance)); break;
    case OP_GET_REAL: GET_VALUES(fmi2GetReal, fmi2Real)
    case OP_GET_INTEGER: GET_VALUES(fmi2GetInteger, fmi2Integer)
    case OP_GET_BOOLEAN: GET_VALUES(fmi2GetBoolean, fmi2Boolean)
    case OP_SET_REAL: SET_VALUES(fmi2SetReal, fmi2Real)
    case OP_SET_INTEGER: SET_VALUES(fmi2SetInteger, fmi2Integer)
    case OP_SET_BOOLEAN: SET_VALUES(fmi2SetBoolean, fmi2Boolean)
    case OP_GET_STRING: {
        size_t n;
        const fmi2ValueReference *vr = get_array(r, &n, sizeof *vr);
        int wanted = (int)get_u32(r);
        fmi2String *v = wanted ? calloc(n ? n : 1, sizeof *v) : NULL;
        fmi2Status status = r->bad || (wanted && !v) ? fmi2Error : p_fmi2GetString(instance, vr, n, v);
        size_t at = begin_answer();
        put_u32(&out, wanted ? 0 : WIRE_NULL);
        put_u64(&out, n);
        for (size_t i = 0; v && i < n; ++i)
            put_string(&out, v[i]);
        answer_status(at, status);
        free(v);
        break;
    }
    case OP_SET_STRING: {
        size_t n, nv;
        const fmi2ValueReference *vr = get_array(r, &n, sizeof *vr);
        const char **v = strings_of(r, &nv);
        size_t at = begin_answer();
        answer_status(at, r->bad ? fmi2Error : p_fmi2SetString(instance, vr, n, v));
        free(v);
        break;
    }
    case OP_GET_FMU_STATE:
    case OP_FREE_FMU_STATE: { /* the two take the state to make, overwrite or free, and answer it */
        int wanted = (int)get_u32(r);
        fmi2FMUstate state = state_of(get_u64(r));
        size_t at = begin_answer();
        answer_status(at, (op == OP_GET_FMU_STATE ? p_fmi2GetFMUstate : p_fmi2FreeFMUstate)(
                              instance, wanted ? &state : NULL));
        put_u64(&out, (uint64_t)(uintptr_t)state);
        break;
    }
    case OP_SET_FMU_STATE: {
        fmi2FMUstate state = state_of(get_u64(r));
        answer_status(begin_answer(), p_fmi2SetFMUstate(instance, state));
        break;
    }
    case OP_SERIALIZED_FMU_STATE_SIZE: {
        fmi2FMUstate state = state_of(get_u64(r));
        int wanted = (int)get_u32(r);
        size_t size = 0;
        size_t at = begin_answer();
        answer_status(at, p_fmi2SerializedFMUstateSize(instance, state, wanted ? &size : NULL));
        put_u64(&out, size);
        break;
    }
    case OP_SERIALIZE_FMU_STATE: {
        fmi2FMUstate state = state_of(get_u64(r));
        int wanted = (int)get_u32(r);
        size_t size = (size_t)get_u64(r);
        size_t at = begin_answer();
        fmi2Byte *bytes = answer_array(size, 1, wanted);
        answer_status(at, out.failed ? fmi2Error : p_fmi2SerializeFMUstate(instance, state, bytes, size));
        break;
    }
    case OP_DESERIALIZE_FMU_STATE: {
        size_t size;
        const fmi2Byte *bytes = get_array(r, &size, 1);
        int wanted = (int)get_u32(r);
        fmi2FMUstate state = state_of(get_u64(r));
        size_t at = begin_answer();
        answer_status(at, r->bad ? fmi2Error
                                 : p_fmi2DeSerializeFMUstate(instance, bytes, size, wanted ? &state : NULL));
        put_u64(&out, (uint64_t)(uintptr_t)state);
        break;
    }
    case OP_GET_DIRECTIONAL_DERIVATIVE: {
        size_t nu, nk, nd;
        const fmi2ValueReference *unknowns = get_array(r, &nu, sizeof *unknowns);
        const fmi2ValueReference *knowns = get_array(r, &nk, sizeof *knowns);
        const fmi2Real *seed = get_array(r, &nd, sizeof *seed);
        int wanted = (int)get_u32(r);
        size_t at = begin_answer();
        fmi2Real *v = answer_array(nu, sizeof *v, wanted);
        answer_status(at, r->bad ? fmi2Error
                                 : p_fmi2GetDirectionalDerivative(instance, unknowns, nu, knowns, nk, seed, v));
        break;
    }
    case OP_SET_REAL_INPUT_DERIVATIVES: {
        size_t n, no, nv;
        const fmi2ValueReference *vr = get_array(r, &n, sizeof *vr);
        const fmi2Integer *order = get_array(r, &no, sizeof *order);
        const fmi2Real *v = get_array(r, &nv, sizeof *v);
        size_t at = begin_answer();
        answer_status(at, r->bad ? fmi2Error : p_fmi2SetRealInputDerivatives(instance, vr, n, order, v));
        break;
    }
    case OP_GET_REAL_OUTPUT_DERIVATIVES: {
        size_t n, no;
        const fmi2ValueReference *vr = get_array(r, &n, sizeof *vr);
        const fmi2Integer *order = get_array(r, &no, sizeof *order);
        int wanted = (int)get_u32(r);
        size_t at = begin_answer();
        fmi2Real *v = answer_array(n, sizeof *v, wanted);
        answer_status(at, r->bad ? fmi2Error : p_fmi2GetRealOutputDerivatives(instance, vr, n, order, v));
        break;
    }
    case OP_DO_STEP: {
        double t = get_f64(r), h = get_f64(r);
        fmi2Boolean no_set_prior = (fmi2Boolean)get_u32(r);
        answer_status(begin_answer(), p_fmi2DoStep(instance, t, h, no_set_prior));
        break;
    }
    case OP_STEP_SEQUENCE: { /* crane_cosim_fmi2_post_steps (fmi2_proxy_calls.h) */
        int save = (int)get_u32(r);
        fmi2FMUstate saved = state_of(get_u64(r)), state = state_of(get_u64(r));
        size_t n_in, n_u, n_out;
        const fmi2ValueReference *vr_in = get_array(r, &n_in, sizeof *vr_in);
        const fmi2Real *u = get_array(r, &n_u, sizeof *u);
        double t = get_f64(r), h1 = get_f64(r);
        fmi2Boolean no_set_prior = (fmi2Boolean)get_u32(r);
        const fmi2ValueReference *vr_out = get_array(r, &n_out, sizeof *vr_out);
        double h2 = get_f64(r);
        size_t at = begin_answer(), which_at = out.size;
        put_u32(&out, 0);
        size_t saved_at = out.size;
        put_u64(&out, 0);
        fmi2Real *y = answer_array(n_out, sizeof *y, 1);
        fmi2Status status = r->bad || n_u != n_in ? fmi2Error : fmi2OK, worst = fmi2OK;
        uint32_t which = 0;
#define SEQUENCE_CALL(number, condition, made)                                                                     \
        if (status <= fmi2Warning && (condition)) {                                                                \
            which = number;                                                                                        \
            status = made;                                                                                         \
            worst = status > worst ? status : worst;                                                               \
        }
        SEQUENCE_CALL(1, save, p_fmi2GetFMUstate(instance, &saved))
        SEQUENCE_CALL(2, state != NULL, p_fmi2SetFMUstate(instance, state))
        SEQUENCE_CALL(3, n_in > 0, p_fmi2SetReal(instance, vr_in, n_in, u))
        SEQUENCE_CALL(4, h1 > 0, p_fmi2DoStep(instance, t, h1, no_set_prior))
        SEQUENCE_CALL(5, n_out > 0, p_fmi2GetReal(instance, vr_out, n_out, y))
        SEQUENCE_CALL(6, h2 > 0, p_fmi2DoStep(instance, t + h1, h2, no_set_prior))
#undef SEQUENCE_CALL
        answer_status(at, worst > status ? worst : status);
        uint64_t saved_id = (uint64_t)(uintptr_t)saved;
        if (!out.failed) {
            memcpy(out.data + which_at, &which, sizeof which);
            memcpy(out.data + saved_at, &saved_id, sizeof saved_id);
        }
        break;
    }
    case OP_GET_STATUS: {
        fmi2StatusKind kind = (fmi2StatusKind)get_u32(r);
        int wanted = (int)get_u32(r);
        fmi2Status value = fmi2OK;
        size_t at = begin_answer();
        answer_status(at, p_fmi2GetStatus(instance, kind, wanted ? &value : NULL));
        put_u32(&out, (uint32_t)value);
        break;
    }
    case OP_GET_REAL_STATUS: {
        fmi2StatusKind kind = (fmi2StatusKind)get_u32(r);
        int wanted = (int)get_u32(r);
        fmi2Real value = 0;
        size_t at = begin_answer();
        answer_status(at, p_fmi2GetRealStatus(instance, kind, wanted ? &value : NULL));
        put_f64(&out, value);
        break;
    }
    case OP_GET_INTEGER_STATUS:
    case OP_GET_BOOLEAN_STATUS: {
        fmi2StatusKind kind = (fmi2StatusKind)get_u32(r);
        int wanted = (int)get_u32(r);
        fmi2Integer value = 0;
        size_t at = begin_answer();
        answer_status(at, op == OP_GET_INTEGER_STATUS
                              ? p_fmi2GetIntegerStatus(instance, kind, wanted ? &value : NULL)
                              : p_fmi2GetBooleanStatus(instance, kind, wanted ? &value : NULL));
        put_u32(&out, (uint32_t)value);
        break;
    }
    case OP_GET_STRING_STATUS: {
        fmi2StatusKind kind = (fmi2StatusKind)get_u32(r);
        int wanted = (int)get_u32(r);
        fmi2String value = NULL;
        size_t at = begin_answer();
        answer_status(at, p_fmi2GetStringStatus(instance, kind, wanted ? &value : NULL));
        put_string(&out, value);
        break;
    }
    default: {
        char message[128];
        snprintf(message, sizeof message, "the FMU's process got a request it does not know (%u)", op);
        logger(NULL, "", fmi2Fatal, "logStatusFatal", "%s", message);
        answer_status(begin_answer(), fmi2Fatal);
    }
    }
}

