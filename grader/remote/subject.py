"""The subject: the only process that imports a submission, answering the examiner's requests.

`python -I -B -m grader.remote.subject --devices N --submission DIR --fds IN,OUT,AUDIT`

It starts JAX as the checks see it (grader.jaxsetup), imports everything it
will need, installs its audit hook (grader.remote.audit) and then serves one
request at a time (grader.remote.protocol lists them). It holds no check, no
expected value and no key: what it sends back are observations, and the
examiner decides. Objects that cannot travel by value (the submission's
functions, classes and modules, lowered programs) stay here, behind handles
that live until the check ends (`reset`).
"""

from __future__ import annotations

import argparse
import builtins
import itertools
import contextlib
import importlib
import io
import marshal
import os
import sys
import threading
import types
from pathlib import Path
from typing import Any

from grader.remote import codec
from grader.remote.codec import Decoder, Encoder, WireError
from grader.remote.protocol import FrameReader, SubjectGone, write_frame

# JAX settings a check may switch around a call; the subject takes the examiner's values for each request.
SETTINGS = ("jax_enable_x64", "jax_debug_nans", "jax_debug_infs", "jax_disable_jit", "jax_transfer_guard",
            "jax_transfer_guard_host_to_device", "jax_transfer_guard_device_to_host",
            "jax_transfer_guard_device_to_device", "jax_debug_key_reuse", "jax_check_tracer_leaks",
            "jax_numpy_rank_promotion", "jax_numpy_dtype_promotion", "jax_default_matmul_precision",
            "jax_default_prng_impl", "jax_threefry_partitionable", "jax_enable_checks", "jax_log_compiles",
            "jax_explain_cache_misses", "jax_softmax_custom_jvp", "jax_default_device")
# Modules shipped check code may name; the subject hands over its own copies.
SHIPPABLE_MODULES = ("jax", "jaxlib", "numpy", "ml_dtypes", "math", "re", "functools", "itertools",
                     "operator", "dataclasses", "typing", "collections", "numbers", "time", "enum",
                     "grader.checks", "chex", "string", "textwrap", "warnings")


class Placeholder:
    """Where an examiner's tracer sits in a traced call's arguments, until the trace supplies it."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index


class Server:
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
        self.tripwires: Any = None  # set once everything the subject needs is imported
        self.module_path: Path | None = None
        self.request_memo: dict[int, Any] = {}  # this request's arrays sent by value, by the examiner's index
        self.request_ids: dict[int, int] = {}  # id(array) -> its index in request_memo
        self.request_handles: set[int] = set()  # the handles this request named
        self.signatures: dict[int, tuple] = {}  # the examiner's id of a mirrored object -> its last state
        self.effects: dict[str, Any] = {}
        self.compiles: list[list] = []
        self._capture: _Capture | None = None

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

    # --- encoding what goes back ---------------------------------------------------------------

    def encoder(self, *, refer_requests: bool = True) -> Encoder:
        encoder = Encoder(lambda obj, e: self._refer(obj, e, refer_requests), self._fallback)
        encoder.node_type = self._treedef_node
        return encoder

    def _treedef_node(self, kind: type, aux: Any, children: list, e: Encoder) -> list:
        if isinstance(kind, type) and issubclass(kind, CheckNode):  # the check's own class, by its id
            return ["ctdn", aux.type_id, aux.aux_id, children]
        if hasattr(kind, "_check_type_id"):  # a check's dataclass: its metadata by field name
            return ["cdctd", kind._check_type_id, e.encode(dict(zip(kind._meta_fields, aux))), children]
        return ["tdn", self._handle_tag(kind), e.encode(aux), self.handle(aux), children]

    def _refer(self, obj: Any, e: Encoder, refer_requests: bool) -> list | None:
        import jax

        if refer_requests and id(obj) in self.request_ids and self.request_memo.get(self.request_ids[id(obj)]) is obj:
            return ["req", self.request_ids[id(obj)]]
        if id(obj) in self.shipped_ids and self.shipped.get(self.shipped_ids[id(obj)]) is obj:
            return ["ref", self.shipped_ids[id(obj)]]
        if isinstance(obj, CheckNode):
            return ["cnode", e.remember(obj), {"type": obj._aux.type_id, "aux": obj._aux.aux_id,
                                               "children": e.items(obj._children)}]
        if hasattr(type(obj), "_check_type_id") and not isinstance(obj, type):  # a new one, made here
            return ["cdcnew", e.remember(obj), type(obj)._check_type_id, e.encode(dict(vars(obj)))]
        if isinstance(obj, jax.core.Tracer):  # out of its trace: its type travels, for what it can still say
            aval = getattr(obj, "aval", None)
            return ["leak", str(aval)[:200], e.encode(aval) if isinstance(aval, jax.core.ShapedArray) else None]
        if isinstance(obj, jax.Array):
            tag = codec.encode_array(e, obj)
            tag[2]["h"] = self.handle(obj)
            return tag
        if isinstance(obj, (types.ModuleType, types.FunctionType, types.MethodType, types.BuiltinFunctionType)):
            return self._handle_tag(obj)
        if isinstance(obj, type) and not codec._trusted_module(getattr(obj, "__module__", "")):
            return self._handle_tag(obj)
        if not codec._trusted_module(type(obj).__module__):
            return self._node(obj, e) or self._handle_tag(obj)
        return None

    def _fallback(self, obj: Any, e: Encoder) -> list:
        return self._handle_tag(obj)

    def _handle_tag(self, obj: Any) -> list:
        return ["H", self.handle(obj), describe(obj)]

    def _node(self, obj: Any, e: Encoder) -> list | None:
        """A registered pytree node of the submission's: its children travel, its class stays here."""
        from jax._src import tree_util

        flat = tree_util.default_registry.flatten_one_level_with_keys(obj)
        if flat is None:
            return None
        keyed, aux = flat
        index = e.remember(obj)
        if isinstance(obj, tuple) and hasattr(type(obj), "_fields"):
            keys = [["attr", str(name)] for name in type(obj)._fields]
        else:
            keys = [_key(k) for k, _ in keyed]
        return ["node", index, {"type": self._handle_tag(type(obj)), "aux": e.encode(aux),
                                "aux_handle": self.handle(aux), "obj": self.handle(obj), "keys": keys,
                                "children": e.items([child for _, child in keyed]),
                                "sequence": isinstance(obj, tuple)}]

    # --- decoding what comes in ----------------------------------------------------------------

    def decode(self, data: bytes, placeholders: list | None = None) -> Any:
        """A request's value; its by-value objects become `request_memo`, except in a traced call's
        arguments (`placeholders` given), which are the trace's own."""
        import jax

        if placeholders is None:
            self.request_memo = {}
        decoder_memo: dict[int, Any] = {}

        def resolve(tag: list, d: Decoder) -> Any:
            return self._resolve(tag, d, placeholders)

        with jax.transfer_guard("allow"):  # rebuilding the examiner's arrays is the protocol's transfer
            value = Decoder.loads(data, resolve, memo=decoder_memo)
        if placeholders is None:
            self.request_memo = {i: o for i, o in decoder_memo.items() if isinstance(o, jax.Array)}
            self.request_ids = {id(o): i for i, o in self.request_memo.items()}
        return value

    def _resolve(self, tag: list, d: Decoder, placeholders: list | None) -> Any:
        kind = tag[0]
        if kind == "H":
            if int(tag[1]) not in self.objects:
                raise WireError(f"no object {tag[1]} here (its check ended?)")
            self.request_handles.add(int(tag[1]))
            return self.objects[int(tag[1])]
        if kind == "attr":  # a module's function by name, as it is bound now
            if int(tag[1]) not in self.objects:
                raise WireError(f"no object {tag[1]} here (its check ended?)")
            return getattr(self.objects[int(tag[1])], str(tag[2]))
        if kind == "tr":
            if placeholders is None:
                raise WireError("an abstract value outside a trace")
            return placeholders[int(tag[1])]
        if kind in ("ship", "shipcls", "shipobj", "shipjit"):
            return self._unship(tag, d)
        if kind == "fref":
            return _trusted_function(tag[1])
        if kind == "mod":
            return _module(tag[1])
        if kind == "node":
            return self._rebuild_node(tag, d)
        if kind == "mut":
            return self._mirror(tag, d)
        if kind == "cnode":
            return self._check_node(tag, d)
        if kind == "cdc":
            return self._check_dataclass(tag, d)
        if kind == "re":
            import re

            return re.compile(tag[1], int(tag[2]))
        if kind == "unset":
            from jax._src import config as jax_config

            return jax_config.config_ext.unset
        raise WireError(f"unknown tag {kind!r}")

    def _rebuild_node(self, tag: list, d: Decoder) -> Any:
        import jax
        from jax._src import tree_util

        info = tag[2]
        kind = self.objects[int(info["type"])]
        aux = self.objects[int(info["aux_handle"])]
        return d.keep(tag[1], _unflatten_one(kind, aux, d.items(info["children"])))

    def _unship(self, tag: list, d: Decoder) -> Any:
        kind, index, body = tag[0], tag[1], tag[2]
        ship_id = int(body["id"])
        if kind == "shipobj":
            obj = self.shipped.get(ship_id)
            cls = d.decode(body["class"])
            if obj is None:
                obj = object.__new__(cls)
                self._keep_ship(ship_id, obj)
            d.keep(index, obj)
            obj.__dict__.update(d.decode(body["state"]))
            return obj
        if ship_id in self.shipped:
            return d.keep(index, self.shipped[ship_id])
        if kind == "shipjit":
            import jax

            jitted = jax.jit(d.decode(body["fun"]), **d.decode(body["options"]))
            self._keep_ship(ship_id, jitted)
            return d.keep(index, jitted)
        if kind == "shipcls":
            namespace: dict[str, Any] = {"__module__": body["module"], "__qualname__": body["qualname"]}
            cls = types.new_class(body["name"], tuple(d.decode(body["bases"])), {},
                                  lambda ns: ns.update(namespace))
            self._keep_ship(ship_id, cls)
            d.keep(index, cls)
            for name, value in d.decode(body["dict"]).items():
                setattr(cls, name, value)
            return cls
        code = marshal.loads(d.blob(body["code"]))
        if not isinstance(code, types.CodeType):
            raise WireError("a shipped function without code")
        namespace = {"__name__": body["module"], "__builtins__": builtins}
        cells = tuple(self.cells.setdefault(int(cell_id), types.CellType()) for cell_id in body["cells"])
        if len(cells) != len(code.co_freevars):
            raise WireError("a shipped function with the wrong number of closure cells")
        function = types.FunctionType(code, namespace, body["name"], None, cells or None)
        function.__qualname__ = body["qualname"]
        self._keep_ship(ship_id, function)
        d.keep(index, function)
        namespace.update(d.decode(body["globals"]))
        for cell_id, cell, (filled, value) in zip(body["cells"], cells, d.decode(body["closure"])):
            if filled:
                cell.cell_contents = value
            self.cell_seen[int(cell_id)] = value if filled else _EMPTY
        function.__defaults__ = d.decode(body["defaults"])
        function.__kwdefaults__ = d.decode(body["kwdefaults"])
        function.__dict__.update(d.decode(body["dict"]))
        return function

    def _mirror(self, tag: list, d: Decoder) -> Any:
        """A list, dict, set or NumPy array of the examiner's: the same object here every time it is
        sent in this check (brought up to date), and its changes go back after every request."""
        import numpy as np

        examiner_id, kind = int(tag[2]), tag[3]
        obj = self.shipped.get(examiner_id)
        if kind == "nd":
            array = d.decode(tag[4])
            if not isinstance(obj, np.ndarray) or obj.shape != array.shape or obj.dtype != array.dtype:
                obj = array
            else:
                np.copyto(obj, array)
            d.keep(tag[1], obj)
        else:
            empty = {"list": list, "dict": dict, "set": set}[kind]
            if type(obj) is not empty:
                obj = empty()
            d.keep(tag[1], obj)
            if kind == "dict":
                contents = {}
                for key, value in tag[4]:
                    key = d.decode(key)
                    contents[key] = d.decode(value)
            else:
                contents = d.items(tag[4])
            _update(obj, contents)
        self._keep_ship(examiner_id, obj)
        self.signatures[examiner_id] = _signature(obj)
        return obj

    def _check_dataclass(self, tag: list, d: Decoder) -> Any:
        """An object of a dataclass a check registered as a pytree: a dataclass here too, with the same
        fields and data/metadata split, the same object each time it is sent, mirrored both ways."""
        import dataclasses

        info = tag[2]
        type_id, examiner_id = int(info["type"]), int(info["id"])
        kind = self.check_node_types.get(type_id)
        if kind is None:
            spec = info["spec"]
            kind = dataclasses.make_dataclass(str(info["name"]), list(spec["fields"]), frozen=bool(spec["frozen"]))
            kind._check_type_id, kind._meta_fields = type_id, tuple(spec["meta"])
            import jax

            jax.tree_util.register_dataclass(kind, data_fields=list(spec["data"]), meta_fields=list(spec["meta"]))
            self.check_node_types[type_id] = kind
        obj = self.shipped.get(examiner_id)
        if type(obj) is not kind:
            obj = object.__new__(kind)
        d.keep(tag[1], obj)
        for name, value in d.decode(info["values"]).items():
            object.__setattr__(obj, name, value)
        self._keep_ship(examiner_id, obj)
        self.signatures[examiner_id] = _signature(obj)
        return obj

    def _check_node(self, tag: list, d: Decoder) -> Any:
        """A stand-in for an object of a pytree class of the check's, with the same keys and children."""
        info = tag[2]
        kind = self.check_node_types.get(int(info["type"]))
        if kind is None:
            kind = _check_node_type(str(info["name"]), [tuple(k) for k in info["keys"]], bool(info["sequence"]))
            self.check_node_types[int(info["type"])] = kind
        aux = CheckAux(int(info["type"]), int(info["aux"]), _hashable(d.decode(info["aux_value"])))
        node = kind.__new__(kind)
        d.keep(tag[1], node)
        object.__setattr__(node, "_aux", aux)
        object.__setattr__(node, "_children", d.items(info["children"]))
        return node

    def _keep_ship(self, ship_id: int, obj: Any) -> None:
        self.shipped[ship_id] = obj
        self.shipped_ids[id(obj)] = ship_id

    # --- serving -------------------------------------------------------------------------------

    def serve(self) -> None:
        while True:
            try:
                data = self.reader.read()
            except SubjectGone:
                return
            reply = self.answer(data)
            write_frame(self.replies, reply)

    def answer(self, data: bytes) -> bytes:
        self.effects = {"out": "", "err": "", "compiles": [], "deleted": [], "handles": {}}
        self.compiles = self.effects["compiles"]
        try:
            request = self.decode(data)
            for cell_id, value in (request.get("cells") or {}).items():
                if int(cell_id) in self.cells:
                    self.cells[int(cell_id)].cell_contents = value
                    self.cell_seen[int(cell_id)] = value
            op = request["op"]
            method = getattr(self, f"op_{op}", None)
            if method is None:
                raise WireError(f"unknown request {op!r}")
            with self._captured():
                value = method(request)
            self._check_tripwires()
            return self._reply({"ok": True, "value": value})
        except BaseException as error:  # noqa: BLE001 - every failure goes back to the examiner
            if isinstance(error, (KeyboardInterrupt, SystemExit)) and not isinstance(error, SystemExit):
                raise
            self._check_tripwires()
            return self._reply({"ok": False, "error": error})
        finally:
            self.request_memo, self.request_ids = {}, {}
            self.request_handles = set()

    def _check_tripwires(self) -> None:
        """End the subject, reported, if the request changed what no exercise changes (see audit.Tripwires)."""
        from grader.remote import audit

        changed = self.tripwires.changed() if self.tripwires is not None else ""
        if changed:
            audit.refuse_now(f"{changed}, which an exercise never needs")

    def _reply(self, body: dict) -> bytes:
        import jax

        for cell_id, cell in self.cells.items():  # closure variables the call rebound (nonlocal)
            now = _cell_value(cell)
            if now is not self.cell_seen.get(cell_id, _EMPTY) and now is not _EMPTY:
                self.effects.setdefault("cells", {})[cell_id] = now
                self.cell_seen[cell_id] = now
        self._note_arrays()
        self._note_mirrored()
        body["effects"] = self.effects
        try:
            return self.encoder().dumps(body)
        except WireError as error:
            failure = WireError(f"the result could not be sent back: {error}")
            return self.encoder().dumps({"ok": False, "error": failure, "effects": self.effects})

    @contextlib.contextmanager
    def _captured(self):
        import warnings

        capture = _Capture()
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = capture.out, capture.err
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                yield
        finally:
            sys.stdout, sys.stderr = saved
            self.effects["out"] = capture.out.getvalue()[-200000:]
            self.effects["err"] = capture.err.getvalue()[-200000:]
            self.effects["warnings"] = [[w.category, str(w.message)[:2000]] for w in caught[:20]]

    # --- the requests ----------------------------------------------------------------------------

    def op_hello(self, request: dict) -> dict:
        import jax

        return {"version": codec.VERSION, "devices": jax.device_count(), "pid": os.getpid()}

    def op_load(self, request: dict) -> Any:
        from grader.checks.core import KataFailure
        from grader.loading import load_exercise

        self.reset()
        if "chex" in sys.modules:  # chex counts traces per wrapped function, across checks: start afresh
            sys.modules["chex"].clear_trace_counter()
        path = (self.submission / str(request["path"])).resolve()
        if not path.is_relative_to(self.submission):
            raise WireError("an exercise path outside the submission")
        from grader.remote import audit

        audit.submission_files.add(str(path))
        try:
            with self._settings(request.get("settings")):
                loaded = load_exercise(path, str(request["label"]))
        except KataFailure as failure:
            return {"failure": [failure.code, str(failure)]}
        self.module, self.module_path = loaded.module, path
        functions = {name: describe(value) for name, value in vars(loaded.module).items()
                     if not name.startswith("__") and callable(value) and not isinstance(value, type)}
        return {"module": self.handle(loaded.module), "functions": functions}

    def op_reset(self, request: dict) -> None:
        self.reset()

    def op_getattr(self, request: dict) -> Any:
        obj, name = request["obj"], str(request["name"])
        if name == "__dict__" and isinstance(obj, types.ModuleType):  # vars(module): its own names only
            return {k: v for k, v in vars(obj).items() if not (k.startswith("__") and k.endswith("__"))}
        return getattr(obj, name)

    def op_setattr(self, request: dict) -> None:
        setattr(request["obj"], str(request["name"]), request["value"])

    def op_call(self, request: dict) -> Any:
        import jax

        with self._settings(request.get("settings")), self._mesh(request.get("mesh")):
            try:
                return request["fn"](*request.get("args", ()), **request.get("kwargs", {}))
            finally:
                jax.effects_barrier()  # printed text of this call arrives before the reply

    def op_run(self, request: dict) -> Any:
        """A function of the checks library (or a check's own), run here for what it sets up or saw."""
        return request["fn"](*request.get("args", ()))

    def op_observe(self, request: dict) -> Any:
        from grader.loading import ExerciseModule

        exercise = ExerciseModule(self.module, str(request.get("label", "")))
        with self._settings(request.get("settings")), self._mesh(request.get("mesh")):
            return request["probe"](exercise, *request.get("args", ()), **request.get("kwargs", {}))

    def op_trace(self, request: dict) -> dict:
        """Trace a callable for abstract values: its jaxpr and the structure of its output."""
        import jax
        from jax._src import api_util, core
        from jax._src import linear_util as lu
        from jax._src.interpreters import partial_eval as pe

        avals = list(request["avals"])
        out_tree: list[Any] = []

        def flat(*tracers: Any) -> list:
            decoded = self.decode(request["call"], placeholders=list(tracers))
            if "rebuild" in request:  # one of the submission's pytree objects, made from traced children
                out = _unflatten_one(request["rebuild"]["type"], request["rebuild"]["aux"], decoded[2])
                if "attribute" in request:
                    out = getattr(out, str(request["attribute"]))
            else:
                args, kwargs = decoded
                out = request["fn"](*args, **kwargs)
            leaves, tree = jax.tree.flatten(out)
            # Only the tracers are the program's outputs; any other leaf (a string, a constant array)
            # comes back as it is, as it would to a caller tracing in the same process.
            traced = [i for i, leaf in enumerate(leaves) if isinstance(leaf, core.Tracer)]
            out_tree.append((tree, traced, [None if i in traced else leaf for i, leaf in enumerate(leaves)]))
            return [leaves[i] for i in traced]

        debug = api_util.debug_info("examiner trace", flat, tuple(avals), {})
        axis_env = [(name, int(size)) for name, size in request.get("axis_env", [])]
        with self._settings(request.get("settings")), self._mesh(request.get("mesh")), \
                core.extend_axis_env_nd(axis_env), self._abstract_mesh(request.get("abstract_mesh")):
            jaxpr, _, consts = pe.trace_to_jaxpr_dynamic(lu.wrap_init(flat, debug_info=debug), avals)
        tree, traced, leaves = out_tree[0]
        return {"jaxpr": core.ClosedJaxpr(jaxpr, consts), "out_tree": tree, "traced": traced, "leaves": leaves}

    def op_rebuild(self, request: dict) -> Any:
        """An object of one of the submission's pytree classes, made by its own unflatten."""
        return _unflatten_one(request["type"], request["aux"], request["children"])

    def op_swap(self, request: dict) -> dict:
        from grader.checks.values import swap_function

        manager = swap_function(request["module"], str(request["name"]), request["replacement"])
        original = manager.__enter__()
        token = len(self.swaps) + 1
        self.swaps[token] = manager
        return {"token": token, "original": original}

    def op_unswap(self, request: dict) -> None:
        self._unswap(int(request["token"]))

    def _unswap(self, token: int) -> None:
        manager = self.swaps.pop(token, None)
        if manager is not None:
            manager.__exit__(None, None, None)

    def op_settings(self, request: dict) -> dict:
        import jax

        for name, value in (request.get("set") or {}).items():
            if name in SETTINGS:
                jax.config.update(str(name), value)
        return {str(name): getattr(jax.config, str(name)) for name in request["names"]}

    def op_pointers(self, request: dict) -> list:
        return [[shard.data.unsafe_buffer_pointer() for shard in array.addressable_shards]
                for array in request["arrays"]]

    def op_processes(self, request: dict) -> Any:
        from grader.checks.processes import run_in_processes

        if self.module_path is None:
            raise WireError("no exercise is loaded")
        return run_in_processes(str(self.module_path), str(request["function"]), what=str(request["what"]),
                                observed=True, **request.get("options", {}))

    # --- what a request changed ------------------------------------------------------------------

    def _note_arrays(self) -> None:
        """Inputs the call deleted (donated), sent by value or by handle, and the handle each input
        sent by value now has."""
        import jax

        for index, obj in self.request_memo.items():
            if obj.is_deleted():
                self.effects["deleted"].append(index)
            else:
                self.effects["handles"][index] = self.handle(obj)
        for hid in self.request_handles:
            obj = self.objects.get(hid)
            if isinstance(obj, jax.Array) and obj.is_deleted():
                self.effects.setdefault("deleted_handles", []).append(hid)

    def _note_mirrored(self) -> None:
        """The examiner's containers and shipped objects that changed here: sent back whole."""
        for examiner_id, obj in self.shipped.items():
            if isinstance(obj, (types.FunctionType, type)) or not _mirrorable(obj):
                continue
            now = _signature(obj)
            if not _same_signature(now, self.signatures.get(examiner_id)):
                self.effects.setdefault("mirror", {})[examiner_id] = _contents(obj)
                self.signatures[examiner_id] = now

    # --- the examiner's settings and mesh around a request --------------------------------------------

    @contextlib.contextmanager
    def _settings(self, values: dict | None):
        import jax
        from jax._src import config as jax_config

        for name, parts in (values or {}).items():
            state = jax_config.config_states.get(name)
            if name not in SETTINGS or state is None or not isinstance(parts, dict):
                continue
            if "global" in parts and state.get_global() != parts["global"]:
                jax.config.update(name, parts["global"])
            if "local" in parts:
                state.set_local(parts["local"])
                hook = getattr(state, "_update_thread_local_hook", None)
                if hook is not None:
                    hook(None if parts["local"] is jax_config.config_ext.unset else parts["local"])
        yield

    @contextlib.contextmanager
    def _mesh(self, mesh: Any):
        import jax

        if mesh is None:
            yield
            return
        with jax.set_mesh(mesh):
            yield

    @contextlib.contextmanager
    def _abstract_mesh(self, mesh: Any):
        from jax._src import mesh as mesh_lib

        if mesh is None:
            yield
            return
        with mesh_lib.use_abstract_mesh(mesh):
            yield


_EMPTY = object()


def _cell_value(cell: Any) -> Any:
    try:
        return cell.cell_contents
    except ValueError:
        return _EMPTY


def _hashable(value: Any) -> Any:
    try:
        hash(value)
        return value
    except TypeError:
        return repr(value)


class CheckAux:
    """The aux data of a stand-in for a check's pytree class: equal when the class and its aux data are."""

    __slots__ = ("type_id", "aux_id", "value")

    def __init__(self, type_id: int, aux_id: int, value: Any) -> None:
        self.type_id, self.aux_id, self.value = type_id, aux_id, value

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, CheckAux) and (self.type_id, self.value) == (other.type_id, other.value)

    def __hash__(self) -> int:
        return hash((self.type_id, self.value))


class CheckNode:
    """A stand-in for an object of one of the check's pytree classes: the same fields (keys) and
    children; sent back, the examiner rebuilds the real object."""

    _keys: list[tuple] = []
    _sequence = False

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        for key, child in zip(type(self)._keys, self._children):
            if key == ("attr", name):
                return child
        raise AttributeError(f"{type(self).__name__} has no field {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        for i, key in enumerate(type(self)._keys):
            if key == ("attr", name):
                self._children[i] = value
                return
        object.__setattr__(self, name, value)

    def __getitem__(self, index: Any) -> Any:
        if type(self)._sequence:
            return self._children[index]
        for key, child in zip(type(self)._keys, self._children):
            if key == ("dict", index):
                return child
        raise KeyError(index)

    def __iter__(self) -> Any:
        return iter(self._children) if type(self)._sequence else iter(k[1] for k in type(self)._keys)

    def __len__(self) -> int:
        return len(self._children)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(map(repr, self._children))})"


def _check_node_type(name: str, keys: list[tuple], sequence: bool) -> type:
    import jax
    from jax.tree_util import DictKey, FlattenedIndexKey, GetAttrKey, SequenceKey

    def key(tag: tuple) -> Any:
        kind, value = tag
        return {"attr": GetAttrKey, "dict": DictKey, "seq": SequenceKey}.get(kind, FlattenedIndexKey)(value)

    kind = types.new_class(name if name.isidentifier() else "CheckNode", (CheckNode,), {})
    kind._keys, kind._sequence = keys, sequence

    def unflatten(aux: CheckAux, children: Any) -> Any:
        node = kind.__new__(kind)
        object.__setattr__(node, "_aux", aux)
        object.__setattr__(node, "_children", list(children))
        return node

    jax.tree_util.register_pytree_with_keys(
        kind, lambda n: ([(key(k), c) for k, c in zip(keys, n._children)], n._aux), unflatten,
        lambda n: (list(n._children), n._aux))
    return kind


class _Capture:
    """What the submission printed during one request (sys.stdout and sys.stderr)."""

    def __init__(self) -> None:
        self.out, self.err = _Lines(), _Lines()


class _Lines(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        with self._lock:
            if self.tell() > 1_000_000:
                return len(text)  # a flood is cut: the examiner needs the beginning, not megabytes
            return super().write(text)


def _mirrorable(obj: Any) -> bool:
    """A container, a NumPy array, or an object of a class a check shipped (with attributes)."""
    import numpy as np

    if isinstance(obj, (list, dict, set, np.ndarray)):
        return True
    return hasattr(obj, "__dict__") and not type(obj).__module__.startswith(("jax", "jaxlib"))


def _signature(obj: Any) -> tuple:
    """What an object holds: a NumPy array by its bytes, anything else by the identity of its items."""
    import hashlib

    import numpy as np

    if isinstance(obj, np.ndarray):
        return ("bytes", obj.shape, obj.dtype.str, hashlib.sha1(np.ascontiguousarray(obj).tobytes()).digest())
    items = obj.items() if isinstance(obj, dict) else obj if isinstance(obj, (list, set)) else vars(obj).items()
    flat = [part for item in items for part in (item if isinstance(obj, dict) or not isinstance(obj, (list, set))
                                                else (item,))]
    return ("items", tuple(flat))


def _same_signature(a: tuple | None, b: tuple | None) -> bool:
    if a is None or b is None or a[0] != b[0]:
        return False
    if a[0] == "bytes":
        return a == b
    return len(a[1]) == len(b[1]) and all(x is y for x, y in zip(a[1], b[1]))


def _update(obj: Any, contents: Any) -> None:
    if isinstance(obj, list):
        obj[:] = contents
    else:
        obj.clear()
        obj.update(contents)


def _unflatten_one(kind: type, aux: Any, children: list) -> Any:
    import jax
    from jax._src import tree_util

    leaf = jax.tree.structure(0)
    tree = jax.tree_util.PyTreeDef.from_node_data_and_children(tree_util.default_registry, (kind, aux),
                                                               [leaf] * len(children))
    return jax.tree.unflatten(tree, children)


def describe(obj: Any) -> dict:
    """What the examiner may know of an object without asking: its kind and, for a function, its
    names, signature, where it is defined and whether it wraps another (what jax.jit reads of it)."""
    import inspect

    info: dict[str, Any] = {"type": type(obj).__name__, "name": str(getattr(obj, "__name__", ""))[:200],
                            "qualname": str(getattr(obj, "__qualname__", ""))[:200],
                            "callable": callable(obj), "class": isinstance(obj, type)}
    if isinstance(obj, type):
        info["tuple"] = issubclass(obj, tuple)
        return info
    if not callable(obj) or isinstance(obj, types.ModuleType):
        return info
    info["module"] = str(getattr(obj, "__module__", "") or "")
    info["wrapped"] = hasattr(obj, "__wrapped__")
    code = getattr(inspect.unwrap(obj) if info["wrapped"] else obj, "__code__", None)
    if isinstance(code, types.CodeType):
        info["code"] = [code.co_filename, code.co_firstlineno, code.co_name]
    try:
        signature = inspect.signature(obj)
        info["signature"] = [[p.name, int(p.kind), p.default is not p.empty] for p in signature.parameters.values()]
    except (TypeError, ValueError):
        pass
    return info


def _contents(obj: Any) -> Any:
    """A new container with what `obj` holds now: sent as a value, where `obj` itself would be sent
    as a reference to the examiner's own object."""
    import numpy as np

    if isinstance(obj, (list, dict, set)):
        return type(obj)(obj)
    if isinstance(obj, np.ndarray):
        return obj.copy()
    return dict(obj.__dict__)


def _key(key: Any) -> list:
    from jax.tree_util import DictKey, FlattenedIndexKey, GetAttrKey, SequenceKey

    if isinstance(key, GetAttrKey):
        return ["attr", str(key.name)]
    if isinstance(key, DictKey):
        return ["dict", key.key if isinstance(key.key, (str, int)) else repr(key.key)]
    if isinstance(key, SequenceKey):
        return ["seq", int(key.idx)]
    if isinstance(key, FlattenedIndexKey):
        return ["flat", int(key.key)]
    return ["flat", 0]


def _trusted_function(name: str) -> Any:
    module_name, _, qualname = str(name).partition(":")
    if not any(module_name == m or module_name.startswith(m + ".") for m in SHIPPABLE_MODULES):
        raise WireError(f"refused to look up {name!r}")
    found: Any = _module(module_name)
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


_PRIVATE_MODULES: dict[str, types.ModuleType] = {}


def _module(name: str) -> types.ModuleType:
    name = str(name)
    if name in _PRIVATE_MODULES:
        return _PRIVATE_MODULES[name]
    if not any(name == m or name.startswith(m + ".") for m in SHIPPABLE_MODULES):
        raise WireError(f"refused to hand over module {name!r}")
    return importlib.import_module(name)


def _listen_to_compiles(server: Server) -> None:
    """Note every XLA compile in the request it happens in: name, eager or not, input types."""
    import logging

    import jax
    from grader.checks import compiles

    logger = logging.getLogger(compiles._LOWERING_LOGGER)
    spy = compiles._LoweringSpy(quiet_below=logger.getEffectiveLevel())
    logger.addFilter(spy)
    logger.setLevel(logging.DEBUG)

    def listener(event: str, duration: float, **kwargs: Any) -> None:
        if event != compiles.COMPILE_EVENT:
            return
        signature, spy.latest = spy.latest, None
        eager = compiles._is_eager(sys._getframe(1))
        server.compiles.append([str(kwargs.get("fun_name", "")), eager,
                                None if signature is None else [[list(s), d] for s, d in signature]])

    jax.monitoring.register_event_duration_secs_listener(listener)


def _prepare() -> None:
    """Import now what a request may need later: after the audit hook, the grader is not importable."""
    import grader.checks  # noqa: F401
    import grader.checks.processes  # noqa: F401
    import grader.explain  # noqa: F401
    import grader.loading  # noqa: F401
    from grader.checks import compiles

    for name, module in list(sys.modules.items()):
        if name == "grader" or name.startswith("grader."):
            _PRIVATE_MODULES[name] = module
    del compiles


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m grader.remote.subject")
    parser.add_argument("--devices", type=int, default=8)
    parser.add_argument("--submission", required=True)
    parser.add_argument("--fds", required=True, help="requests,replies,audit")
    args = parser.parse_args(argv)
    requests, replies, audit_fd = (int(x) for x in args.fds.split(","))
    from grader.limits import die_with_parent

    die_with_parent()
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    import jax  # noqa: F401 - imported, not started: the multi-process checks' fork server copies this process

    from grader.checks import forkserver
    from grader.jaxsetup import configure_jax

    forkserver.start()
    configure_jax(args.devices)
    from grader.warm import maybe_record_compiles

    maybe_record_compiles()  # only in `grader warm`'s trusted run
    server = Server(Path(args.submission), args.devices, requests, replies)
    from grader.remote import audit

    _listen_to_compiles(server)
    _prepare()
    server.tripwires = audit.Tripwires.of_grader_and_jax()
    audit.install(audit_fd, protected=(requests, replies, audit_fd))
    server.serve()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)  # no teardown of JAX: the examiner is not waiting for it


if __name__ == "__main__":
    main()
