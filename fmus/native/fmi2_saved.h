/* crane-cosim's FMI 2.0 co-simulation binary for Linux: the status
 * inquiries and the FMU state, by the rules of fmi2_instance.h.  Included at
 * the end of fmi2_shim.c, after fmi2_calls.h. */

/* -- status inquiries (FMI 2.0 section 4.2.3) ---------------------------------- */

static fmi2Status no_status(Instance *in, const char *function, fmi2StatusKind kind)
{
    static const char *const kinds[] = {"fmi2DoStepStatus", "fmi2PendingStatus", "fmi2LastSuccessfulTime",
                                        "fmi2Terminated"};
    const char *name = (unsigned)kind < 4 ? kinds[kind] : "an unknown kind";
    say(in, fmi2Discard, "%s(%s): this FMU has no such status%s", function, name,
        kind == fmi2DoStepStatus || kind == fmi2PendingStatus ? " (it never returns fmi2Pending)" : "");
    return fmi2Discard;
}

#define STATUS_GATE(in, value, function)                                                                           \
    do {                                                                                                           \
        GATE(in, STATUS_READABLE, function);                                                                       \
        if (!(value))                                                                                              \
            return refuse(in, function ": the value pointer is NULL");                                             \
    } while (0)

EXPORT fmi2Status fmi2GetStatus(fmi2Component c, const fmi2StatusKind s, fmi2Status *value)
{
    Instance *in = c;
    STATUS_GATE(in, value, "fmi2GetStatus");
    return no_status(in, "fmi2GetStatus", s);
}

EXPORT fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind s, fmi2Real *value)
{
    Instance *in = c;
    STATUS_GATE(in, value, "fmi2GetRealStatus");
    if (s != fmi2LastSuccessfulTime)
        return no_status(in, "fmi2GetRealStatus", s);
    *value = in->time;
    return fmi2OK;
}

EXPORT fmi2Status fmi2GetIntegerStatus(fmi2Component c, const fmi2StatusKind s, fmi2Integer *value)
{
    Instance *in = c;
    STATUS_GATE(in, value, "fmi2GetIntegerStatus");
    return no_status(in, "fmi2GetIntegerStatus", s);
}

EXPORT fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind s, fmi2Boolean *value)
{
    Instance *in = c;
    STATUS_GATE(in, value, "fmi2GetBooleanStatus");
    if (s != fmi2Terminated)
        return no_status(in, "fmi2GetBooleanStatus", s);
    *value = fmi2False; /* the FMU never asks to end the simulation */
    return fmi2OK;
}

EXPORT fmi2Status fmi2GetStringStatus(fmi2Component c, const fmi2StatusKind s, fmi2String *value)
{
    Instance *in = c;
    STATUS_GATE(in, value, "fmi2GetStringStatus");
    return no_status(in, "fmi2GetStringStatus", s);
}

/* -- the FMU state (FMI 2.0 section 2.1.8) --------------------------------------- */

typedef struct {
    fmi2FMUstate inner; /* pythonfmu's */
    int state, set_up;
    double time;
} Saved;

/* what a serialized state starts with, pythonfmu's bytes following */
static const char SAVED_MAGIC[24] = "crane-cosim FMU state 1";
typedef struct {
    char magic[24];
    int32_t state, set_up;
    double time;
} SavedHeader;

static Saved *saved_of(Instance *in, fmi2FMUstate state, const char *function)
{
    Saved *saved = state;
    if (!saved || !saved->inner)
        refuse(in, "%s: the FMU state is NULL or was freed", function);
    return saved && saved->inner ? saved : NULL;
}

/* The shim's saved state *state (one made before, or a new one) holding inner. */
static fmi2Status keep(Instance *in, fmi2FMUstate *state, fmi2FMUstate inner, int instance_state, int set_up,
                       double time)
{
    Saved *saved = *state;
    if (!saved && !(saved = calloc(1, sizeof *saved))) {
        p_fmi2FreeFMUstate(in->inner, &inner);
        return refuse(in, "cannot keep an FMU state: out of memory");
    }
    if (saved->inner)
        p_fmi2FreeFMUstate(in->inner, &saved->inner);
    saved->inner = inner;
    saved->state = instance_state;
    saved->set_up = set_up;
    saved->time = time;
    *state = saved;
    return fmi2OK;
}

EXPORT fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate *state)
{
    Instance *in = c;
    GATE(in, ANY_BUT_FATAL, "fmi2GetFMUstate");
    if (!state)
        return refuse(in, "fmi2GetFMUstate: the state pointer is NULL");
    fmi2FMUstate inner = NULL;
    fmi2Status status = INNER(in, p_fmi2GetFMUstate(in->inner, &inner));
    if (status > fmi2Warning) {
        if (inner)
            p_fmi2FreeFMUstate(in->inner, &inner);
        return finish(in, status);
    }
    fmi2Status kept = keep(in, state, inner, in->state, in->set_up, in->time);
    return kept != fmi2OK ? kept : finish(in, status);
}

EXPORT fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate state)
{
    Instance *in = c;
    GATE(in, ANY_BUT_FATAL, "fmi2SetFMUstate");
    Saved *saved = saved_of(in, state, "fmi2SetFMUstate");
    if (!saved)
        return fmi2Error;
    fmi2Status status = INNER(in, p_fmi2SetFMUstate(in->inner, saved->inner));
    if (status <= fmi2Warning) {
        in->state = saved->state;
        in->set_up = saved->set_up;
        in->time = saved->time;
    }
    return finish(in, status);
}

EXPORT fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate *state)
{
    Instance *in = c;
    GATE(in, ANY_BUT_FATAL, "fmi2FreeFMUstate");
    if (!state || !*state)
        return fmi2OK;
    Saved *saved = *state;
    fmi2Status status = saved->inner ? INNER(in, p_fmi2FreeFMUstate(in->inner, &saved->inner)) : fmi2OK;
    free(saved);
    *state = NULL;
    return finish(in, status);
}

EXPORT fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate state, size_t *size)
{
    Instance *in = c;
    GATE(in, ANY_BUT_FATAL, "fmi2SerializedFMUstateSize");
    Saved *saved = saved_of(in, state, "fmi2SerializedFMUstateSize");
    if (!saved)
        return fmi2Error;
    if (!size)
        return refuse(in, "fmi2SerializedFMUstateSize: the size pointer is NULL");
    size_t inner = 0;
    fmi2Status status = INNER(in, p_fmi2SerializedFMUstateSize(in->inner, saved->inner, &inner));
    if (status <= fmi2Warning)
        *size = sizeof(SavedHeader) + inner;
    return finish(in, status);
}

EXPORT fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate state, fmi2Byte bytes[], size_t size)
{
    Instance *in = c;
    GATE(in, ANY_BUT_FATAL, "fmi2SerializeFMUstate");
    Saved *saved = saved_of(in, state, "fmi2SerializeFMUstate");
    if (!saved)
        return fmi2Error;
    size_t inner = 0;
    fmi2Status status = INNER(in, p_fmi2SerializedFMUstateSize(in->inner, saved->inner, &inner));
    if (status > fmi2Warning)
        return finish(in, status);
    if (!bytes || size != sizeof(SavedHeader) + inner)
        return refuse(in, "fmi2SerializeFMUstate: %zu bytes given for a state of %zu bytes "
                          "(fmi2SerializedFMUstateSize)", bytes ? size : 0, sizeof(SavedHeader) + inner);
    SavedHeader header;
    memset(&header, 0, sizeof header);
    memcpy(header.magic, SAVED_MAGIC, sizeof header.magic);
    header.state = saved->state;
    header.set_up = saved->set_up;
    header.time = saved->time;
    memcpy(bytes, &header, sizeof header);
    return finish(in, INNER(in, p_fmi2SerializeFMUstate(in->inner, saved->inner, bytes + sizeof header, inner)));
}

EXPORT fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte bytes[], size_t size, fmi2FMUstate *state)
{
    Instance *in = c;
    GATE(in, ANY_BUT_FATAL, "fmi2DeSerializeFMUstate");
    SavedHeader header;
    if (bytes && size >= sizeof header)
        memcpy(&header, bytes, sizeof header);
    if (!state || !bytes || size < sizeof header || memcmp(header.magic, SAVED_MAGIC, sizeof header.magic) != 0
        || !(header.state & ANY_BUT_FATAL) || (header.state & (header.state - 1)))
        return refuse(in, "fmi2DeSerializeFMUstate: the %zu bytes given are no FMU state this FMU serialized",
                      bytes ? size : 0);
    fmi2FMUstate inner = NULL;
    fmi2Status status = INNER(in, p_fmi2DeSerializeFMUstate(in->inner, bytes + sizeof header,
                                                            size - sizeof header, &inner));
    if (status > fmi2Warning) {
        if (inner)
            p_fmi2FreeFMUstate(in->inner, &inner);
        return finish(in, status);
    }
    fmi2Status kept = keep(in, state, inner, header.state, header.set_up, header.time);
    return kept != fmi2OK ? kept : finish(in, status);
}
