"""Model Exchange FMUs stepped as co-simulation components: the master
integrates the FMU's continuous states between its communication points
with CVode (SUNDIALS, the build FMPy ships and drives through
``fmpy.sundials.CVodeSolver``) and handles its events as FMI 2.0 section
3.2.2 and FMI 3.0 section 3.2 require, so that every algorithm steps it
as it steps a co-simulation FMU.

A step from ``t`` over ``h``:

* The inputs are held over the step (zero-order hold, as the master holds
  a co-simulation FMU's); where they changed since the solver last ran,
  or after an event or a restored state, the solver starts afresh from
  the FMU's states at ``t`` (``CVodeReInit``): its history was made with
  the inputs of before.
* It integrates to ``t + h``, or to the FMU's next time event before it;
  CVode's root finding stops it at a state event (an event indicator
  changing sign); after each stretch the FMU is told the integrator step
  completed (``fmi2CompletedIntegratorStep``), where it asks to be, and
  may ask for event mode then (a step event).
* At an event of any of the three kinds: event mode, the discrete states
  updated until they settle (``fmi2NewDiscreteStates``,
  ``fmi3UpdateDiscreteStates``), continuous-time mode again, the solver
  started afresh.  A request to end the simulation ends the run, as a
  co-simulation FMU's does.

CVode's settings are fmpy's (:class:`Integration`).  A saved state is
the FMU's own with the time of its next event; restoring it starts the
solver afresh (docs/master.md, "Model Exchange FMUs").
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from time import perf_counter

import numpy as np
from fmpy.fmi2 import FMU2Model
from fmpy.fmi3 import FMU3Model
from fmpy.sundials import CVodeSolver

from ..errors import CraneCosimError
from .fmi2 import FMI2Instance
from .fmi3 import FMI3Instance
from .instance import Ended

__all__ = ["Integration", "FMI2ModelExchange", "FMI3ModelExchange", "RELATIVE_TOLERANCE"]

#: CVode's relative tolerance [-], FMPy's default for Model Exchange
RELATIVE_TOLERANCE = 1e-5

#: the fraction of a step [-] within which two times are one (an event at
#: the step's end, a stretch that reached it)
_SAME_TIME = 1e-9


@dataclass(frozen=True)
class Integration:
    """How the master integrates a Model Exchange FMU: ``relative_tolerance``
    [-] of CVode (its absolute tolerances are that fraction of the states'
    nominal values); ``max_step`` [s], the longest step it takes (FMPy's
    default: a fiftieth of the run)."""
    relative_tolerance: float = RELATIVE_TOLERANCE
    max_step: float = math.inf


@dataclass
class _Saved:
    """A Model Exchange instance's saved state: the FMU's own and the time
    of its next event (None: none)."""
    fmu_state: object
    next_event: float | None


class _ModelExchangeSteps:
    """The stepping of a Model Exchange FMU, for the instance classes of
    both FMI versions below.  ``UPDATE`` and ``DERIVATIVES``: the names of
    fmpy's calls of the event update and of the states' derivatives."""

    UPDATE = ""
    DERIVATIVES = ""

    def __init__(self, part, unzip_root, integration: Integration = Integration()):
        self.integration = integration
        self._solver = None
        self._next_event = None    # the time [s] of the FMU's next time event, or None
        self._fresh = True         # the solver starts afresh at the next step
        self._held = None          # the inputs the solver last integrated with
        self._failure = None       # an FMI call that failed inside the solver's callbacks
        super().__init__(part, unzip_root)

    def _load_steps(self, dll) -> None:
        self._state_slot = None
        self._steps_calls = None

    # -- initialization ----------------------------------------------------------------
    def initialize(self, start_time: float) -> None:
        """The version's initialization, then the event mode it leaves the
        FMU in (FMI 2.0 section 3.2.2): the discrete states settled,
        continuous-time mode, the solver set up at ``start_time`` [s]."""
        super().initialize(start_time)
        if self._settle_events():
            raise CraneCosimError(f"component {self.name} ({self.path.name}) asked to end the simulation in its "
                                  f"initial event update, at t = {start_time:g} s")
        self._call("enter continuous-time mode", self._slave.enterContinuousTimeMode)
        info = self.model.model_exchange
        self._n_states = info.states
        fmu = self._slave
        self._solver = self._call(
            "set up its integration", CVodeSolver, nx=info.states, nz=info.event_indicators,
            get_x=self._guarded(fmu.getContinuousStates), set_x=self._guarded(fmu.setContinuousStates),
            get_dx=self._guarded(getattr(fmu, self.DERIVATIVES)), get_z=self._guarded(fmu.getEventIndicators),
            get_nominals=self._guarded(fmu.getNominalsOfContinuousStates), set_time=self._guarded(fmu.setTime),
            input=_HeldInputs(), startTime=start_time, maxStep=self.integration.max_step,
            relativeTolerance=self.integration.relative_tolerance)
        self._raise_failure("set up its integration")
        self._fresh = False

    def _guarded(self, call):
        """``call`` that notes an FMI call's failure for the step to raise
        (an exception inside CVode's callbacks would be lost)."""
        def guarded(*args):
            if self._failure is None:
                try:
                    call(*args)
                except Exception as exc:
                    self._failure = exc
        return guarded

    def _raise_failure(self, what: str) -> None:
        if self._failure is not None:
            failure, self._failure = self._failure, None
            raise self.explain(what, failure)

    def _settle_events(self) -> bool:
        """The FMU's discrete states updated until they settle, in event
        mode; whether it asked to end the simulation.  Notes the time of
        its next time event."""
        update = getattr(self._slave, self.UPDATE)
        while True:
            again, terminate, _, _, defined, next_time = self._call("update its discrete states", update)
            if terminate:
                return True
            if not again:
                break
        self._next_event = next_time if defined else None
        return False

    # -- the step ------------------------------------------------------------------------
    def do_step(self, t: float, h: float) -> None:
        t0 = perf_counter()
        try:
            self._integrate(t, h)
        finally:
            self._fmi_time += perf_counter() - t0
            self._steps_made += 1

    def _integrate(self, t: float, h: float) -> None:
        """The FMU's states from ``t`` to ``t + h`` [s], events handled."""
        end = t + h
        near = _SAME_TIME * h
        held = (self._u_set.copy(), list(self.su))
        if self._fresh or self._held is None or not (np.array_equal(held[0], self._held[0])
                                                     and held[1] == self._held[1]):
            self._restart(t)
        self._held = held
        time = t
        while end - time > near:
            target = end
            time_event = self._next_event is not None and self._next_event < end + near
            if time_event:
                target = max(min(self._next_event, end), time)
            state_event, _, time = self._solver.step(time, target) if target > time else (False, None, time)
            self._raise_failure(f"integrate its step from t = {t:g} s")
            self._call(f"take the time {time:g} s", self._slave.setTime, time)
            step_event, terminate = False, False
            if self.model.model_exchange.completed_step_needed:
                step_event, terminate = self._call("complete an integrator step", self._slave.completedIntegratorStep,
                                                   not self.may_roll_back)
            time_event = time_event and time >= self._next_event - near
            if not terminate and (state_event or step_event or time_event):
                self._call(f"enter event mode at t = {time:g} s", self._slave.enterEventMode)
                terminate = self._settle_events()
                if not terminate:
                    self._call("enter continuous-time mode", self._slave.enterContinuousTimeMode)
                    self._restart(time)
            if terminate:
                self._end_at(t, h, time)
                return

    def _restart(self, time: float) -> None:
        """The solver started afresh from the FMU's states at ``time`` [s]."""
        self._solver.reset(time)
        self._raise_failure(f"restart its integration at t = {time:g} s")
        self._fresh = False

    def _end_at(self, t: float, h: float, time: float) -> None:
        """The FMU asked to end the simulation at ``time`` [s] in the step
        from ``t`` over ``h``: at the step's end, the run ends there;
        before it, at the step's start (as a co-simulation FMU's step that
        did not complete)."""
        if time >= t + h * (1 - _SAME_TIME):
            self.ends.append(Ended(self.name, t + h, completed=True))
            return
        raise Ended(self.name, t)

    def set_during_run(self, var, value) -> None:
        """An input set in continuous-time mode; a tunable parameter in event
        mode, the only one in which FMI lets a host change it (the Model
        Exchange state machines of FMI 2.0 and 3.0), the discrete states
        then settled as at any event.  The solver starts afresh: its history was
        made with the value of before."""
        if var.causality != "parameter":
            super().set_during_run(var, value)
        else:
            self._call(f"enter event mode to set {var.name}", self._slave.enterEventMode)
            super().set_during_run(var, value)
            if self._settle_events():
                raise CraneCosimError(f"component {self.name} ({self.path.name}) asked to end the simulation when "
                                      f"its {var.name} was set")
            self._call("enter continuous-time mode", self._slave.enterContinuousTimeMode)
        self._fresh = True

    # -- saved states ----------------------------------------------------------------------
    def save_state(self):
        return _Saved(super().save_state(), self._next_event)

    def restore_state(self, state) -> None:
        t0 = perf_counter()
        self._call("restore its state", self._slave_set_state, state.fmu_state)
        self._fmi_time += perf_counter() - t0
        self._next_event = state.next_event
        self._fresh = True

    def free_state(self, state) -> None:
        super().free_state(state.fmu_state)

    def free(self) -> None:
        self._solver = None   # CVode's memory, freed before the FMU it calls
        super().free()


class _HeldInputs:
    """The inputs as ``CVodeSolver`` asks for them: the master set them
    before the step, and they are held over it."""

    def apply(self, time, continuous=True, discrete=True, after_event=False):
        pass


class FMI2ModelExchange(_ModelExchangeSteps, FMI2Instance):
    """An FMI 2.0 Model Exchange FMU (fmpy's ``FMU2Model``)."""
    FMU = FMU2Model
    UPDATE = "newDiscreteStates"
    DERIVATIVES = "getDerivatives"


class FMI3ModelExchange(_ModelExchangeSteps, FMI3Instance):
    """An FMI 3.0 Model Exchange FMU (fmpy's ``FMU3Model``)."""
    UPDATE = "updateDiscreteStates"
    DERIVATIVES = "getContinuousStateDerivatives"

    def _opened(self, unzip_dir: str, logger):
        fmu = FMU3Model(guid=self.model.token, unzipDirectory=unzip_dir, modelIdentifier=self.model.model_identifier,
                        instanceName=self.name)
        fmu.instantiate(loggingOn=True, logMessage=logger)
        return fmu
