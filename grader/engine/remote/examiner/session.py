"""The session: one subject at a time, and what the current check holds of it."""

from __future__ import annotations

import os
import sys
import time
from typing import Any

import jax
import numpy as np

from grader.engine.remote import codec
from grader.engine.remote.codec import WireError
from grader.engine.remote.examiner.incoming import Incoming
from grader.engine.remote.examiner.outgoing import Outgoing
from grader.engine.remote.examiner.process import DEBUG_ENV, SUBJECT_START_SECONDS, Subject, SubjectFailure
from grader.engine.remote.examiner.proxies import RemoteObject
from grader.engine.remote.examiner.shipping import EMPTY, cell_value
from grader.engine.remote.launch import SubjectConfig
from grader.engine.remote.protocol import SETTINGS


# --- the session: one subject, the proxies of the current check -------------------------------------


# Request fields whose dicts the examiner builds for the request alone (never a check's own object).
ENVELOPE_FIELDS = ("kwargs", "settings", "options", "set")


class Session(Outgoing, Incoming):
    """The examiner's connection to one subject, restarted when it dies (the `Link` its proxies
    ask through)."""

    def __init__(self, config: SubjectConfig) -> None:
        self.config = config
        self.subject: Subject | None = None
        self.greeted = False
        self.proxies: dict[int, RemoteObject] = {}
        self.shipped: dict[Any, Any] = {}  # our id -> the object shipped (kept alive while the check runs)
        self.delivered: set[int] = set()  # ids of the functions and classes this subject has, this check
        self.shipping: list[int] = []  # ... and of those the request being sent ships
        self.array_handles: dict[int, tuple] = {}  # id(array) -> (weak reference, hid, generation)
        self.node_types: dict[int, type] = {}
        self.generation = 0  # a new check, or a new subject: earlier handles mean nothing
        self.cells: dict[int, list] = {}  # id(cell) -> [a shipped closure's cell, what it held when sent, assignable there]
        self.last_settings: dict[str, tuple] = {}  # the check's JAX settings as last sent
        self.deadline: float | None = None
        self.round_trips = 0
        self.envelope: set[int] = set()  # ids of the containers of the request being sent
        self.plain_types: set[type] = set()  # kinds `_refer` never refers (see Encoder.plain)
        self.refused: list[str] = []  # refusals seen, for the review flag
        # Programs the learner compiled ahead of time (`.lower().compile()`), by the exercise file being
        # checked then: a kept `jax.stages.Compiled` runs later without any compile a count could see.
        self.exercise = ""
        self.ahead_of_time: dict[str, list[str]] = {}

    # --- the process ---------------------------------------------------------------------------------

    def launch(self) -> None:
        """Start a subject now, without waiting for it: it imports JAX while the examiner gets ready."""
        if self.subject is None or not self.subject.alive():
            if self.subject is not None:
                self.subject.stop()
            self.subject = Subject(self.config)
            self.greeted = False
            self.generation += 1
            self.proxies.clear()
            self.delivered.clear()

    def start(self) -> None:
        if self.subject is not None and self.subject.alive() and self.greeted:
            return
        self.launch()
        self.greeted = True
        hello = self._send({"op": "hello", "version": codec.VERSION}, time.monotonic() + SUBJECT_START_SECONDS)
        if hello.get("version") != codec.VERSION:
            raise SubjectFailure("the submission's process speaks another protocol version", "crash")

    def stop(self) -> None:
        if self.subject is not None:
            self.subject.stop()
            self.subject = None
            self.greeted = False

    def replace(self) -> None:
        """End the subject (it died, hung or refused) and start the next one now: it starts JAX while
        the examiner reports the failure, instead of in the next check's wait."""
        self.stop()
        self.launch()

    def witness(self) -> None:
        """Fail the check, flagged for review, when the subject's keeper (outside the submission's
        process, see subject.keeper) says the subject started processes of its own: they end with it."""
        if not sys.platform.startswith("linux") or self.subject is None or not self.greeted or not self.subject.alive():
            return
        failure = self.subject.census()
        if failure is not None:
            self.refused.append(failure.refused)
            self.replace()
            raise failure

    def end_check(self) -> None:
        """Forget everything of the check that ended (the subject forgets its side at the next `load`)."""
        self.proxies.clear()
        self.shipped.clear()
        self.delivered.clear()
        self.cells.clear()
        self.generation += 1

    # --- requests ---------------------------------------------------------------------------------------

    def request(self, op: str, **fields: Any) -> Any:
        self.start()
        return self._send({"op": op, **fields}, self.deadline)

    def _send(self, body: dict, deadline: float | None) -> Any:
        changed = self._changed_cells()
        if changed:
            body["cells"] = changed
        # The request's own containers are new each time: sent by value, not mirrored like a check's.
        own = [body[k] for k in ENVELOPE_FIELDS if isinstance(body.get(k), dict)]
        own += [parts for parts in (body.get("settings") or {}).values() if isinstance(parts, dict)]
        self.envelope = {id(body)} | {id(container) for container in own}
        encoder = self.encoder()
        self.shipping = []
        data = encoder.dumps(body)
        memo = encoder.remembered()
        try:
            answer = self.subject.exchange(data, deadline)
        except SubjectFailure as failure:
            if failure.refused:
                self.refused.append(failure.refused)
            if os.environ.get(DEBUG_ENV):
                print(f"[katas] {body.get('op')} failed: {failure}", file=sys.stderr)
            self.replace()
            raise
        except BaseException:
            self.replace()  # interrupted mid-request (the check's time ran out): the subject may be stuck
            raise
        self.round_trips += 1
        try:
            reply = self.decode(answer, memo)
        except WireError as error:
            if os.environ.get(DEBUG_ENV):
                print(f"[katas] {body.get('op')} answer unreadable: {error}", file=sys.stderr)
            self.replace()
            raise SubjectFailure(f"the submission's process sent an unreadable answer ({error})", "crash") from None
        if not isinstance(reply, dict) or "ok" not in reply:
            self.replace()
            raise SubjectFailure("the submission's process sent an answer of the wrong shape", "crash")
        if reply["ok"] or not isinstance(reply.get("error"), WireError):  # the subject read the request
            self.delivered.update(self.shipping)
        try:
            self._apply_effects(reply.get("effects") or {}, memo)
        except SubjectFailure as failure:
            self.refused.append(failure.refused)
            self.replace()
            raise
        if not reply["ok"]:
            error = reply.get("error")
            if isinstance(error, MemoryError):
                self.replace()  # what the subject took may stay taken (the submission can hold it)
            if os.environ.get(DEBUG_ENV):
                print(f"[katas] {body.get('op')} failed in the subject: {error!r}", file=sys.stderr)
            raise error if isinstance(error, BaseException) else SubjectFailure("an error without a cause", "crash")
        return reply.get("value")

    def _apply_effects(self, effects: dict, memo: dict[int, Any]) -> None:
        if effects.get("out"):
            sys.stdout.write(str(effects["out"]))
        if effects.get("err"):
            sys.stderr.write(str(effects["err"]))
        for category, message in effects.get("warnings", []):
            import warnings

            warnings.warn(str(message), category if isinstance(category, type) and issubclass(category, Warning)
                          else UserWarning, stacklevel=3)
        if effects.get("compiles"):
            from grader.checks import compiles

            records = [(str(name), bool(eager), _signature(sig), _body(body)) for name, eager, sig, body in effects["compiles"]]
            compiles.note_compiles(records)
            self.ahead_of_time.setdefault(self.exercise, []).extend(
                name for name, eager, _, body in records if not eager and body is None)
        for index in effects.get("deleted", []):
            obj = memo.get(int(index))
            if isinstance(obj, jax.Array) and not obj.is_deleted():
                obj.delete()
        for hid in effects.get("deleted_handles", []):
            for array in self.arrays_of(int(hid)):
                if not array.is_deleted():
                    array.delete()
        for index, hid in (effects.get("handles") or {}).items():
            obj = memo.get(int(index))
            if isinstance(obj, jax.Array):
                self.remember_array(obj, int(hid))
        for examiner_id, state in (effects.get("mirror") or {}).items():
            _update_in_place(self.shipped.get(int(examiner_id)), state)
        for cell_id, value in (effects.get("cells") or {}).items():
            entry = self.cells.get(int(cell_id))
            if entry is None:
                continue
            if not entry[2]:  # only a rewritten subject says so: no shipped code can assign it
                raise SubjectFailure("did something an exercise never needs, refused by the grader: changed a "
                                     "variable of the checks that no code it was handed assigns", "refused",
                                     "rebinds a variable of the checks")
            entry[0].cell_contents = value
            entry[1] = value

    def _changed_cells(self) -> dict[int, Any]:
        """Closure variables of shipped functions that changed here since they were last sent (a
        variable bound after the function was shipped, such as `original` in `with swap_function(...)
        as original`)."""
        changed = {}
        for cell_id, entry in self.cells.items():
            now = cell_value(entry[0])
            if now is not entry[1]:
                entry[1] = now
                if now is not EMPTY:
                    changed[cell_id] = now
        return changed

    # --- the settings a call runs under -----------------------------------------------------------------

    def context(self, *, full: bool = False) -> dict[str, Any]:
        """The JAX settings the check changed since the last request (all of them with `full`), and
        its mesh. As in one process, a setting the answer changed stays changed until the check
        changes it: only the check's own changes travel."""
        from jax._src import config as jax_config
        from jax._src import mesh as mesh_lib

        settings = {}
        for name in SETTINGS:
            state = jax_config.config_states.get(name)
            if state is None:
                continue
            now = (state.get_global(), state.get_local())
            last = self.last_settings.get(name, (EMPTY, EMPTY))
            changed = {part: value for part, value, before in zip(("global", "local"), now, last)
                       if full or value is not before and value != before}
            if changed:
                settings[name] = changed
            self.last_settings[name] = now
        mesh = mesh_lib.get_concrete_mesh()
        return {"settings": settings, "mesh": None if mesh is None or mesh.empty else mesh}


def _body(body: Any) -> Any:
    """A compiled program's (output types, (primitive name, number of its equations) pairs) as the
    subject reported them."""
    if body is None:
        return None
    outputs, primitives = body
    return _signature(outputs), tuple((str(name), int(n)) for name, n in primitives)


def _signature(sig: Any) -> Any:
    if sig is None:
        return None
    return tuple((tuple(int(n) for n in shape), str(dtype)) for shape, dtype in sig)


def _update_in_place(obj: Any, state: Any) -> None:
    """Make the check's object look as the subject's copy does after the call."""
    if obj is None:
        return
    if isinstance(obj, list) and isinstance(state, list):
        obj[:] = state
    elif isinstance(obj, dict) and isinstance(state, dict):
        obj.clear()
        obj.update(state)
    elif isinstance(obj, set) and isinstance(state, set):
        obj.clear()
        obj.update(state)
    elif isinstance(obj, np.ndarray) and isinstance(state, np.ndarray):
        _copy_array_into(obj, state)
    elif isinstance(state, dict) and hasattr(obj, "__dict__"):
        obj.__dict__.update(state)


def _copy_array_into(obj: np.ndarray, state: np.ndarray) -> None:
    """The check's array made what the subject's copy became: its dtype, shape and values, changed in
    place as the exercise changed them there. A change that cannot be made here (a view whose shape
    cannot change, an array the check holds read-only) fails the call as the change in place it is:
    dropping it would show the check an untouched input."""
    try:
        if obj.dtype != state.dtype:
            obj.dtype = state.dtype
        if obj.shape != state.shape:
            obj.shape = state.shape
        np.copyto(obj, state, casting="no")
    except (AttributeError, TypeError, ValueError) as error:
        from grader.core.failures import KataFailure

        raise KataFailure(
            f"The exercise changed an input array in place (to {state.dtype}{list(state.shape)}), in a way "
            f"the caller's array cannot follow ({error}). Return new arrays instead of changing the ones "
            "you are given: a function that changes its inputs is not pure, and jax.jit assumes it is.",
            "mutates-input") from None
