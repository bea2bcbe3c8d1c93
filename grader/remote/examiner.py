"""The examiner's side of the wall: the subject process, and the proxies a check sees.

A check written for a module keeps working on `RemoteModule`: reading a name
gives a value (arrays rebuilt with their sharding) or a proxy, calling a proxy
runs the function in the subject, and calling it with tracers (a check that
jits, vmaps or differentiates an exercise function) has the subject trace it
for those abstract values and runs the jaxpr it sends back here, inside the
check's own transformation: the values and the program are then computed by
the examiner. What a call did besides returning (printed text, compiles,
inputs deleted by donation or changed in place) is replayed here: text to
this process's stdout, compiles to the open `count_compiles` blocks, deleted
and changed inputs onto the check's own objects.

A check's own functions and objects handed to the exercise (a swapped inner
function, a probe that records what it saw) are shipped: their code runs in
the subject, never the other way round, and objects come back with the state
the call left them in.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import marshal
import os
import re
import subprocess
import sys
import threading
import time
import types
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jax
import numpy as np

from grader.checks.core import KataFailure
from grader.remote import codec
from grader.remote.codec import Decoder, Encoder, WireError
from grader.remote.launch import SubjectConfig
from grader.remote.protocol import FrameReader, SubjectGone, TooSlow, write_frame
from grader.remote.subject import SETTINGS, SHIPPABLE_MODULES

SUBJECT_START_SECONDS = 120  # JAX's import and start-up, on a busy machine
DEBUG_ENV = "KATAS_DEBUG_SUBJECT"  # set: say on stderr when a request to the subject fails


class SubjectFailure(KataFailure):
    """The subject died, hung, refused something or answered nonsense; `code` says which
    (timeout, crash, memory-limit, refused)."""

    def __init__(self, message: str, code: str, refused: str = "") -> None:
        super().__init__(message, code)
        self.refused = refused


class Subject:
    """One subject process and its pipes."""

    def __init__(self, config: SubjectConfig) -> None:
        self.config = config
        to_read, self._to = os.pipe()
        self._from, from_write = os.pipe()
        self._audit, audit_write = os.pipe()
        fds = (to_read, from_write, audit_write)
        self._log = open(config.log, "ab+") if config.log else None  # noqa: SIM115 - kept for the process' life
        command = [*config.prefix, sys.executable, "-I", "-B", "-m", "grader.remote.subject",
                   "--devices", str(config.devices), "--submission", config.submission,
                   "--fds", ",".join(str(fd) for fd in fds)]
        try:
            self.process = subprocess.Popen(
                command, pass_fds=fds, stdin=subprocess.DEVNULL, stdout=self._log or subprocess.DEVNULL,
                stderr=subprocess.STDOUT if self._log else subprocess.DEVNULL, env=config.env, cwd=config.cwd,
                start_new_session=True)
        finally:
            for fd in fds:
                os.close(fd)
        self.reader = FrameReader(self._from)
        self.lock = threading.RLock()

    def alive(self) -> bool:
        return self.process.poll() is None

    def exchange(self, data: bytes, deadline: float | None) -> bytes:
        with self.lock:
            try:
                write_frame(self._to, data)
                return self.reader.read(deadline)
            except (BrokenPipeError, SubjectGone):
                raise self._gone() from None
            except TooSlow:
                self.stop()
                raise SubjectFailure("timed out (stuck; the subject process was killed)", "timeout") from None
            except WireError as error:
                self.stop()
                raise SubjectFailure(f"the submission's process sent an unreadable answer ({error})",
                                     "crash") from None

    def _gone(self) -> SubjectFailure:
        try:
            code = self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.stop()
            code = self.process.returncode
        refused = self.refusal()
        if refused:
            return SubjectFailure(f"did something an exercise never needs, refused by the grader: {refused}",
                                  "refused", refused)
        tail = self.log_tail()
        if any(sign in tail for sign in ("bad_alloc", "RESOURCE_EXHAUSTED", "Out of memory", "out of memory",
                                        "MemoryError", "Cannot allocate memory")):
            limit = f"{self.config.memory_bytes // (1024 * 1024)} MiB of memory" if self.config.memory_bytes \
                else "the memory it is allowed"
            return SubjectFailure(f"used more than {limit}, the limit per check process", "memory-limit")
        if code is not None and code < 0:
            import signal

            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return SubjectFailure(f"crashed the submission's process ({name})", "crash")
        return SubjectFailure(f"ended the submission's process early (exit code {code})", "crash")

    def refusal(self) -> str:
        """What the audit hook refused, if it did (the subject then ended itself)."""
        import select

        chunks = []
        while select.select([self._audit], [], [], 0)[0]:
            chunk = os.read(self._audit, 4096)
            if not chunk:
                break
            chunks.append(chunk)
        text = b"".join(chunks).decode(errors="replace").strip()
        return text.splitlines()[0] if text else ""

    def log_tail(self) -> str:
        if self._log is None:
            return ""
        self._log.flush()
        self._log.seek(0, os.SEEK_END)
        size = self._log.tell()
        self._log.seek(max(0, size - 4000))
        return self._log.read().decode(errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, 9)
            except (ProcessLookupError, PermissionError):
                self.process.kill()
            self.process.wait()
        for fd in (self._to, self._from, self._audit):
            with contextlib.suppress(OSError):
                os.close(fd)
        if self._log is not None:
            self._log.close()
            self._log = None


# --- the session: one subject, the proxies of the current check -------------------------------------


class Session:
    """The examiner's connection to one subject, restarted when it dies."""

    def __init__(self, config: SubjectConfig) -> None:
        self.config = config
        self.subject: Subject | None = None
        self.greeted = False
        self.proxies: dict[int, RemoteObject] = {}
        self.shipped: dict[Any, Any] = {}  # our id -> the object shipped (kept alive while the check runs)
        self.array_handles: dict[int, tuple] = {}  # id(array) -> (weak reference, hid, generation)
        self.node_types: dict[int, type] = {}
        self.generation = 0  # a new check, or a new subject: earlier handles mean nothing
        self.cells: dict[int, list] = {}  # id(cell) -> [the cell of a shipped closure, what it held when sent]
        self.last_settings: dict[str, tuple] = {}  # the check's JAX settings as last sent
        self.deadline: float | None = None
        self.round_trips = 0
        self.refused: list[str] = []  # refusals seen, for the review flag

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

    def end_check(self) -> None:
        """Forget everything of the check that ended (the subject forgets its side at the next `load`)."""
        self.proxies.clear()
        self.shipped.clear()
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
        encoder = Encoder(self._refer, self._ship_fallback)
        data = encoder.dumps(body)
        memo = {index: obj for obj, index in ((o, i) for o, i in _memo_objects(encoder))}
        try:
            answer = self.subject.exchange(data, deadline)
        except SubjectFailure as failure:
            if failure.refused:
                self.refused.append(failure.refused)
            if os.environ.get(DEBUG_ENV):
                print(f"[katas] {body.get('op')} failed: {failure}", file=sys.stderr)
            self.stop()
            raise
        except BaseException:
            self.stop()  # interrupted mid-request (the check's time ran out): the subject may be stuck
            raise
        self.round_trips += 1
        try:
            reply = Decoder.loads(answer, lambda tag, d: self._resolve(tag, d, memo), on_array=self._note_array)
        except WireError as error:
            if os.environ.get(DEBUG_ENV):
                print(f"[katas] {body.get('op')} answer unreadable: {error}", file=sys.stderr)
            self.stop()
            raise SubjectFailure(f"the submission's process sent an unreadable answer ({error})", "crash") from None
        if not isinstance(reply, dict) or "ok" not in reply:
            self.stop()
            raise SubjectFailure("the submission's process sent an answer of the wrong shape", "crash")
        self._apply_effects(reply.get("effects") or {}, memo)
        if not reply["ok"]:
            error = reply.get("error")
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

            compiles.note_compiles([(str(name), bool(eager), _signature(sig)) for name, eager, sig in effects["compiles"]])
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
            if entry is not None:
                entry[0].cell_contents = value
                entry[1] = value

    def _changed_cells(self) -> dict[int, Any]:
        """Closure variables of shipped functions that changed here since they were last sent (a
        variable bound after the function was shipped, such as `original` in `with swap_function(...)
        as original`)."""
        changed = {}
        for cell_id, entry in self.cells.items():
            now = _cell_value(entry[0])
            if now is not entry[1]:
                entry[1] = now
                if now is not _EMPTY:
                    changed[cell_id] = now
        return changed

    # --- what we send ---------------------------------------------------------------------------------

    def _refer(self, obj: Any, e: Encoder) -> list | None:
        if isinstance(obj, RemoteAttribute):
            if obj._generation != self.generation:
                raise WireError(f"{obj!r} belongs to an earlier check or process")
            return ["attr", obj._module._hid, obj._name]
        if isinstance(obj, RemoteObject):
            if obj._session is not self or obj._generation != self.generation:
                raise WireError(f"{obj!r} belongs to an earlier check or process")
            return ["H", obj._hid]
        if isinstance(obj, RemoteNode):
            return self._send_node(obj, e)
        if _check_owned(type(obj)) and not isinstance(obj, (type, types.FunctionType)):
            node = self._check_node(obj, e)
            if node is not None:
                return node
        if isinstance(obj, jax.core.Tracer):
            tracing = getattr(_tracing, "tracers", None)
            if tracing is None:
                raise WireError("a tracer can only reach the exercise inside a transformation")
            tracing.append(obj)
            return ["tr", len(tracing) - 1]
        if isinstance(obj, jax.Array):
            hid = self.array_handle(obj)
            return ["H", hid] if hid is not None and not obj.is_deleted() else None
        kind = type(obj)
        if kind in (list, dict, set) or kind is np.ndarray and not obj.dtype.hasobject:
            return self._mirror(obj, e)
        if isinstance(obj, types.ModuleType):
            return ["mod", obj.__name__]
        if isinstance(obj, re.Pattern):
            return ["re", obj.pattern, int(obj.flags)]
        from jax._src import config as jax_config

        if obj is jax_config.config_ext.unset:
            return ["unset"]
        return None

    def _ship_fallback(self, obj: Any, e: Encoder) -> list:
        """A check's own function, class or object, shipped to run in the subject; a function of
        JAX, NumPy or the standard library, by name."""
        module = getattr(obj, "__module__", None) or ""
        qualname = getattr(obj, "__qualname__", "")
        if callable(obj) and "<" not in qualname and _shippable_module(module) and _named(module, qualname, obj):
            return ["fref", f"{module}:{qualname}"]
        if isinstance(obj, (types.FunctionType, type)) or _check_owned(type(obj)) or _jitted(obj):
            return self._ship(obj, e)
        raise WireError(f"cannot hand a {type(obj).__qualname__} to the submission")

    def _ship(self, obj: Any, e: Encoder) -> list:
        ship_id = id(obj)
        self.shipped[ship_id] = obj
        index = e.remember(obj)
        if _jitted(obj):
            return ["shipjit", index, {"id": ship_id, "fun": e.encode(obj._fun), "options": e.encode(_jit_options(obj))}]
        if isinstance(obj, types.FunctionType):
            code = obj.__code__
            names = _global_names(code)
            glob = {name: obj.__globals__[name] for name in names if name in obj.__globals__}
            cells = obj.__closure__ or ()
            for cell in cells:
                self.cells.setdefault(id(cell), [cell, _cell_value(cell)])
            body = {"id": ship_id, "name": obj.__name__, "qualname": obj.__qualname__, "module": obj.__module__,
                    "code": e.blob(marshal.dumps(code)), "globals": e.encode(glob), "cells": [id(c) for c in cells],
                    "closure": e.encode([(_cell_value(c) is not _EMPTY, None if _cell_value(c) is _EMPTY
                                          else c.cell_contents) for c in cells]),
                    "defaults": e.encode(obj.__defaults__), "kwdefaults": e.encode(obj.__kwdefaults__),
                    "dict": e.encode(dict(obj.__dict__))}
            return ["ship", index, body]
        if isinstance(obj, type):
            if not _check_owned(obj):
                raise WireError(f"cannot hand the class {obj.__qualname__} to the submission")
            skip = {"__dict__", "__weakref__", "__module__", "__qualname__", "__doc__"}
            body = {"id": ship_id, "name": obj.__name__, "qualname": obj.__qualname__, "module": obj.__module__,
                    "bases": e.encode(tuple(b for b in obj.__bases__)),
                    "dict": e.encode({k: v for k, v in vars(obj).items() if k not in skip})}
            return ["shipcls", index, body]
        body = {"id": ship_id, "class": e.encode(type(obj)), "state": e.encode(dict(vars(obj)))}
        return ["shipobj", index, body]

    def _mirror(self, obj: Any, e: Encoder) -> list:
        """A list, dict, set or NumPy array of the check's: one object in the subject for the whole
        check, kept in step both ways (the subject sends it back when a request changes it)."""
        self.shipped[id(obj)] = obj
        index = e.remember(obj)
        if isinstance(obj, np.ndarray):
            return ["mut", index, id(obj), "nd", codec._enc_numpy(e, np.array(obj))]
        if isinstance(obj, dict):
            return ["mut", index, id(obj), "dict", [[e.encode(k), e.encode(v)] for k, v in obj.items()]]
        return ["mut", index, id(obj), type(obj).__name__, e.items(obj)]

    def _check_node(self, obj: Any, e: Encoder) -> list | None:
        """An object of a pytree class a check defines: its children travel, and the subject holds a
        stand-in with the same keys; what comes back is rebuilt here with the class's own unflatten."""
        from jax._src import tree_util

        flat = tree_util.default_registry.flatten_one_level_with_keys(obj)
        if flat is None:
            return None
        keyed, aux = flat
        kind = type(obj)
        self.shipped[id(kind)] = kind
        fields = _dataclass_fields(kind)
        if fields is None:
            fields = _fields_by_attribute(kind, keyed)
            if fields is not None:
                self.shipped[id(kind), "aux"] = aux  # chex's kind: every object of the class has this aux
        if fields is not None:
            data, meta = fields
            self.shipped[id(obj)] = obj  # the same object in the subject for the whole check, mirrored
            spec = {"fields": [f.name for f in dataclasses.fields(kind)], "data": list(data), "meta": list(meta),
                    "frozen": bool(kind.__dataclass_params__.frozen)}
            index = e.remember(obj)
            return ["cdc", index, {"type": id(kind), "name": kind.__name__, "id": id(obj), "spec": spec,
                                   "values": e.encode({name: getattr(obj, name) for name in spec["fields"]})}]
        self.shipped[id(aux)] = aux
        if isinstance(obj, tuple) and hasattr(kind, "_fields"):
            keys = [["attr", name] for name in kind._fields]
        else:
            keys = [_key_tag(k) for k, _ in keyed]
        index = e.remember(obj)
        try:
            aux_value = e.encode(aux)
        except WireError:
            aux_value = None
        return ["cnode", index, {"type": id(kind), "name": kind.__name__, "aux": id(aux), "aux_value": aux_value,
                                 "keys": keys, "sequence": isinstance(obj, tuple),
                                 "children": e.items([child for _, child in keyed])}]

    def _send_node(self, node: RemoteNode, e: Encoder) -> list:
        origin = node._origin
        if origin is not None and origin[1] == self.generation and node._pristine:
            return ["H", origin[0]]
        info = node._info
        return ["node", e.remember(node), {"type": info.type_hid, "aux_handle": info.aux_hid,
                                            "children": e.items(node._children)}]

    # --- what comes back --------------------------------------------------------------------------------

    def _resolve(self, tag: list, d: Decoder, memo: dict[int, Any]) -> Any:
        kind = tag[0]
        if kind == "H":
            info = dict(tag[2]) if len(tag) > 2 else {}
            if d.in_program:
                info["internal"] = True  # a rule or callback JAX keeps in a program, not an exercise function
            return self.proxy(int(tag[1]), info)
        if kind == "req":
            if int(tag[1]) not in memo:
                raise WireError("a reference to nothing that was sent")
            return memo[int(tag[1])]
        if kind == "ref":
            if int(tag[1]) not in self.shipped:
                raise WireError("a reference to nothing that was shipped")
            return self.shipped[int(tag[1])]
        if kind == "node":
            return self._node(tag, d)
        if kind == "tdn":
            return self._node_treedef(tag, d)
        if kind == "leak":
            return EscapedTracer(str(tag[1]), d.decode(tag[2]) if len(tag) > 2 else None)
        if kind == "cnode":
            return self._rebuild_check_node(tag, d)
        if kind == "cdcnew":
            node_type = self.shipped.get(int(tag[2]))
            if not isinstance(node_type, type):
                raise WireError("a stand-in for a class the check never sent")
            obj = object.__new__(node_type)
            d.keep(tag[1], obj)
            for name, value in d.decode(tag[3]).items():
                object.__setattr__(obj, str(name), value)
            return obj
        if kind == "cdctd":
            from jax._src import tree_util

            node_type = self.shipped.get(int(tag[1]))
            fields = _dataclass_fields(node_type) if isinstance(node_type, type) else None
            if fields is not None:
                meta_values = d.decode(tag[2])
                aux = tuple(meta_values[name] for name in fields[1])
            elif (int(tag[1]), "aux") in self.shipped:
                aux = self.shipped[int(tag[1]), "aux"]
            else:
                raise WireError("a stand-in for a class the check never sent")
            return jax.tree_util.PyTreeDef.from_node_data_and_children(
                tree_util.default_registry, (node_type, aux), d.items(tag[3]))
        if kind == "ctdn":
            from jax._src import tree_util

            node_type, aux = self.shipped.get(int(tag[1])), self.shipped.get(int(tag[2]), _EMPTY)
            if not isinstance(node_type, type) or aux is _EMPTY:
                raise WireError("a stand-in for a class the check never sent")
            return jax.tree_util.PyTreeDef.from_node_data_and_children(
                tree_util.default_registry, (node_type, aux), d.items(tag[3]))
        raise WireError(f"unknown tag {kind!r}")

    def _rebuild_check_node(self, tag: list, d: Decoder) -> Any:
        from jax._src import tree_util

        info = tag[2]
        kind, aux = self.shipped.get(int(info["type"])), self.shipped.get(int(info["aux"]), _EMPTY)
        if not isinstance(kind, type) or aux is _EMPTY:
            raise WireError("a stand-in for a class the check never sent")
        children = d.items(info["children"])
        tree = jax.tree_util.PyTreeDef.from_node_data_and_children(
            tree_util.default_registry, (kind, aux), [jax.tree.structure(0)] * len(children))
        return d.keep(tag[1], jax.tree.unflatten(tree, children))

    def _note_array(self, array: jax.Array, fields: dict) -> jax.Array | None:
        """The subject's array `fields["h"]` is the array already here that stands for it, if there is
        one (so the same object comes back as the same object), else `array`, remembered."""
        if "h" not in fields:
            return None
        hid = int(fields["h"])
        for known in self.arrays_of(hid):
            if not known.is_deleted():
                return known
        self.remember_array(array, hid)
        return None

    def remember_array(self, array: jax.Array, hid: int) -> None:
        """`array` here is the subject's object `hid`: sent back, it is that object again (donation,
        deletion and buffer identity follow it)."""
        key = id(array)
        self.array_handles[key] = (weakref.ref(array, lambda _: self.array_handles.pop(key, None)), hid,
                                   self.generation)

    def arrays_of(self, hid: int) -> list[jax.Array]:
        """The arrays here that stand for the subject's array `hid`."""
        found = []
        for ref, known, generation in list(self.array_handles.values()):
            array = ref()
            if array is not None and known == hid and generation == self.generation:
                found.append(array)
        return found

    def array_handle(self, array: jax.Array) -> int | None:
        found = self.array_handles.get(id(array))
        if found is None or found[0]() is not array or found[2] != self.generation:
            return None
        return found[1]

    def proxy(self, hid: int, info: dict) -> RemoteObject:
        found = self.proxies.get(hid)
        if found is None:
            kind = RemoteClass if info.get("class") else RemoteObject
            found = kind(self, hid, info)
            self.proxies[hid] = found
        return found

    def _node(self, tag: list, d: Decoder) -> RemoteNode:
        info = tag[2]
        kind = d.decode(info["type"])
        aux = d.decode(info["aux"])
        keys = [tuple(k) for k in info["keys"]]
        node_info = NodeInfo(self.node_type(kind, keys, bool(info.get("sequence"))), kind._hid,
                             int(info["aux_handle"]), _hashable(aux), int(info["obj"]))
        if issubclass(node_info.kind, tuple):  # a tuple's items are fixed when it is made
            node = RemoteNode._make(node_info, d.items(info["children"]))
            d.keep(tag[1], node)
        else:
            node = RemoteNode._make(node_info, [])
            d.keep(tag[1], node)
            object.__setattr__(node, "_children", d.items(info["children"]))
        object.__setattr__(node, "_origin", (int(info["obj"]), self.generation))
        object.__setattr__(node, "_pristine", True)
        return node

    def node_type(self, kind: RemoteClass, keys: list[tuple], sequence: bool) -> type:
        """The stand-in class for one of the submission's pytree classes (registered with JAX here)."""
        found = self.node_types.get(kind._hid)
        if found is None or found._generation != self.generation:
            # A tuple class (a NamedTuple) stands in as a tuple, so `isinstance(x, tuple)` and unpacking hold.
            bases = (tuple, RemoteNode) if sequence else (RemoteNode,)
            found = types.new_class(kind._info.get("name") or "Node", bases, {})
            found._generation = self.generation
            found._remote_class = kind
            found._keys = keys
            found._sequence = sequence
            jax.tree_util.register_pytree_with_keys(found, RemoteNode._flatten_with_keys, found._unflatten,
                                                    RemoteNode._flatten)
            self.node_types[kind._hid] = found
        elif keys and not found._keys:
            found._keys = keys
        return found

    def rebuild_node(self, info: NodeInfo, children: list) -> RemoteNode:
        """One of the submission's pytree objects made from `children` by its class's own unflatten."""
        rebuild = {"type": self.proxy(info.type_hid, {"class": True}), "aux": self.proxy(info.aux_hid, {})}
        if not _has_tracer(children):
            found = self.request("rebuild", children=children, **rebuild)
            if not isinstance(found, RemoteNode):
                raise WireError("a rebuilt node came back as something else")
            return found
        tracers: list[Any] = []
        _tracing.tracers = tracers
        try:
            blob = Encoder(self._refer, self._ship_fallback).dumps(((), {}, children))
        finally:
            _tracing.tracers = None
        reply = self.request("trace", rebuild=rebuild, call=blob, avals=[t.aval for t in tracers],
                             axis_env=list(_axis_env()), abstract_mesh=_abstract_mesh(), **self.context())
        with local_nodes():
            node = _outputs(reply, tracers)
        if isinstance(node, RemoteNode) and node._info.origin is None:  # same class and aux: same attributes
            object.__setattr__(node, "_info", dataclasses.replace(node._info, origin=info.origin))
        return node

    def node_attribute(self, node: RemoteNode, name: str) -> Any:
        """`getattr(node, name)` on the submission's own object, rebuilt from the node's traced children."""
        info = node._info
        rebuild = {"type": self.proxy(info.type_hid, {"class": True}), "aux": self.proxy(info.aux_hid, {})}
        tracers: list[Any] = []
        _tracing.tracers = tracers
        try:
            blob = Encoder(self._refer, self._ship_fallback).dumps(((), {}, list(node._children)))
        finally:
            _tracing.tracers = None
        reply = self.request("trace", rebuild=rebuild, attribute=name, call=blob, avals=[t.aval for t in tracers],
                             axis_env=list(_axis_env()), abstract_mesh=_abstract_mesh(), **self.context())
        with local_nodes():
            return _outputs(reply, tracers)

    def _node_treedef(self, tag: list, d: Decoder) -> Any:
        """A treedef node of one of the submission's classes (a traced call's output structure)."""
        from jax._src import tree_util

        kind = d.decode(tag[1])
        aux = d.decode(tag[2])
        children = d.items(tag[4])
        info = NodeInfo(self.node_type(kind, [], bool(kind._info.get("tuple"))), kind._hid, int(tag[3]),
                        _hashable(aux), tag[5] if len(tag) > 5 else None)
        return jax.tree_util.PyTreeDef.from_node_data_and_children(tree_util.default_registry, (info.kind, info),
                                                                   children)

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
            last = self.last_settings.get(name, (_EMPTY, _EMPTY))
            changed = {part: value for part, value, before in zip(("global", "local"), now, last)
                       if full or value is not before and value != before}
            if changed:
                settings[name] = changed
            self.last_settings[name] = now
        mesh = mesh_lib.get_concrete_mesh()
        return {"settings": settings, "mesh": None if mesh is None or mesh.empty else mesh}


_tracing = threading.local()


def _memo_objects(encoder: Encoder) -> Iterator[tuple[Any, int]]:
    by_id = {id(obj): obj for obj in encoder._alive}
    for key, index in encoder.memo.items():
        if key in by_id:
            yield by_id[key], index


_EMPTY = object()  # an empty closure cell


def _cell_value(cell: Any) -> Any:
    try:
        return cell.cell_contents
    except ValueError:
        return _EMPTY


def _dataclass_fields(kind: type) -> tuple[tuple, tuple] | None:
    """(data fields, metadata fields) of a dataclass registered with jax.tree_util.register_dataclass, or
    None (JAX keeps them in its flatten function's closure)."""
    from jax._src import tree_util

    if not dataclasses.is_dataclass(kind):
        return None
    entry = getattr(tree_util, "_registry", {}).get(kind)
    flatten = getattr(entry, "to_iter", None)
    code, closure = getattr(flatten, "__code__", None), getattr(flatten, "__closure__", None)
    if code is None or not closure:
        return None
    found = dict(zip(code.co_freevars, (cell.cell_contents for cell in closure)))
    if "data_fields" not in found or "meta_fields" not in found:
        return None
    return tuple(found["data_fields"]), tuple(found["meta_fields"])


def _fields_by_attribute(kind: type, keyed: list) -> tuple[tuple, tuple] | None:
    """(data fields, no metadata) of a dataclass registered some other way (chex.dataclass) whose
    children are exactly its fields, keyed by attribute name, in the order its flatten gives them."""
    from jax.tree_util import GetAttrKey

    if not dataclasses.is_dataclass(kind) or not all(isinstance(k, GetAttrKey) for k, _ in keyed):
        return None
    names = tuple(k.name for k, _ in keyed)
    if sorted(names) != sorted(f.name for f in dataclasses.fields(kind)):
        return None
    return names, ()


def _key_tag(key: Any) -> list:
    from jax.tree_util import DictKey, GetAttrKey, SequenceKey

    if isinstance(key, GetAttrKey):
        return ["attr", str(key.name)]
    if isinstance(key, DictKey):
        return ["dict", key.key]
    if isinstance(key, SequenceKey):
        return ["seq", int(key.idx)]
    return ["flat", int(getattr(key, "key", 0))]


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
        if obj.shape == state.shape and obj.flags.writeable:
            np.copyto(obj, state, casting="unsafe")
    elif isinstance(state, dict) and hasattr(obj, "__dict__"):
        obj.__dict__.update(state)


def _jitted(obj: Any) -> bool:
    return type(obj).__name__ == "PjitFunction" and hasattr(obj, "_jit_info") and hasattr(obj, "_fun")


def _jit_options(function: Any) -> dict[str, Any]:
    """The arguments `jax.jit` was given for `function`, so the subject can jit the same way."""
    from jax._src.named_sharding import UnspecifiedValue

    info = function._jit_info
    options = {"static_argnums": tuple(info.static_argnums), "static_argnames": tuple(info.static_argnames),
               "donate_argnums": tuple(info.donate_argnums), "donate_argnames": tuple(info.donate_argnames),
               "keep_unused": bool(info.keep_unused), "inline": bool(info.inline)}
    for side in ("in", "out"):
        leaves = getattr(info, f"{side}_shardings_leaves")
        if leaves and not all(isinstance(leaf, UnspecifiedValue) for leaf in leaves):
            options[f"{side}_shardings"] = jax.tree.unflatten(getattr(info, f"{side}_shardings_treedef"), leaves)
    return options


def _global_names(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_names(const)
    return names


def _shippable_module(module: str) -> bool:
    return module == "builtins" or any(module == m or module.startswith(m + ".") for m in SHIPPABLE_MODULES)


def _named(module: str, qualname: str, obj: Any) -> bool:
    """Whether `module.qualname` really is `obj` (so the subject finds the same thing by name)."""
    found: Any = sys.modules.get(module)
    for part in qualname.split("."):
        found = getattr(found, part, None)
    return found is obj


def _check_owned(kind: type) -> bool:
    """Classes a check file defines (they are shipped; anything else of the examiner's is not)."""
    module_name = getattr(kind, "__module__", "") or ""
    found = _CHECK_MODULES.get(module_name)
    if found is None:
        module = sys.modules.get(module_name, None)
        name = os.path.basename(getattr(module, "__file__", "") or "")
        found = _CHECK_MODULES[module_name] = name.startswith(("test_", "hidden_test_")) or module_name == "__main__"
    return found


_CHECK_MODULES: dict[str, bool] = {}


def _hashable(value: Any) -> Any:
    try:
        hash(value)
        return value
    except TypeError:
        return repr(value)


# --- proxies ------------------------------------------------------------------------------------------


class RemoteObject:
    """An object of the subject's: attribute reads, calls and the usual protocols go there."""

    __slots__ = ("_session", "_hid", "_info", "_generation", "__weakref__")

    def __init__(self, session: Session, hid: int, info: dict) -> None:
        object.__setattr__(self, "_session", session)
        object.__setattr__(self, "_hid", hid)
        object.__setattr__(self, "_info", dict(info))
        object.__setattr__(self, "_generation", session.generation)

    def __getattr__(self, name: str) -> Any:
        info = self._info
        if name == "__name__":
            return info.get("name") or info.get("type", "object")
        if name == "__qualname__":
            return info.get("qualname") or info.get("name") or "object"
        if "module" in info:  # a function: what JAX reads of it to jit or trace it, known already
            if name == "__module__":
                return info["module"]
            if name in ("__doc__", "_partialmethod"):
                if name == "__doc__":
                    return None
                raise AttributeError(name)
            if name == "__dict__":
                return {}
            if name == "__signature__" and "signature" in info:
                return _parameters(info["signature"])
            if name == "__wrapped__" and not info.get("wrapped"):
                raise AttributeError(name)
            if name == "__code__" and "code" in info and not info.get("wrapped"):
                return CodeInfo(*info["code"])
        if name.startswith("__") and name.endswith("__") and name not in ("__wrapped__", "__file__", "__self__",
                                                                          "__func__", "__dict__", "__doc__",
                                                                          "__code__"):
            raise AttributeError(name)
        cache = info.setdefault("_attributes", {}) if name in ("__wrapped__", "__code__") else None
        if cache is not None and name in cache:
            return cache[name]
        found = self._session.request("getattr", obj=self, name=name)
        if info.get("internal") and isinstance(found, RemoteObject):
            found._info["internal"] = True
        if cache is not None:
            cache[name] = found
        return found

    def __setattr__(self, name: str, value: Any) -> None:
        self._session.request("setattr", obj=self, name=name, value=value)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if _has_tracer((args, kwargs)) or not _trace_state_clean() and not self._info.get("internal"):
            # Called while the check traces (jit, grad, vmap, make_jaxpr): the subject traces it, and the
            # check's transformation records the program it sends back, as it would the function's own.
            return _traced_call(self, args, kwargs)
        return self._session.request("call", fn=self, args=args, kwargs=kwargs, **self._session.context())

    def _method(self, name: str, *args: Any) -> Any:
        method = self._session.request("getattr", obj=self, name=name)
        return method(*args)

    def __repr__(self) -> str:
        if "module" in self._info:  # a function
            return f"<function {self._info.get('qualname') or self._info.get('name')} of the submission>"
        try:
            return self._method("__repr__")
        except Exception:  # noqa: BLE001 - a repr must not fail
            return f"<{self._info.get('type', 'object')} {self._info.get('qualname', '')} of the submission>"

    def __str__(self) -> str:
        if "module" in self._info:
            return repr(self)
        return self._method("__str__")

    def __len__(self) -> int:
        return self._method("__len__")

    def __iter__(self) -> Iterator[Any]:
        return iter(self._session.request("call", fn=_LIST, args=(self,), kwargs={}))

    def __getitem__(self, key: Any) -> Any:
        return self._method("__getitem__", key)

    def __contains__(self, item: Any) -> bool:
        return self._method("__contains__", item)

    def __bool__(self) -> bool:
        return bool(self._session.request("call", fn=_BOOL, args=(self,), kwargs={}))

    def __eq__(self, other: Any) -> Any:
        if isinstance(other, RemoteObject):
            return (self._hid, self._generation, self._session) == (other._hid, other._generation, other._session)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((id(self._session), self._hid, self._generation))

    def __instancecheck__(self, instance: Any) -> bool:
        if isinstance(instance, RemoteNode):
            return type(instance)._remote_class is self
        if isinstance(instance, RemoteObject):
            return bool(self._session.request("call", fn=_ISINSTANCE, args=(instance, self), kwargs={}))
        return False


class CodeInfo:
    """Where a function of the submission's is defined: what JAX reads of its code for messages."""

    __slots__ = ("co_filename", "co_firstlineno", "co_name")

    def __init__(self, filename: str, line: int, name: str) -> None:
        self.co_filename, self.co_firstlineno, self.co_name = filename, line, name


def _parameters(parameters: list) -> Any:
    """An inspect.Signature for a function of the submission's (what jit reads for static_argnames)."""
    import inspect

    return inspect.Signature([inspect.Parameter(str(name), inspect._ParameterKind(int(kind)),
                                                default=_DEFAULT if has_default else inspect.Parameter.empty)
                              for name, kind, has_default in parameters])


class _Default:
    def __repr__(self) -> str:
        return "<default of the submission's>"


_DEFAULT = _Default()


class RemoteClass(RemoteObject):
    """A class of the submission's."""

    __slots__ = ()


class RemoteAttribute(RemoteObject):
    """A function of the exercise module, by its name: sent as "that module's `name`", so calling it
    costs one request (and a rebinding of the name, by the module or a swap, is followed as in one
    process)."""

    __slots__ = ("_module", "_name")

    def __init__(self, module: RemoteModule, name: str, info: dict | None = None) -> None:
        super().__init__(module._session, -1, dict(info or {"name": name, "qualname": name, "type": "function",
                                                             "callable": True}))
        object.__setattr__(self, "_module", module)
        object.__setattr__(self, "_name", name)

    def __eq__(self, other: Any) -> Any:
        if isinstance(other, RemoteAttribute):
            return (self._module, self._name) == (other._module, other._name)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._module, self._name))


_LIST = list
_BOOL = bool
_ISINSTANCE = isinstance


class EscapedTracer(jax.core.Tracer):
    """A tracer the submission let out of its transformation: its type came back (shape and dtype
    still read), not a value to compute with."""

    __slots__ = ("description", "_escaped_aval")

    def __new__(cls, description: str, aval: Any = None) -> EscapedTracer:
        obj = object.__new__(cls)
        object.__setattr__(obj, "description", description)
        object.__setattr__(obj, "_escaped_aval", aval)
        return obj

    def __init__(self, description: str, aval: Any = None) -> None:
        pass

    def __repr__(self) -> str:
        return f"Traced<{self.description}> (escaped from its transformation)"

    @property
    def aval(self) -> Any:
        if self._escaped_aval is None:
            raise jax.errors.UnexpectedTracerError(f"a tracer escaped from its transformation: {self.description}")
        return self._escaped_aval


@dataclasses.dataclass(frozen=True)
class NodeInfo:
    """What a stand-in node's treedef holds: the class and aux data it stands for (by their handles), and
    the aux data's value where it could travel. Equal when the class and the value are."""

    kind: type
    type_hid: int
    aux_hid: int
    aux: Any
    origin: int | None = None  # an object of the subject's with this class and aux data (for attributes)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, NodeInfo) and (self.kind, self.aux) == (other.kind, other.aux)

    def __hash__(self) -> int:
        return hash((self.kind, self.aux))


class RemoteNode:
    """A stand-in here for an object of one of the submission's pytree classes.

    Its children live here (arrays, tracers inside a transformation), the
    class and aux data stay in the subject. Fields read by name come from the
    children's keys; other attributes are read from the original object.
    Passed back to the subject, it is rebuilt there with the class's own
    unflatten (or, untouched, sent as the original).
    """

    _generation = 0
    _remote_class: RemoteClass
    _keys: list[tuple] = []
    _sequence = False

    @classmethod
    def _make(cls, info: NodeInfo, children: list) -> RemoteNode:
        node = tuple.__new__(info.kind, children) if issubclass(info.kind, tuple) else object.__new__(info.kind)
        object.__setattr__(node, "_info", info)
        object.__setattr__(node, "_children", list(children))
        object.__setattr__(node, "_origin", None)
        object.__setattr__(node, "_pristine", False)
        return node

    @staticmethod
    def _flatten(node: RemoteNode) -> tuple[list, NodeInfo]:
        return list(node._children), node._info

    @staticmethod
    def _flatten_with_keys(node: RemoteNode) -> tuple[list, NodeInfo]:
        keys = type(node)._keys
        return [(_jax_key(keys[i] if i < len(keys) else ("flat", i)), child)
                for i, child in enumerate(node._children)], node._info

    @classmethod
    def _unflatten(cls, info: NodeInfo, children: Any) -> RemoteNode:
        """Rebuilt by JAX or a tree utility: the submission's own unflatten does it, in the subject (traced
        when the children are tracers), so that what it does to its children happens here too."""
        children = list(children)
        if getattr(_tracing, "local_nodes", False):
            return RemoteNode._make(info, children)
        session = cls._remote_class._session
        try:
            return session.rebuild_node(info, children)
        except WireError:
            return RemoteNode._make(info, children)  # children that cannot travel (a tree utility's markers)

    def __getattr__(self, name: str) -> Any:
        """Read from the submission's own object: the one it sent, or one its class rebuilds from these
        children (traced, when they are tracers), so that a class whose attributes are not its keys
        reads as it does in the submission's process."""
        if name.startswith("_"):
            raise AttributeError(name)
        session = type(self)._remote_class._session
        origin = self._origin
        if origin is not None and origin[1] == session.generation and self._pristine:
            for i, key in enumerate(type(self)._keys):  # the children came from this object's own fields
                if key == ("attr", name) and i < len(self._children):
                    return self._children[i]
            return session.proxy(origin[0], {}).__getattr__(name)
        if _has_tracer(self._children):
            return session.node_attribute(self, name)
        return session.request("getattr", obj=self, name=name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} of the submission is read-only here")

    def __iter__(self) -> Iterator[Any]:
        if type(self)._sequence:
            return iter(self._children)
        raise TypeError(f"{type(self).__name__} is not iterable")

    def __len__(self) -> int:
        if type(self)._sequence:
            return len(self._children)
        raise TypeError(f"{type(self).__name__} has no len()")

    def __getitem__(self, index: Any) -> Any:
        if type(self)._sequence:
            return self._children[index]
        for i, key in enumerate(type(self)._keys):
            if key == ("dict", index):
                return self._children[i]
        raise KeyError(index)

    def __repr__(self) -> str:
        fields = ", ".join(f"{k[1]}={c!r}" if k[0] == "attr" else repr(c)
                           for k, c in zip(type(self)._keys, self._children))
        return f"{type(self).__name__}({fields})"


def _jax_key(key: tuple) -> Any:
    from jax.tree_util import DictKey, FlattenedIndexKey, GetAttrKey, SequenceKey

    kind, value = key[0], key[1]
    if kind == "attr":
        return GetAttrKey(str(value))
    if kind == "dict":
        return DictKey(value)
    if kind == "seq":
        return SequenceKey(int(value))
    return FlattenedIndexKey(int(value))


# --- calls with tracers: the subject traces, the examiner runs the program --------------------------


def _axis_env() -> list[tuple[str, int]]:
    from jax._src import core

    return list(core.get_axis_env().axis_sizes.items())


def _abstract_mesh() -> Any:
    from jax._src import mesh as mesh_lib

    abstract = mesh_lib.get_abstract_mesh()
    return None if abstract.empty else abstract


def _trace_state_clean() -> bool:
    return codec.J.core.trace_state_clean()


def _has_tracer(tree: Any) -> bool:
    return any(isinstance(leaf, jax.core.Tracer) for leaf in jax.tree.leaves(tree))


def _traced_call(fn: RemoteObject, args: tuple, kwargs: dict) -> Any:
    from jax._src import core
    from jax._src import mesh as mesh_lib

    session = fn._session
    tracers: list[Any] = []
    _tracing.tracers = tracers
    try:
        call = Encoder(session._refer, session._ship_fallback)
        blob = call.dumps((args, kwargs))
    finally:
        _tracing.tracers = None
    reply = session.request("trace", fn=fn, call=blob, avals=[t.aval for t in tracers],
                            axis_env=list(_axis_env()), abstract_mesh=_abstract_mesh(), **session.context())
    with local_nodes():  # the subject built these objects already
        return _outputs(reply, tracers)


def _outputs(reply: dict, tracers: list) -> Any:
    """A traced call's result here: its program run on the check's tracers, the other leaves as they are."""
    from jax._src import core

    closed = reply["jaxpr"]
    outs = core.eval_jaxpr(closed.jaxpr, closed.consts, *tracers)
    leaves = list(reply["leaves"])
    for position, value in zip(reply["traced"], outs):
        leaves[position] = value
    return jax.tree.unflatten(reply["out_tree"], leaves)


@contextlib.contextmanager
def local_nodes() -> Iterator[None]:
    """Stand-in nodes made in this block are put together here, without asking the subject."""
    saved = getattr(_tracing, "local_nodes", False)
    _tracing.local_nodes = True
    try:
        yield
    finally:
        _tracing.local_nodes = saved


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
    found = session.request("load", path=path, label=label, **session.context(full=True))
    if "failure" in found:
        code, message = found["failure"]
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
        return self.session.request("run", fn=function, args=args)

    def setting(self, name: str) -> Any:
        return self.session.request("settings", names=[name])[name]

    def change_setting(self, name: str, value: Any) -> None:
        self.session.request("settings", names=[name], set={name: value})

    def buffer_pointers(self, array: Any) -> list[int]:
        # Sent by value the first time, the array becomes the subject's own from then on: later calls
        # hand the subject that very buffer, so donating it is seen here too.
        return list(self.session.request("pointers", arrays=[array])[0])

    def run_in_processes(self, exercise_file: str, function: str, what: str, options: dict) -> Any:
        return self.session.request("processes", function=function, what=what, options=options)

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

    def on_devices(self, n_devices: int, check: Any, exercise: Any) -> dict:
        from grader.checks import devices

        config = self.session.config.with_devices(n_devices)
        return devices.ask_worker(n_devices, check, exercise, subject=dataclasses.asdict(config),
                                  path=str(getattr(exercise, "manifest_path", "")))


def answer_of(run: Any, label: str) -> dict:
    """What a check function did, as the helper processes report it: ok, a failure, a TODO."""
    from grader.checks.core import KataFailure

    try:
        run()
    except SubjectFailure:
        raise
    except KataFailure as failure:
        return {"kind": "failure", "message": str(failure), "code": failure.code}
    except NotImplementedError as error:
        return {"kind": "todo", "message": str(error)}
    except Exception as error:  # noqa: BLE001 - the learner's error is the answer
        from grader.explain import explain, headline

        known = explain(error)
        text = headline(error) + (f". {known.idea}" if known is not None and known.idea else "")
        return {"kind": "failure", "message": f"{label.rsplit('/', 1)[-1]} raised {text}",
                "code": known.code if known is not None else "error"}
    return {"kind": "ok"}


_HELPER_SESSIONS: dict[str, Session] = {}


def check_in_subject(config: dict, path: str, label: str, check: Any) -> dict:
    """In a helper process (another device count): run `check(exercise)` on the exercise imported in
    a subject of the helper's own; the answer as `answer_of` gives it."""
    from grader.checks import site

    key = json.dumps(config, sort_keys=True)
    session = _HELPER_SESSIONS.get(key)
    if session is None:
        session = _HELPER_SESSIONS[key] = Session(SubjectConfig(**config))
        site.install(RemoteSite(session))
    try:
        return answer_of(lambda: check(load(session, path, label)), label)
    except SubjectFailure as failure:
        return {"kind": "failure", "message": str(failure), "code": failure.code}
    finally:
        session.end_check()


def forbid_inspection() -> None:
    """Linux: no other process of this user may read this one's memory or open its descriptors
    (/proc/PID/mem, /proc/PID/fd): a subject without the sandbox runs as the same user."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    pr_set_dumpable = 4
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_dumpable, 0)
