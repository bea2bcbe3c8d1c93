"""The exercise as a check sees it (RemoteModule), and the check helpers' questions put to the
subject (RemoteSite)."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import time
from collections.abc import Iterator
from typing import Any

from grader.checks.core import KataFailure
from grader.engine.remote.examiner.process import SubjectFailure
from grader.engine.remote.examiner.proxies import RemoteAttribute, RemoteObject
from grader.engine.remote.examiner.session import Session
from grader.engine.remote.launch import SubjectConfig


# --- the exercise as a check sees it ------------------------------------------------------------------


class RemoteModule(RemoteObject):
    """The exercise module in the subject, as the `exercise` fixture hands it to a check."""

    __slots__ = ("label", "manifest_path", "_functions", "_attributes")

    def __init__(self, session: Session, hid: int, label: str, functions: dict | None = None) -> None:
        super().__init__(session, hid, {"type": "module", "name": label})
        object.__setattr__(self, "label", label)
        object.__setattr__(self, "_functions", dict(functions or {}))  # names bound to functions at import
        object.__setattr__(self, "_attributes", {})

    @property
    def module(self) -> RemoteObject:
        return self

    @property
    def __dict__(self) -> dict:  # noqa: PLE0237 - what vars(exercise.module) reads
        return self._session.request("getattr", obj=self, name="__dict__")

    def __setattr__(self, name: str, value: Any) -> None:
        self._functions.pop(name, None)  # whatever it was bound to, it is now what the check set
        self._attributes.pop(name, None)
        super().__setattr__(name, value)

    def __getattr__(self, name: str) -> Any:
        from grader.checks import fail

        if name.startswith("__") and name.endswith("__") and name != "__file__":
            raise AttributeError(name)
        if name in self._functions:
            if name not in self._attributes:
                self._attributes[name] = RemoteAttribute(self, name, self._functions[name])
            return self._attributes[name]
        try:
            return self._session.request("getattr", obj=self, name=name)
        except AttributeError:
            fail(f"{self.label} has no `{name}`: the checks use it by that name. Keep the names "
                 f"and signatures the exercise gives (restore the stub with git if needed).", "missing")


def load(session: Session, path: str, label: str) -> RemoteModule:
    """Import the exercise file at manifest path `path` in the subject (fresh, for one check); import
    failures as the plugin reports them."""
    # Each check starts with the subject's settings as the examiner's are (a check's fixtures restore
    # them between checks, as they would in one process).
    session.exercise = path  # what compiles from now on are filed under
    found = session.request("load", path=path, label=label, **session.context(full=True))
    if "failure" in found:
        code, message = found["failure"]
        if code == "memory-limit":  # the module may hold what it took past its failed import
            session.replace()
        raise KataFailure(str(message), str(code))
    module = RemoteModule(session, int(found["module"]), label, dict(found.get("functions") or {}))
    object.__setattr__(module, "manifest_path", path)
    session.proxies[module._hid] = module
    return module


# --- what the check helpers ask of the subject ----------------------------------------------------------


class RemoteSite:
    """grader.checks.site for a graded run: the helpers' questions, put to the subject."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.launches: dict[tuple, tuple[bool, Any]] = {}  # (file, function, options) -> (raised, answer)

    @contextlib.contextmanager
    def swap(self, module: Any, name: str, replacement: Any) -> Iterator[Any]:
        found = self.session.request("swap", module=module, name=name, replacement=replacement)
        try:
            yield found["original"]
        finally:
            if self.session.subject is not None and self.session.subject.alive():
                with contextlib.suppress(SubjectFailure):
                    self.session.request("unswap", token=found["token"])

    def observe(self, probe: Any, exercise: Any, *args: Any, **kwargs: Any) -> Any:
        return self.session.request("observe", probe=probe, args=args, kwargs=kwargs,
                                    label=getattr(exercise, "label", ""), **self.session.context())

    def run(self, function: Any, *args: Any) -> Any:
        # With the check's settings, as a call gets them: what it reads (every setting, before and
        # after a call) must see the settings the check chose, not those of the last request.
        return self.session.request("run", fn=function, args=args, settings=self.session.context()["settings"])

    def setting(self, name: str) -> Any:
        return self.session.request("settings", names=[name])[name]

    def change_setting(self, name: str, value: Any) -> None:
        self.session.request("settings", names=[name], set={name: value})

    def buffer_pointers(self, array: Any) -> list[int]:
        # Sent by value the first time, the array becomes the subject's own from then on: later calls
        # hand the subject that very buffer, so donating it is seen here too.
        return list(self.session.request("pointers", arrays=[array])[0])

    def compiled_ahead_of_time(self) -> list[str]:
        return list(self.session.ahead_of_time.get(self.session.exercise, ()))

    def run_in_processes(self, exercise_file: str, function: str, what: str, options: dict) -> Any:
        # One launch per file, function and options, remembered here: several checks of an exercise
        # share it, and nothing the subject holds can answer for a launch it never made.
        key = (exercise_file, function, repr(sorted(options.items())))
        if key not in self.launches:
            try:
                self.launches[key] = (False, self.session.request("processes", function=function, what=what,
                                                                  options=options))
            except (KataFailure, NotImplementedError) as error:  # what the launch answered, not a lost subject
                self.launches[key] = (True, error)
        raised, answer = self.launches[key]
        if raised:
            raise answer
        return answer

    def within_seconds(self, seconds: float, check: Any, exercise: Any) -> dict:
        saved, self.session.deadline = self.session.deadline, time.monotonic() + seconds
        try:
            return answer_of(lambda: check(exercise), str(getattr(exercise, "label", "")))
        except SubjectFailure as failure:
            if failure.code == "timeout":
                return {"kind": "late"}
            return {"kind": "crash", "message": str(failure)}
        finally:
            self.session.deadline = saved

    def held_there(self, value: Any) -> bool:
        """Whether `value` stands for an object the subject kept (one the encoder could not send as
        data): reading it asks the subject, which may only then run the work it stands for."""
        return isinstance(value, RemoteObject)

    def on_devices(self, n_devices: int, check: Any, exercise: Any) -> dict:
        from grader.runtime.worker import ask_worker

        config = self.session.config.with_devices(n_devices)
        return ask_worker(n_devices, check, exercise, entry=serve_devices, subject=dataclasses.asdict(config),
                          path=str(getattr(exercise, "manifest_path", "")))


def answer_of(run: Any, label: str) -> dict:
    """What a check function did, as the helper processes report it; the subject's own failures
    (a crash, a timeout) are raised."""
    from grader.runtime.worker import answer_of as report

    return report(run, label, passing=(SubjectFailure,))


_HELPER_SESSIONS: dict[str, Session] = {}


def serve_devices(n_devices: int, requests_fd: int, replies_fd: int) -> None:
    """A worker for `checks.on_devices` under the grader (started with this as its entry): each
    check runs here, on the exercise imported in a subject of the worker's own with its devices."""
    from grader.runtime import worker

    worker.serve(n_devices, requests_fd, replies_fd, answer=_answer_in_subject)


def _answer_in_subject(request: dict, check: Any) -> dict:
    from grader.checks import site

    config, path, label = request["subject"], request.get("path", ""), request["label"]
    key = json.dumps(config, sort_keys=True)
    session = _HELPER_SESSIONS.get(key)
    if session is None:
        session = _HELPER_SESSIONS[key] = Session(SubjectConfig(**config))
        site.install(RemoteSite(session))
    try:
        answer = answer_of(lambda: check(load(session, path, label)), label)
        session.witness()
        return answer
    except SubjectFailure as failure:
        return {"kind": "failure", "message": str(failure), "code": failure.code}
    finally:
        session.end_check()
