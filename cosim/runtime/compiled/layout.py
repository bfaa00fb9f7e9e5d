"""The layout of the arrays the compiled master step reads and writes
(``engine.py`` makes them, ``step.py`` says what each holds): the columns
of the components' tables, the addresses of ``misc``, the slots of
``ints`` and ``floats``, and the kinds of fault a step reports."""

#: columns of ci (per component: counts and flags; N_OUT its Real outputs, the first
#: of its outputs, N_TYPED the Boolean or Integer ones after them, connected to nothing)
N_IN, N_OUT, OFFSET, NO_PRIOR, FIXED_STEP, N_TYPED = 0, 1, 2, 3, 4, 5
#: columns of ca (per component: addresses)
#: (POST_STEPS, COLLECT_STEPS: the proxy's calls of a step in one crossing, 0 where
#: the binary has none)
#: (GET_TYPED, VR_TYPED, TYPED: the call that reads the outputs after the Real ones, their
#: value references and the fmi2Integer array they are read into)
(COMPONENT, GET_REAL, SET_REAL, DO_STEP, GET_STATE, SET_STATE, VR_IN, VR_OUT, U, Y, U_RAW, SLOT, SET_DERIVATIVES,
 DU_VR, DU_ORDER, DU, GET_BOOLEAN_STATUS, GET_REAL_STATUS, POST_STEPS, COLLECT_STEPS, GET_TYPED, VR_TYPED,
 TYPED) = range(23)
#: columns of plan: the pass, the component, whether it steps in halves, whether
#: its second half is made at once, whether it steps at the same time as the
#: rows before it (its sources stepped before this pass)
PASS, STEPPED, HALVES, LAST, TOGETHER = range(5)
#: the calls of a step in one crossing, in their order (``which`` a collect reports)
SAVE_CALL, RESTORE_CALL, SET_CALL, STEP_CALL, GET_CALL, SECOND_STEP_CALL = 1, 2, 3, 4, 5, 6
#: misc: the addresses of clock_gettime and of a timespec; the monotonic
#: clock's id on this system (``time.CLOCK_MONOTONIC``); the address of a
#: double for an FMU's answer to a status query
CLOCK, TIMESPEC, CLOCK_ID, ANSWER = 0, 1, 2, 3
#: fmi2StatusKind: fmi2LastSuccessfulTime, fmi2Terminated (FMI 2.0, section 4.2.3)
LAST_SUCCESSFUL_TIME, TERMINATED = 2, 3
#: ints: the settled mid-step values kept (then, per loop, its settled points kept);
#: floats: the steps the histories are of, the settling bound, the quasi-Newton step's
#: growth limit, the scales' floor, the steps whose columns are reused, the rounds at most
HIST_COUNT = 0
LAST_H, POINT_H, SETTLE_TOL, GROWTH_LIMIT, FLOOR_OF, REUSE_STEPS, ROUNDS = 0, 1, 2, 3, 4, 5, 6
#: fault: kind, component, status; its time in fault_t
(OK, FAILED_STEP, FAILED_SET, FAILED_GET, FAILED_SAVE, FAILED_RESTORE, NOT_FINITE, NOT_FINITE_END,
 FAILED_DERIVATIVES) = range(9)
STATUS_DISCARD = 2
#: the bit of a step's result that says a component discarded a step
DISCARDED = 16
