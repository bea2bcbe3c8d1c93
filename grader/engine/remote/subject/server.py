"""The subject's server: handles, serving one request at a time, and what each request changed."""

from __future__ import annotations

import builtins
import contextlib
import gc
import itertools
import sys
import threading
import types
import warnings
from pathlib import Path
from typing import Any, Callable

from grader.checks.witnessed import bind_settings, setting_readers
from grader.engine.remote.codec import WireError
from grader.engine.remote.protocol import FrameReader, SubjectGone, write_frame
from grader.engine.remote.protocol import SETTINGS
from grader.engine.remote.audit import refuse_now
from grader.engine.remote.subject.requests import Requests
from grader.engine.remote.subject.sealing import change_refused
from grader.engine.remote.subject.standins import EMPTY_CELL, Capture, cell_value, contents_of, mirrorable, same_content, content_signature
from grader.engine.remote.subject.translation import Translation


class Placeholder:
    """Where an examiner's tracer sits in a traced call's arguments, until the trace supplies it."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index


class BoundSettings:
    """JAX's settings, bound to their holders when the server is made, before any submission code runs
    (in `states`, those a check may switch around a call: protocol.SETTINGS). Every option
    `jax.config.update` takes is one: a config `State` (read with its own `get_local` and
    `get_global`) or a plain `Flag` (jax_disable_most_optimizations, jax_cpu_enable_async_dispatch:
    one global value, read through `Flag`'s own slot, with no local one); each is written with its
    own `_set`, all bound then. `jax.config`'s properties and its `update` are looked up on a class
    any code may assign to (Python does not audit it), and its tables of holders are dicts any code
    may put another object in. The subject's tripwires watch this object's attributes."""

    def __init__(self) -> None:
        from jax._src import config as jax_config

        self.unset = jax_config.config_ext.unset
        every = dict(jax_config.config_states)  # read: any setting; written: only those a check may switch
        self.states = types.MappingProxyType({name: every[name] for name in SETTINGS if name in every})
        self.readers = types.MappingProxyType(setting_readers())
        bind_settings(self.readers)  # `checks.every_setting` reads with these too

    def value(self, name: str) -> Any:
        """The setting's value where it is read now: this thread's local one if set, else the global one."""
        get_local, get_global, _ = self.readers[name]
        local = get_local()
        return get_global() if local is self.unset else local

    def global_value(self, name: str) -> Any:
        return self.readers[name][1]()

    def set_global(self, name: str, value: Any) -> None:
        """What `jax.config.update(name, value)` does: the global value, and JAX's hook for it."""
        self.readers[name][2](value)


def _answer_all(server: Server, ended: list[BaseException]) -> None:
    me = threading.current_thread()
    me._target, me._args, me._kwargs = None, (), {}  # the Thread object leads nowhere, only this frame does
    # Bound here, before the submission is imported: Python does not audit assigning a class's or a
    # module's attribute, so `Server.answer`, `FrameReader.read` or `write_frame` looked up at each
    # request could be the submission's replacement (handed the server), put back before any check.
    read, answer, write, replies = server.reader.read, Server.answer, write_frame, server.replies
    refuse_if_changed = server.refuse_if_changed  # a plain function: nothing in it is looked up on a class
    deliver_compiles, end_request = server.deliver_compiles, server.end_request
    gc.disable()  # on only while a request's call runs (`_with_the_collector`)
    try:
        while True:
            try:
                data = read()
            except SubjectGone:
                return
            reply = answer(server, data, refuse_if_changed, deliver_compiles)
            # The request's own objects are gone now (answer's locals with its return, the request's
            # arrays with end_request): an object of the submission's among them ran its `__del__`
            # already, so a look now sees what it changed before the reply is written and the next
            # request decoded.
            end_request()
            refuse_if_changed()
            write(replies, reply)
    except BaseException as error:  # noqa: BLE001 - handed to the main thread, which ends with it
        ended.append(error)


def _with_the_collector(method: Callable[[dict], Any], request: dict) -> Any:
    """`method(request)` with Python's cyclic garbage collector on. It is off while the server's own
    code runs (`_answer_all`): a collection there would run the `__del__` of the submission's garbage
    at whatever moment it struck, between two of the tripwires' looks; here it runs inside the call,
    which a look follows."""
    gc.enable()
    try:
        return method(request)
    finally:
        gc.disable()


def types_loaded_now() -> set[type]:
    """Every class a loaded module names at top level, and Python's own: taken before the submission
    is imported, so none of these is its."""
    found = {value for module in list(sys.modules.values()) if type(module) is types.ModuleType
             for value in list(vars(module).values()) if type(value) is type or isinstance(value, type)}
    return found | {type(None), type(NotImplemented), type(Ellipsis), types.FunctionType, types.BuiltinFunctionType,
                    types.MethodType, types.ModuleType, types.CellType, types.CodeType}


def _unwatched() -> None:
    """The check a server makes before it is given its tripwires (a server made only to be tested)."""


class Server(Translation, Requests):
    def __init__(self, submission: Path, n_devices: int, requests: int, replies: int) -> None:
        self.submission = submission.resolve()
        self.n_devices = n_devices
        self.reader = FrameReader(requests)
        self.replies = replies
        self.objects: dict[int, Any] = {}  # handle -> object
        self._handles = itertools.count(1)
        self.handle_of: dict[int, int] = {}  # id(object) -> handle
        self.shipped: dict[int, Any] = {}  # the examiner's id for a shipped thing -> its copy here
        self.shipped_ids: dict[int, int] = {}  # id(copy) -> the examiner's id
        self.swaps: dict[int, Any] = {}
        self.cells: dict[int, Any] = {}  # the examiner's id for a shipped closure's cell -> the cell here
        self.cell_seen: dict[int, Any] = {}  # what each cell held when last in step with the examiner
        self.check_node_types: dict[int, type] = {}
        self.module: types.ModuleType | None = None
        self.refuse_if_changed: Callable[[], None] = _unwatched  # the tripwires' check, once all is imported
        self.after_grader_clear: Callable[[], None] = _unwatched  # the compile count's, after checks.clear_caches
        self.deliver_compiles: Callable[[], tuple] | None = None  # the compile records each reply takes
        self.module_path: Path | None = None
        self.request_memo: dict[int, Any] = {}  # this request's arrays sent by value, by the examiner's index
        self.request_ids: dict[int, int] = {}  # id(array) -> its index in request_memo
        self.request_handles: set[int] = set()  # the handles this request named
        self.signatures: dict[int, tuple] = {}  # the examiner's id of a mirrored object -> its last state
        self.effects: dict[str, Any] = {}
        self.plain_types: set[type] = set()  # what the encoder need not ask `_refer` about
        self._capture: Capture | None = None
        self.settings = BoundSettings()  # before any submission code runs
        # Classes whose code is the grader's, JAX's, Python's (`types_loaded_now`, once all the grader
        # needs is imported) or a check's (shipped): an object of any other type may run the submission's
        # code when it is looked at.
        self.trusted_types: set[type] = set()
        self.pristine_settings: dict[str, tuple] | None = None  # every JAX setting before the submission ran
        self.pristine_environment: dict[str, str] | None = None  # os.environ before the submission ran

    # --- handles -------------------------------------------------------------------------------

    def handle(self, obj: Any) -> int:
        found = self.handle_of.get(id(obj))
        if found is not None and self.objects.get(found) is obj:
            return found
        hid = next(self._handles)  # never reused: a handle of an earlier check names nothing
        self.objects[hid] = obj
        self.handle_of[id(obj)] = hid
        return hid

    def reset(self) -> None:
        for token in list(self.swaps):
            self._unswap(token)
        self.objects.clear()
        self.handle_of.clear()
        self.shipped.clear()
        self.shipped_ids.clear()
        self.cells.clear()
        self.cell_seen.clear()
        if self.module is not None:
            sys.modules.pop(self.module.__name__, None)
        self.module = None

    # --- serving -------------------------------------------------------------------------------

    def serve(self) -> None:
        """Answer requests until the examiner lets go, on a thread of their own, so that no submission
        code ever runs on the main thread. Python lets only the main thread install a signal handler,
        and hands a handler the frame the main thread is running: from there a handler could walk back
        to this server's frames and rewrite its replies. Off the main thread, installing one fails."""
        ended: list[BaseException] = []
        worker = threading.Thread(target=_answer_all, args=(self, ended), name="requests", daemon=True)
        worker.start()
        worker.join()
        if ended:
            raise ended[0]  # what ended the subject (a KeyboardInterrupt) ends the process, as before

    def answer(self, data: bytes, refuse_if_changed: Callable[[], None],
               deliver_compiles: Callable[[], tuple] | None = None) -> bytes:
        """One request's reply. Submission code may run while the request is decoded (one of its pytree
        objects rebuilt by its own unflatten), while it is served and while the reply is encoded: after
        each, `refuse_if_changed` (bound before the submission was imported) runs before anything is
        looked up on a class again, so a replaced method or an added property is never called."""
        self.request_memo, self.request_ids = {}, {}
        self.request_handles = set()
        self.effects = {"out": "", "err": "", "compiles": [], "deleted": [], "handles": {}}
        met_foreign: list[str] = []  # a local: what ran while decoding is told by nothing it can reach
        try:
            try:
                request = self.decode(data, met_foreign=met_foreign)
            finally:
                if met_foreign:  # else nothing of the submission's ran since the last look
                    refuse_if_changed()
            for cell_id, value in (request.get("cells") or {}).items():
                if int(cell_id) in self.cells:
                    self.cells[int(cell_id)].cell_contents = value
                    self.cell_seen[int(cell_id)] = value
            op = request["op"]
            method = getattr(self, f"op_{op}", None)
            if method is None:
                raise WireError(f"unknown request {op!r}")
            captured: dict = {}
            try:
                with self._captured(captured):
                    value = _with_the_collector(method, request)
            finally:
                # After the capture ended: its end lets go of what was warned, which may run the
                # submission's code (a warning's `__del__`), so the look comes after it, before anything
                # is looked up on a class again.
                refuse_if_changed()
                self.effects.update(captured)
            return self._reply({"ok": True, "value": value}, refuse_if_changed, deliver_compiles)
        except BaseException as error:  # noqa: BLE001 - every failure goes back to the examiner
            refuse_if_changed()  # what failed may be the reply's encoding, which may run submission code
            refused = change_refused(error)
            if refused:
                refuse_now(refused)
            if issubclass(type(error), KeyboardInterrupt):  # `type`: an `isinstance` may read `__class__`
                raise
            return self._reply({"ok": False, "error": error}, refuse_if_changed, deliver_compiles)

    def end_request(self) -> None:
        """Let go of what the request held (its arrays, its handles' list, what the call did)."""
        self.request_memo, self.request_ids, self.request_handles = {}, {}, set()
        self.effects = {}

    def _reply(self, body: dict, refuse_if_changed: Callable[[], None],
               deliver_compiles: Callable[[], tuple] | None = None) -> bytes:
        for cell_id, cell in self.cells.items():  # closure variables the call rebound (nonlocal)
            now = cell_value(cell)
            if now is not self.cell_seen.get(cell_id, EMPTY_CELL) and now is not EMPTY_CELL:
                self.effects.setdefault("cells", {})[cell_id] = now
                self.cell_seen[cell_id] = now
        # Whether what follows may run the submission's code: an object of a type that was not there
        # before it was imported is looked at (a `__class__` property answers isinstance, a pytree's
        # flatten runs while its value is encoded). If nothing of the sort is met, the look taken when
        # the request's own call returned is the last one needed before the reply goes out.
        trusted = self.trusted_types
        met_foreign = any(type(self.objects.get(hid)) not in trusted for hid in self.request_handles) or any(
            type(obj) not in trusted for obj in self.shipped.values())
        self._note_arrays()
        self._note_mirrored()
        if deliver_compiles is not None:  # every compile since the last reply, on whatever thread it ran
            self.effects["compiles"] = deliver_compiles()
        body["effects"] = self.effects
        encoder = self.encoder()
        try:
            reply = encoder.dumps(body)
        except WireError as error:
            refuse_if_changed()  # the failed encoding may have run submission code
            failure = WireError(f"the result could not be sent back: {error}")
            return self.encoder().dumps({"ok": False, "error": failure, "effects": self.effects})
        if met_foreign or encoder.met_foreign:
            refuse_if_changed()
            if deliver_compiles is not None and any(not record[1] for record in deliver_compiles()):
                # The answer's own code, run while its value was encoded (a pytree's flatten), compiled
                # a program of the learner's: work done after the call returned, out of its count.
                raise RuntimeError("the answer compiled a program while its value was being sent back (its "
                                   "pytree's flatten, or an array-like's conversion, ran JAX work after the "
                                   "function returned): return values the call has computed")
        return reply

    @staticmethod
    @contextlib.contextmanager
    def _captured(into: dict):
        """What the call printed and warned, into `into` as plain text, running none of the submission's
        code on the way (a warning's text is read only from Python's own warning classes)."""
        capture = Capture()
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = capture.out, capture.err
        caught: list = []
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                yield
        finally:
            sys.stdout, sys.stderr = saved
            into["out"] = capture.out.getvalue()[-200000:]
            into["err"] = capture.err.getvalue()[-200000:]
            into["warnings"] = [_plain_warning(w) for w in caught[:20]]
            caught.clear()  # what was warned goes now, before the look that follows

    # --- what a request changed ------------------------------------------------------------------

    def _note_arrays(self) -> None:
        """Inputs the call deleted (donated), sent by value or by handle, and the handle each input
        sent by value now has."""
        from grader.engine.remote.codec import J

        ARRAY_TYPES = J.ARRAY_TYPES

        for index, obj in self.request_memo.items():
            if obj.is_deleted():
                self.effects["deleted"].append(index)
            else:
                self.effects["handles"][index] = self.handle(obj)
        for hid in self.request_handles:
            obj = self.objects.get(hid)
            if type(obj) in ARRAY_TYPES and obj.is_deleted():  # by its type, not what it says it is
                self.effects.setdefault("deleted_handles", []).append(hid)

    def _note_mirrored(self) -> None:
        """The examiner's containers and shipped objects that changed here: sent back whole."""
        for examiner_id, obj in self.shipped.items():
            if isinstance(obj, (types.FunctionType, type)) or not mirrorable(obj):
                continue
            now = content_signature(obj)
            if not same_content(now, self.signatures.get(examiner_id)):
                self.effects.setdefault("mirror", {})[examiner_id] = contents_of(obj)
                self.signatures[examiner_id] = now

    # --- the examiner's settings and mesh around a request --------------------------------------------
    # Static: a `with` block's exit is looked up on contextlib's class when the submission's call ends,
    # and a patched one is handed the manager and what it was made with, which must not be the server.

    @staticmethod
    @contextlib.contextmanager
    def _settings(values: dict | None, settings: BoundSettings):
        for name, parts in (values or {}).items():
            state = settings.states.get(name)
            if state is None or not isinstance(parts, dict):
                continue
            if "global" in parts and settings.global_value(name) != parts["global"]:
                settings.set_global(name, parts["global"])
            if "local" in parts:
                state.set_local(parts["local"])
                hook = getattr(state, "_update_thread_local_hook", None)
                if hook is not None:
                    hook(None if parts["local"] is settings.unset else parts["local"])
        yield

    @staticmethod
    @contextlib.contextmanager
    def _mesh(mesh: Any):
        import jax

        if mesh is None:
            yield
            return
        with jax.set_mesh(mesh):
            yield

    @staticmethod
    @contextlib.contextmanager
    def _abstract_mesh(mesh: Any):
        from jax._src import mesh as mesh_lib

        if mesh is None:
            yield
            return
        with mesh_lib.use_abstract_mesh(mesh):
            yield


# Python's own warning classes, bound before any submission code runs: a warning of another class (the
# submission's own) is passed on by its nearest kind only, its text unread (its `__str__` is the
# submission's code, which must not run where the server works).
_WARNING_MESSAGE = warnings.WarningMessage
_PYTHON_WARNINGS = tuple(cls for cls in vars(builtins).values() if isinstance(cls, type) and issubclass(cls, Warning))
_fields_of = vars


def _plain_warning(record: Any) -> list:
    if type(record) is not _WARNING_MESSAGE:
        return [UserWarning, "a warning the grader could not read"]
    fields = _fields_of(record)  # its own slots: a property put on the record's class is not called
    category, message = fields.get("category"), fields.get("message")
    category = next((known for known in _PYTHON_WARNINGS if category is known), None)
    if category is None or type(message) is not category:
        return [category or UserWarning, "a warning of the exercise's own class (its text is not read)"]
    if not all(type(part) is str for part in message.args):
        return [category, "a warning whose text is not a plain string (not read)"]
    return [category, str(message)[:2000]]
