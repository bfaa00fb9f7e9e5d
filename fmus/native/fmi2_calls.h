/* crane-cosim's FMI 2.0 co-simulation binary for Linux: creation, logging,
 * initialization, values and the step, each call checked against FMI 2.0's
 * state machine and given its status by the rules of fmi2_instance.h.
 * Included at the end of fmi2_shim.c, after fmi2_instance.h. */

/* -- creation, logging ------------------------------------------------------ */

static void cannot_instantiate(const fmi2CallbackFunctions *functions, fmi2String instanceName, const char *why)
{
    char message[512];
    snprintf(message, sizeof message, "%s: fmi2Instantiate: %s", model_name, why);
    if (functions && functions->logger)
        functions->logger(functions->componentEnvironment, instanceName ? instanceName : "", fmi2Error,
                          "logStatusError", message);
    else
        fprintf(stderr, "%s\n", message);
}

EXPORT fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType, fmi2String guid,
                                     fmi2String resources, const fmi2CallbackFunctions *functions,
                                     fmi2Boolean visible, fmi2Boolean loggingOn)
{
    if (setup_error[0] || !p_fmi2Instantiate) {
        report(functions, instanceName);
        return NULL;
    }
    const char *why = !instanceName || !*instanceName ? "the instance name is empty"
                      : fmuType != fmi2CoSimulation  ? "this FMU is for co-simulation only (fmi2CoSimulation)"
                      : !resources                   ? "fmuResourceLocation is NULL"
                                                     : NULL;
    if (why) {
        cannot_instantiate(functions, instanceName, why);
        return NULL;
    }
    Instance *in = calloc(1, sizeof *in);
    if (!in)
        return NULL;
    if (functions)
        in->host = *functions;
    in->mine = in->host;
    in->mine.logger = from_pythonfmu;
    in->mine.componentEnvironment = in;
    in->name = strdup(instanceName);
    in->state = INSTANTIATED;
    in->logging = loggingOn ? ALL_CATEGORIES : 0;
    if (in->name)
        in->inner = p_fmi2Instantiate(instanceName, fmuType, guid, resources, &in->mine, visible, fmi2True);
    if (!in->inner) {
        free(in->name);
        free(in);
        return NULL;
    }
    take_fast(in);
    return in;
}

EXPORT void fmi2FreeInstance(fmi2Component c)
{
    Instance *in = c;
    if (!in)
        return;
    drop_fast(in);
    if (p_fmi2FreeInstance)
        p_fmi2FreeInstance(in->inner);
    free(in->name);
    free(in);
}

EXPORT fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean loggingOn, size_t n, const fmi2String categories[])
{
    Instance *in = c;
    GATE(in, ANY_BUT_FATAL, "fmi2SetDebugLogging");
    unsigned bits = n ? 0 : ALL_CATEGORIES;
    for (size_t i = 0; i < n; ++i) {
        unsigned bit = categories ? category_bit(categories[i]) : 0;
        if (!bit)
            return refuse(in, "fmi2SetDebugLogging: %s is none of this FMU's log categories (logStatusWarning, "
                              "logStatusDiscard, logStatusError, logStatusFatal, logAll)",
                          categories && categories[i] ? categories[i] : "NULL");
        bits |= bit;
    }
    in->logging = loggingOn ? in->logging | bits : in->logging & ~bits;
    return fmi2OK;
}

/* -- initialization, termination, reset ------------------------------------- */

EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean toleranceDefined, fmi2Real tolerance,
                                      fmi2Real startTime, fmi2Boolean stopTimeDefined, fmi2Real stopTime)
{
    Instance *in = c;
    GATE(in, INSTANTIATED, "fmi2SetupExperiment");
    if (!isfinite(startTime) || (stopTimeDefined && !(stopTime >= startTime && isfinite(stopTime))))
        return refuse(in, "fmi2SetupExperiment: start time %g s%s%g s: the start time must be a finite number, "
                          "and the stop time, if defined, a finite number not before it",
                      startTime, stopTimeDefined ? ", stop time " : " (stop time not defined: ",
                      stopTimeDefined ? stopTime : 0.0);
    fmi2Status status = INNER(in, p_fmi2SetupExperiment(in->inner, toleranceDefined, tolerance, startTime,
                                                        stopTimeDefined, stopTime));
    if (status <= fmi2Warning) {
        in->set_up = 1;
        in->time = startTime;
        in->stop_defined = stopTimeDefined != fmi2False;
        in->stop = stopTime;
    }
    return finish(in, status);
}

EXPORT fmi2Status fmi2EnterInitializationMode(fmi2Component c)
{
    Instance *in = c;
    GATE(in, INSTANTIATED, "fmi2EnterInitializationMode");
    if (!in->set_up)
        return refuse(in, "fmi2EnterInitializationMode before fmi2SetupExperiment, which sets the start time "
                          "(FMI 2.0 section 2.1.6)");
    fmi2Status status = INNER(in, p_fmi2EnterInitializationMode(in->inner));
    if (status <= fmi2Warning)
        in->state = INITIALIZATION_MODE;
    return finish(in, status);
}

EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c)
{
    Instance *in = c;
    GATE(in, INITIALIZATION_MODE, "fmi2ExitInitializationMode");
    fmi2Status status = INNER(in, p_fmi2ExitInitializationMode(in->inner));
    if (status <= fmi2Warning)
        in->state = STEP_COMPLETE;
    return finish(in, status);
}

EXPORT fmi2Status fmi2Terminate(fmi2Component c)
{
    Instance *in = c;
    GATE(in, STEP_COMPLETE, "fmi2Terminate");
    fmi2Status status = INNER(in, p_fmi2Terminate(in->inner));
    if (status <= fmi2Warning)
        in->state = TERMINATED;
    return finish(in, status);
}

EXPORT fmi2Status fmi2Reset(fmi2Component c)
{
    Instance *in = c;
    GATE(in, ANY_BUT_FATAL, "fmi2Reset");
    fmi2Status status = INNER(in, p_fmi2Reset(in->inner));
    take_fast(in); /* pythonfmu made another Python slave */
    if (status <= fmi2Warning) {
        in->state = INSTANTIATED;
        in->set_up = in->stop_defined = 0;
        in->time = 0.0;
    }
    return finish(in, status);
}

/* -- values ---------------------------------------------------------------- */

/* fmi2GetXXX and fmi2SetXXX: the state, the arrays, then pythonfmu's
 * binary; the Python side checks each value reference (fmus/values.py). */
#define VALUES(name, value_type, allowed, check)                                                                   \
    EXPORT fmi2Status name(fmi2Component c, const fmi2ValueReference vr[], size_t n, value_type value)             \
    {                                                                                                              \
        Instance *in = c;                                                                                          \
        GATE(in, allowed, #name);                                                                                  \
        if (n == 0)                                                                                                \
            return fmi2OK;                                                                                         \
        if (!vr || !value)                                                                                         \
            return refuse(in, #name ": the %s is NULL (%zu values)", vr ? "value array" : "value reference array", \
                          n);                                                                                      \
        check;                                                                                                     \
        return finish(in, INNER(in, p_##name(in->inner, vr, n, value)));                                          \
    }

/* Value references from CRANE_COSIM_DERIVATIVE_VR on carry input derivatives
 * to the Python side (fmi2SetRealInputDerivatives below): a host's own are
 * none of the FMU's. */
#define NO_DERIVATIVE_CODES                                                                                        \
    for (size_t i = 0; i < n; ++i)                                                                                 \
        if (vr[i] >= CRANE_COSIM_DERIVATIVE_VR)                                                                    \
            return refuse(in, "fmi2SetReal: value reference %u is none of this FMU's", (unsigned)vr[i]);

VALUES(fmi2GetReal, fmi2Real *, READABLE, if (get_outputs_fast(in, vr, n, value)) return fmi2OK)
VALUES(fmi2GetInteger, fmi2Integer *, READABLE, (void)0)
VALUES(fmi2GetBoolean, fmi2Boolean *, READABLE, (void)0)
VALUES(fmi2GetString, fmi2String *, READABLE, (void)0)
VALUES(fmi2SetReal, const fmi2Real *, WRITABLE, NO_DERIVATIVE_CODES if (set_inputs_fast(in, vr, n, value)) return fmi2OK)
VALUES(fmi2SetInteger, const fmi2Integer *, WRITABLE, (void)0)
VALUES(fmi2SetBoolean, const fmi2Boolean *, WRITABLE, (void)0)
VALUES(fmi2SetString, const fmi2String *, WRITABLE, (void)0)

/* Only the first and second derivatives are used (the inputs follow a
 * quadratic over a step), passed on to the Python side as one fmi2SetReal of
 * the value references order * CRANE_COSIM_DERIVATIVE_VR + vr (item 4 of
 * fmi2_shim.c); a higher order is refused. */
EXPORT fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                              const fmi2Integer order[], const fmi2Real value[])
{
    Instance *in = c;
    GATE(in, WRITABLE, "fmi2SetRealInputDerivatives");
    if (n == 0)
        return fmi2OK;
    if (!vr || !order || !value)
        return refuse(in, "fmi2SetRealInputDerivatives: an array is NULL (%zu values)", n);
    if (set_derivatives_fast(in, vr, n, order, value))
        return fmi2OK;
    fmi2ValueReference *coded = malloc(n * sizeof *coded);
    if (!coded)
        return refuse(in, "fmi2SetRealInputDerivatives: out of memory");
    for (size_t i = 0; i < n; ++i) {
        if (order[i] < 1 || order[i] > 2 || vr[i] >= CRANE_COSIM_DERIVATIVE_VR) {
            free(coded);
            return refuse(in, "fmi2SetRealInputDerivatives: derivative of order %d of value reference %u refused: "
                              "this FMU takes the first and second derivatives of its inputs",
                          (int)order[i], (unsigned)vr[i]);
        }
        coded[i] = (fmi2ValueReference)order[i] * CRANE_COSIM_DERIVATIVE_VR + vr[i];
    }
    fmi2Status status = INNER(in, p_fmi2SetReal(in->inner, coded, n, value));
    free(coded);
    return finish(in, status);
}

EXPORT fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                               const fmi2Integer order[], fmi2Real value[])
{
    Instance *in = c;
    (void)vr, (void)n, (void)order, (void)value;
    GATE(in, STEP_COMPLETE | TERMINATED | ERROR_STATE, "fmi2GetRealOutputDerivatives");
    return refuse(in, "fmi2GetRealOutputDerivatives: this FMU gives no output derivatives "
                      "(maxOutputDerivativeOrder is 0)");
}

EXPORT fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference unknowns[], size_t nu,
                                               const fmi2ValueReference knowns[], size_t nk,
                                               const fmi2Real dv_known[], fmi2Real dv_unknown[])
{
    Instance *in = c;
    (void)unknowns, (void)nu, (void)knowns, (void)nk, (void)dv_known, (void)dv_unknown;
    GATE(in, READABLE, "fmi2GetDirectionalDerivative");
    return refuse(in, "fmi2GetDirectionalDerivative: this FMU gives no directional derivatives "
                      "(providesDirectionalDerivative is false)");
}

/* -- the step ----------------------------------------------------------------- */

EXPORT fmi2Status fmi2DoStep(fmi2Component c, fmi2Real t, fmi2Real h, fmi2Boolean noSetFMUStatePriorToCurrentPoint)
{
    Instance *in = c;
    GATE(in, STEP_COMPLETE, "fmi2DoStep");
    if (!isfinite(t) || !isfinite(h) || !(h > 0))
        return refuse(in, "fmi2DoStep from t = %.17g s over h = %.17g s refused: the step size must be a positive "
                          "finite number, the communication point a finite one (FMI 2.0 section 4.2.2)", t, h);
    /* the same time to round-off (a host that counts in integer nanoseconds, or sums its steps) */
    double slack = 1e-9 * (in->time > 1.0 ? in->time : in->time < -1.0 ? -in->time : 1.0);
    if (t - in->time > slack || in->time - t > slack)
        return refuse(in, "fmi2DoStep from t = %.17g s refused: the FMU is at t = %.17g s (where its last step "
                          "ended, its start time or the time of the state restored), and the communication "
                          "point must be its time (FMI 2.0 section 4.2.2)", t, in->time);
    if (in->stop_defined && t + h > in->stop + slack + 1e-6 * h)
        return refuse(in, "fmi2DoStep from t = %g s over h = %g s refused: it would end past the stop time "
                          "%.17g s set by fmi2SetupExperiment (FMI 2.0 section 2.1.6)", t, h, in->stop);
    fmi2Status status = INNER(in, p_fmi2DoStep(in->inner, t, h, noSetFMUStatePriorToCurrentPoint));
    if (status == fmi2Discard) {
        /* the Python side's do_step returned false: it has said why */
        if (!in->error_logged)
            say(in, fmi2Error, "fmi2DoStep from t = %g s failed", t);
        status = fmi2Error;
    }
    if (status <= fmi2Warning)
        in->time = t + h;
    return finish(in, status);
}

EXPORT fmi2Status fmi2CancelStep(fmi2Component c)
{
    Instance *in = c;
    if (!in)
        return fmi2Error;
    return refuse(in, "fmi2CancelStep is not allowed in state %s (FMI 2.0 section 4.2.4): no step is in "
                      "progress, this FMU never steps asynchronously", state_name(in->state));
}

