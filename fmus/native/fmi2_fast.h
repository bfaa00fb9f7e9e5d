/* crane-cosim's FMI 2.0 co-simulation binary for Linux: fmi2GetReal of
 * outputs, fmi2SetReal of inputs and fmi2SetRealInputDerivatives of
 * inputs without pythonfmu's lists.  Included at
 * the end of fmi2_shim.c, after fmi2_instance.h and before fmi2_calls.h.
 *
 * pythonfmu's binary builds, in every fmi2GetReal and fmi2SetReal, a Python
 * list of the value references (and one of the values), calls the slave's
 * method by name, and converts the list it returns back: some 3 us for the
 * 60 outputs of the crane, several times the copy itself.  A master calls
 * them tens of times a step.  So, once the instance is made, the shim takes
 * from the Python side (fmus/values.py, offer_to_binary) two of the slave's
 * methods and where its inputs and outputs sit among the value references:
 *
 *   outputs_now()  the outputs, as a float64 array (computed anew if an input
 *                  changed), or something else where the general path must
 *                  answer: outside stepping, or with a message waiting, which
 *                  only pythonfmu passes on;
 *   inputs_now()   the inputs' array, for the shim to write into (the slave
 *                  then computes its outputs anew at the next read), or
 *                  something else where the general path must take them;
 *   derivatives_now()  the inputs' first and second time derivatives, a row
 *                  each, for the shim to write into (the slave then looks
 *                  at them at its next step), or something else.
 *
 * A fmi2GetReal whose value references are all outputs, a fmi2SetReal
 * whose are all inputs with finite values, or a fmi2SetRealInputDerivatives
 * of inputs, of the first or second order, with finite values, in
 * stepComplete, is then one call of such a method and a copy through the
 * buffer protocol (the derivatives through pythonfmu's lists took some
 * 20 us for the 27 inputs of the spring-supported base); any other call,
 * any value that is not finite, and anything the Python side does not hand
 * over goes the general way, which checks, logs and answers as before.
 * Either way the values and the status are the same (tests/fmus).  The
 * environment variable CRANE_COSIM_FMU_GENERAL_PATH (set, not "0") sends
 * every call the general way, as an FMU without this path.
 */

/* Drop the methods taken (the instance is freed, or pythonfmu made another
 * Python slave at fmi2Reset). */
static void drop_fast(Instance *in)
{
    if (!in->fast_out && !in->fast_in && !in->fast_du)
        return;
    if (py_Py_IsInitialized()) { /* else the process is ending: nothing to give back */
        PyGILState_STATE gil = py_PyGILState_Ensure();
        if (in->fast_out)
            py_Py_DecRef(in->fast_out);
        if (in->fast_in)
            py_Py_DecRef(in->fast_in);
        if (in->fast_du)
            py_Py_DecRef(in->fast_du);
        py_PyGILState_Release(gil);
    }
    in->fast_out = in->fast_in = in->fast_du = NULL;
}

/* Take the methods the slave pythonfmu just made on this thread offered
 * (fmus/values.py, offer_to_binary); without them every call goes the
 * general way. */
static void take_fast(Instance *in)
{
    drop_fast(in);
    const char *off = getenv("CRANE_COSIM_FMU_GENERAL_PATH");
    if (off && *off && strcmp(off, "0") != 0)
        return;
    PyGILState_STATE gil = py_PyGILState_Ensure();
    PyObject *hub = py_PyImport_ImportModule("crane_cosim_fmu_slaves_1");
    PyObject *take = hub ? py_PyObject_GetAttrString(hub, "take") : NULL;
    PyObject *offer = take ? py_PyObject_CallNoArgs(take) : NULL;
    if (offer && py_PyTuple_Size(offer) == 7) {
        long n[4];
        int ok = 1;
        for (int i = 0; i < 4; ++i) {
            n[i] = py_PyLong_AsLong(py_PyTuple_GetItem(offer, 3 + i));
            ok = ok && n[i] >= 0;
        }
        if (ok) {
            in->fast_out = py_PyTuple_GetItem(offer, 0);
            in->fast_in = py_PyTuple_GetItem(offer, 1);
            in->fast_du = py_PyTuple_GetItem(offer, 2);
            py_Py_IncRef(in->fast_out);
            py_Py_IncRef(in->fast_in);
            py_Py_IncRef(in->fast_du);
            in->first_in = n[0], in->n_in = n[1], in->first_out = n[2], in->n_out = n[3];
        }
    }
    py_PyErr_Clear(); /* whatever failed, the general path answers */
    if (offer)
        py_Py_DecRef(offer);
    if (take)
        py_Py_DecRef(take);
    if (hub)
        py_Py_DecRef(hub);
    py_PyGILState_Release(gil);
}

/* Whether every one of the n value references is in [first, first + count). */
static int all_within(const fmi2ValueReference vr[], size_t n, long first, long count)
{
    for (size_t i = 0; i < n; ++i)
        if ((long)vr[i] < first || (long)vr[i] >= first + count)
            return 0;
    return 1;
}

/* The buffer of the array method() returns: C-contiguous float64 of count
 * values (writable if asked); 0 where it is not, the error cleared. */
static int array_of(PyObject *method, Py_buffer *view, long count, int writable)
{
    PyObject *array = py_PyObject_CallNoArgs(method);
    int ok = array && py_PyObject_GetBuffer(array, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT |
                                                            (writable ? PyBUF_WRITABLE : 0)) == 0;
    if (array)
        py_Py_DecRef(array); /* the slave keeps its array; the view holds it too */
    if (!ok) {
        py_PyErr_Clear();
        return 0;
    }
    if (view->itemsize != 8 || !view->format || strcmp(view->format, "d") != 0 || view->len != 8 * count) {
        py_PyBuffer_Release(view);
        return 0;
    }
    return 1;
}

/* fmi2GetReal of outputs only: 1 if answered (all finite), else 0. */
static int get_outputs_fast(Instance *in, const fmi2ValueReference vr[], size_t n, fmi2Real value[])
{
    if (!in->fast_out || in->state != STEP_COMPLETE || !all_within(vr, n, in->first_out, in->n_out))
        return 0;
    PyGILState_STATE gil = py_PyGILState_Ensure();
    Py_buffer view;
    int ok = array_of(in->fast_out, &view, in->n_out, 0);
    if (ok) {
        const double *y = view.buf;
        for (size_t i = 0; i < n && ok; ++i) {
            value[i] = y[vr[i] - in->first_out];
            ok = isfinite(value[i]); /* the general path names the output that is not */
        }
        py_PyBuffer_Release(&view);
    }
    py_PyGILState_Release(gil);
    return ok;
}

/* fmi2SetReal of finite inputs only: 1 if taken, else 0. */
static int set_inputs_fast(Instance *in, const fmi2ValueReference vr[], size_t n, const fmi2Real value[])
{
    if (!in->fast_in || in->state != STEP_COMPLETE || !all_within(vr, n, in->first_in, in->n_in))
        return 0;
    for (size_t i = 0; i < n; ++i)
        if (!isfinite(value[i])) /* refused by name on the general path */
            return 0;
    PyGILState_STATE gil = py_PyGILState_Ensure();
    Py_buffer view;
    int ok = array_of(in->fast_in, &view, in->n_in, 1);
    if (ok) {
        double *u = view.buf;
        for (size_t i = 0; i < n; ++i)
            u[vr[i] - in->first_in] = value[i];
        py_PyBuffer_Release(&view);
    }
    py_PyGILState_Release(gil);
    return ok;
}

/* fmi2SetRealInputDerivatives of the first and second derivatives of
 * inputs, finite: 1 if taken, else 0. */
static int set_derivatives_fast(Instance *in, const fmi2ValueReference vr[], size_t n, const fmi2Integer order[],
                                const fmi2Real value[])
{
    if (!in->fast_du || in->state != STEP_COMPLETE || !all_within(vr, n, in->first_in, in->n_in))
        return 0;
    for (size_t i = 0; i < n; ++i)
        if (order[i] < 1 || order[i] > 2 || !isfinite(value[i])) /* refused by name on the general path */
            return 0;
    PyGILState_STATE gil = py_PyGILState_Ensure();
    Py_buffer view;
    int ok = array_of(in->fast_du, &view, 2 * in->n_in, 1);
    if (ok) {
        double *du = view.buf;
        for (size_t i = 0; i < n; ++i)
            du[(order[i] - 1) * in->n_in + (vr[i] - in->first_in)] = value[i];
        py_PyBuffer_Release(&view);
    }
    py_PyGILState_Release(gil);
    return ok;
}
