"""Encoding: Python, NumPy and JAX values into a JSON tree and binary blobs."""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Callable, Set as AbstractSet
from typing import Any

import jax
import jax.numpy
import numpy as np

from grader.engine.remote.codec.wire import (BUILTIN_TYPES, J, SINGLETONS, VERSION, WireError, class_name, encode_dtype, is_scalar_type, known_serialized, pack, protocol_transfers, qualified, remember_serialized, trusted_module)


# --- the encoder ----------------------------------------------------------------------------------


class Encoder:
    """Turns one message's values into a JSON tree and blobs.

    `refer(obj)` is the sending side's say over objects that are not plain
    scalars, asked before the built-in encodings (so a side can send its
    arrays by handle): a reference tag, or None. `fallback(obj)` is asked for
    what no encoding fits (a handle, a shipped function); without one, such
    an object is an error.
    """

    def __init__(self, refer: Callable[[Any, Encoder], list | None],
                 fallback: Callable[[Any, Encoder], list] | None = None, plain: set[type] | None = None,
                 trusted: AbstractSet[type] = frozenset()) -> None:
        self.refer, self.fallback = refer, fallback
        # Set before anything of an object whose type is not in `trusted` is looked at: encoding it may
        # have run that object's own code (a pytree's flatten, a `__class__` property, `__array__`).
        self.trusted, self.met_foreign = trusted, False
        # Types `refer` has said it never refers (JAX's jaxpr parts, dtypes): not asked again.
        self.plain = plain if plain is not None else set()
        self.node_type: Callable[[type, Any, list, Encoder], list] | None = None  # a treedef's foreign node
        # Whether an exported program's bytes may come from the module's record of earlier crossings. The
        # subject says no: any code there can put an entry in that record, pairing a program of its own
        # with another program's bytes.
        self.reuse_serialized = True
        self.blobs: list[bytes] = []
        self.memo: dict[int, int] = {}
        self.by_value: dict[Any, int] = {}  # equal immutable descriptors (avals, contexts): sent once
        self._alive: list[Any] = []  # keeps encoded objects alive so their ids stay unique
        # type -> the encoding that fitted it (one of `_BY_TYPE_ONLY`), for this message only: a table
        # shared by every message would be a module-level dict any code could add its own encoder to.
        self.by_type: dict[type, Callable[[Encoder, Any], Any]] = {}

    def blob(self, data: bytes) -> int:
        self.blobs.append(bytes(data))
        return len(self.blobs) - 1

    def remember(self, obj: Any) -> int:
        index = len(self.memo)
        self.memo[id(obj)] = index
        self._alive.append(obj)
        return index

    def remembered(self) -> dict[int, Any]:
        """The objects encoded so far that the message names by index (see `remember`), by index."""
        by_id = {id(obj): obj for obj in self._alive}
        return {index: by_id[key] for key, index in self.memo.items() if key in by_id}

    def dumps(self, value: Any) -> bytes:
        with protocol_transfers():
            return pack([VERSION, self.encode(value)], self.blobs)

    def encode(self, v: Any) -> Any:
        if v is None or isinstance(v, (bool, str)):
            if type(v) is not str and type(v) is not bool and v is not None:
                self.met_foreign = True  # a str subclass: freed later, its `__del__` runs then
            return v
        kind = type(v)
        if kind is int:
            return v if abs(v) < 2 ** 62 else ["big", str(v)]
        if kind is float:
            return v if math.isfinite(v) else ["f", repr(v)]
        if id(v) in self.memo:
            return ["@", self.memo[id(v)]]
        if kind not in self.trusted:
            self.met_foreign = True
        if kind in _BY_VALUE:
            return self._once(v)
        if kind not in self.plain:
            referred = self.refer(v, self)
            if referred is not None:
                return referred
        method = self.by_type.get(kind)
        if method is not None:
            found = method(self, v)
            if found is not None:
                return found
        for types, method in _ENCODERS:
            if isinstance(v, types):
                found = method(self, v)
                if found is not None:
                    if method in _BY_TYPE_ONLY:
                        self.by_type[kind] = method
                    return found
        if self.fallback is not None:
            return self.fallback(v, self)
        raise WireError(f"cannot send a {type(v).__module__}.{type(v).__qualname__} across the wall")

    def items(self, values: Any) -> list:
        return [self.encode(x) for x in values]

    def _once(self, v: Any) -> Any:
        """An immutable descriptor a jaxpr repeats (every variable has an aval, every equation a
        context): its first occurrence is kept under an index, the others refer to it."""
        index = self.by_value.get(v)
        if index is not None:
            return ["@", index]
        encoded = _enc_jaxpr_parts(self, v)
        index = self.by_value[v] = self.remember(v)
        return ["=", index, encoded]


def _enc_scalar(e: Encoder, v: Any) -> Any:
    if isinstance(v, int):
        return ["int", str(int(v))] if type(v) is not int else e.encode(int(v))
    if isinstance(v, float):
        return ["flt", repr(float(v))]
    if isinstance(v, complex):
        return ["c", repr(v.real), repr(v.imag)]
    return None


def _enc_bytes(e: Encoder, v: Any) -> Any:
    return ["b", e.blob(v)]


def _enc_container(e: Encoder, v: Any) -> Any:
    kind = type(v)
    if kind is tuple:
        index = e.remember(v)
        return ["T", index, e.items(v)]
    if kind is list:
        index = e.remember(v)
        return ["L", index, e.items(v)]
    if kind is dict:
        index = e.remember(v)
        return ["D", index, [[e.encode(k), e.encode(x)] for k, x in v.items()]]
    if kind is set:
        return ["S", e.remember(v), e.items(v)]
    if kind is frozenset:
        return ["FS", e.remember(v), e.items(v)]
    if isinstance(v, tuple) and hasattr(kind, "_fields") and trusted_module(kind.__module__):
        return ["NT", e.remember(v), qualified(kind), e.items(v)]
    return None


def encode_numpy(e: Encoder, v: Any) -> Any:
    if isinstance(v, np.ndarray):
        if v.dtype.hasobject:
            return None
        index = e.remember(v)
        return ["nd", index, encode_dtype(v.dtype), list(v.shape), e.blob(np.ascontiguousarray(v).tobytes()),
                bool(v.flags.writeable)]
    if isinstance(v, np.generic):
        return ["ns", encode_dtype(v.dtype), e.blob(np.asarray(v).tobytes())]
    if isinstance(v, np.dtype):
        return ["dt", encode_dtype(v)]
    return None


def _enc_misc(e: Encoder, v: Any) -> Any:
    if isinstance(v, slice):
        return ["sl", e.encode(v.start), e.encode(v.stop), e.encode(v.step)]
    if v is Ellipsis:
        return ["..."]
    if isinstance(v, range):
        return ["rg", v.start, v.stop, v.step]
    if v is type(None):
        return ["tyN"]
    if isinstance(v, type) or is_scalar_type(v):
        if trusted_module(getattr(v, "__module__", "")) and "<" not in v.__qualname__:
            if v.__module__ != "builtins" or v.__qualname__ in BUILTIN_TYPES or (
                    isinstance(v, type) and issubclass(v, BaseException)):
                name = class_name(v)
                if name is not None:
                    return ["ty", name]
        return None
    if isinstance(v, enum.Enum) and trusted_module(type(v).__module__):
        return ["en", qualified(type(v)), v.name]
    if isinstance(v, BaseException):
        return encode_exception(e, v)
    return None


def _enc_dataclass(e: Encoder, v: Any) -> Any:
    kind = type(v)
    if not dataclasses.is_dataclass(v) or isinstance(v, type) or not trusted_module(kind.__module__):
        return None
    index = e.remember(v)
    fields = {f.name: e.encode(getattr(v, f.name)) for f in dataclasses.fields(v)}
    return ["dc", index, qualified(kind), fields]


def _enc_singleton(e: Encoder, v: Any) -> Any:
    name = SINGLETONS.name_of(v)
    return ["sg", name] if name is not None else None


def encode_exception(e: Encoder, error: BaseException, depth: int = 0) -> list:
    """An exception as data: its class's name, message, where it was raised, the error it came from
    (`__cause__`) and the attributes it carries (a checkify error's primitive and traceback)."""
    import traceback

    kind = type(error)
    frames = [[f.filename, f.lineno, f.name, f.line or ""] for f in traceback.extract_tb(error.__traceback__)][-12:]
    code = getattr(error, "code", None)
    attributes = {}
    for name, value in list(getattr(error, "__dict__", {}).items())[:8]:
        if name.startswith("__") or name == "code":
            continue
        try:
            attributes[name] = _xla_traceback(value) if type(value).__name__ == "Traceback" else e.encode(value)
        except WireError:
            continue
    cause = error.__cause__
    return ["E", {"type": qualified(kind), "mro": [qualified(k) for k in kind.__mro__[1:] if k is not object],
                  "message": _message(error), "frames": frames,
                  "code": code if isinstance(code, (str, int)) or code is None else repr(code),
                  "notes": [str(n) for n in getattr(error, "__notes__", [])][:4], "attributes": attributes,
                  "cause": encode_exception(e, cause, depth + 1) if cause is not None and depth < 3 else None}]


def _xla_traceback(tb: Any) -> list:
    """JAX's record of where an operation was traced (a checkify error's traceback_info), as data."""
    return ["xtb", [[str(f.file_name), str(f.function_name), int(f.function_start_line), int(f.line_num)]
                    for f in list(tb.frames)[:200]]]


def _message(error: BaseException) -> str:
    try:
        text = str(error)
    except Exception:  # noqa: BLE001 - an exception whose str() fails still needs a message
        text = f"<{type(error).__name__} with an unprintable message>"
    return text[:20000]


# --- JAX values: arrays, devices, meshes, shardings ---------------------------------------------------


def _enc_jax(e: Encoder, v: Any) -> Any:
    mesh_lib, NamedSharding, PartitionSpec = J.mesh, J.NamedSharding, J.PartitionSpec
    SingleDeviceSharding = J.SingleDeviceSharding

    if type(v) in J.ARRAY_TYPES:  # by its type: `isinstance` asks the object (a `__class__` property)
        return encode_array(e, v)
    if isinstance(v, jax.Device):
        return ["dev", v.id]
    if isinstance(v, mesh_lib.Mesh) and v.empty:
        return ["mesh0"]
    if isinstance(v, mesh_lib.Mesh):
        index = e.remember(v)
        ids = np.vectorize(lambda d: d.id, otypes=[np.int64])(v.devices) if v.devices.size else np.zeros(0, np.int64)
        return ["mesh", index, e.encode(np.asarray(ids)), list(v.axis_names), [t.name for t in v.axis_types]]
    if isinstance(v, mesh_lib.AbstractMesh):
        return ["amesh", list(v.axis_sizes), list(v.axis_names), [t.name for t in v.axis_types],
                e.encode(v.abstract_device)]
    if isinstance(v, NamedSharding):
        return ["nsh", e.encode(v.mesh), e.encode(v.spec), v.memory_kind]
    if isinstance(v, SingleDeviceSharding):
        return ["sds1", next(iter(v.device_set)).id, v.memory_kind]
    if isinstance(v, PartitionSpec):
        return ["P", [e.encode(p) for p in v], e.items(sorted(v.unreduced)), e.items(sorted(v.reduced))]
    if v is PartitionSpec.UNCONSTRAINED:
        return ["Pu"]
    if isinstance(v, jax.ShapeDtypeStruct):
        return ["SDS", e.encode(tuple(v.shape)), encode_dtype(v.dtype), e.encode(v.sharding), v.weak_type]
    if isinstance(v, jax.export.Exported):
        return ["X", e.blob(_serialized(v, e.reuse_serialized))]
    return None


def _serialized(exported: Any, reuse: bool = True) -> bytes:
    """An exported program's bytes, with its derivatives up to the second where it has them (the
    receiver may differentiate it, or save it with its derivatives, as it could the original).
    `reuse`: the bytes it crossed the wire as before, if it did."""
    known = known_serialized(exported) if reuse else None
    if known is not None:
        return known
    for order in (2, 1, 0):
        try:
            data = exported.serialize(vjp_order=order)
            break
        except Exception:  # noqa: BLE001 - fewer derivatives, or none: still the program itself
            if order == 0:
                raise
    remember_serialized(exported, data)
    return data


def encode_array(e: Encoder, v: jax.Array) -> list:
    """A jax.Array by value: its data, dtype, sharding, committedness and weak type."""
    import jax.dtypes

    index = e.remember(v)
    fields: dict[str, Any] = {"sh": e.encode(v.sharding), "c": bool(getattr(v, "_committed", True)),
                              "w": bool(getattr(v, "weak_type", False))}
    if v.is_deleted():
        fields.update(deleted=True, dtype=encode_dtype(v.dtype), shape=list(v.shape))
        return ["A", index, fields]
    if jax.dtypes.issubdtype(v.dtype, jax.dtypes.prng_key):
        fields["key"] = str(jax.random.key_impl(v))
        data = np.asarray(jax.random.key_data(v))
    else:
        data = np.asarray(v)
    fields["v"] = encode_numpy(e, np.array(data))
    if "key" not in fields and v.is_fully_addressable and len(v.addressable_shards) > 1:
        differing = _differing_copies(v)
        if differing:  # copies that should agree and do not (a wrong collective): each as it is
            fields["shards"] = [[shard.device.id, encode_numpy(e, np.asarray(shard.data))] for shard in v.addressable_shards]
    return ["A", index, fields]


def _differing_copies(array: Any) -> bool:
    """Whether two devices hold different data for the same block of the array."""
    seen: dict[str, bytes] = {}
    for shard in array.addressable_shards:
        key = repr(shard.index)
        data = np.asarray(shard.data).tobytes()
        if seen.setdefault(key, data) != data:
            return True
    return False


# --- jaxprs ----------------------------------------------------------------------------------------


def _enc_jaxpr_parts(e: Encoder, v: Any) -> Any:
    core, lu, shape_poly = J.core, J.lu, J.shape_poly

    if isinstance(v, core.ClosedJaxpr):
        index = e.remember(v)
        return ["CJ", index, e.encode(v.jaxpr), e.items(v.consts)]
    if isinstance(v, core.Jaxpr):
        index = e.remember(v)
        body = {"constvars": e.items(v.constvars), "invars": e.items(v.invars),
                "eqns": [_enc_eqn(e, eqn) for eqn in v.eqns], "outvars": e.items(v.outvars),
                "effects": e.items(v.effects), "debug": _enc_debug_info(e, v.debug_info)}
        return ["J", index, body]
    if isinstance(v, core.Literal):
        return ["lit", e.encode(v.val), e.encode(v.aval)]
    if isinstance(v, core.DropVar):
        return ["dv", e.encode(v.aval)]
    if isinstance(v, core.Var):
        index = e.remember(v)
        return ["V", index, e.encode(v.aval)]
    if isinstance(v, core.ShapedArray):
        return ["aval", e.encode(tuple(v.shape)), encode_dtype(v.dtype), bool(v.weak_type), e.encode(v.sharding),
                e.encode(v.manual_axis_type), v.memory_space.name]
    if isinstance(v, core.ManualAxisType):
        return ["mat", e.items(sorted(v.varying)), e.items(sorted(v.unreduced)), e.items(sorted(v.reduced))]
    if isinstance(v, core.JaxprEqnContext):
        return ["ctx", v.compute_type, bool(v.threefry_partitionable), e.encode(v.cur_abstract_mesh),
                bool(v.remove_size_one_mesh_axis),
                None if v.xla_metadata is None else e.encode(tuple(sorted(v.xla_metadata.items())))]
    if isinstance(v, lu.DebugInfo):
        return _enc_debug_info(e, v)
    if isinstance(v, jax.tree_util.PyTreeDef):
        return _enc_treedef(e, v)
    if isinstance(v, shape_poly._DimExpr):
        return ["dim", str(v), _scope_index(e, v.scope)]
    return None


def _scope_index(e: Encoder, scope: Any) -> list:
    if id(scope) in e.memo:
        return ["@", e.memo[id(scope)]]
    index = e.remember(scope)
    constraints = [str(c) for c in getattr(scope, "_explicit_constraints", [])]
    return ["scope", index, [getattr(c, "debug_str", c) for c in constraints]]


def _enc_eqn(e: Encoder, eqn: Any) -> list:
    name = SINGLETONS.name_of(eqn.primitive)
    if name is None:
        raise WireError(f"the primitive {eqn.primitive.name!r} is not one of JAX's own")
    # In the order the decoder reads them: a value met first is defined where it is met.
    ins, outs = e.items(eqn.invars), e.items(eqn.outvars)
    params = {k: e.encode(x) for k, x in eqn.params.items()}
    return [name, ins, outs, params, e.items(eqn.effects), e.encode(eqn.ctx)]


def _enc_debug_info(e: Encoder, info: Any) -> Any:
    if info is None:
        return None
    try:
        paths = info.resolve_result_paths().result_paths if hasattr(info, "resolve_result_paths") else None
    except Exception:  # noqa: BLE001 - result paths are for messages only
        paths = None
    if callable(paths):
        paths = None
    return ["dbg", str(info.traced_for), str(info.func_src_info),
            None if info.arg_names is None else [str(a) for a in info.arg_names],
            None if paths is None else [str(p) for p in paths]]


def _enc_treedef(e: Encoder, tree: Any) -> list:
    data = tree.node_data()
    if data is None:
        return ["td", None, None, []]
    kind, aux = data
    if e.node_type is not None and not trusted_module(getattr(kind, "__module__", "")):
        return e.node_type(kind, aux, [_enc_treedef(e, c) for c in tree.children()], e)
    return ["td", e.encode(kind), e.encode(aux), [_enc_treedef(e, c) for c in tree.children()]]


# Immutable, like every table of the codec: the subject's tripwires compare a module's names by identity,
# and a tuple's entries cannot be swapped behind an unchanged name.
_ENCODERS: tuple[tuple[Any, Callable[[Encoder, Any], Any]], ...] = (
    ((list, dict, set, frozenset), _enc_container),  # exact built-in containers first: the most common
    (object, _enc_jax),  # before tuples: a Mesh is a tuple
    (object, _enc_jaxpr_parts),  # before tuples: a DebugInfo is a named tuple
    (tuple, _enc_container),
    ((np.ndarray, np.generic, np.dtype), encode_numpy),
    (object, _enc_misc),  # enums before numbers: an IntEnum is an int
    ((int, float, complex), _enc_scalar),
    ((bytes, bytearray), _enc_bytes),
    (object, _enc_dataclass),
    (object, _enc_singleton),
)


# Encoders whose answer depends on the value's type alone: the first that fits a type is remembered.
_BY_TYPE_ONLY = frozenset({_enc_container, _enc_jax, _enc_jaxpr_parts, _enc_scalar, _enc_bytes, _enc_dataclass,
                           encode_numpy, _enc_misc, _enc_singleton})


def _by_value_types() -> frozenset[type]:
    core = J.core
    return frozenset({core.ShapedArray, core.JaxprEqnContext})


class _LazyTypes:
    """The types sent once per message by value, found when first asked (JAX's internals load late)."""

    def __init__(self) -> None:
        self._types: frozenset[type] | None = None

    def __contains__(self, kind: type) -> bool:
        if self._types is None:
            self._types = _by_value_types()
        return kind in self._types


_BY_VALUE = _LazyTypes()
