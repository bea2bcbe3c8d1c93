"""Values across the wall: a message is a JSON tree plus binary blobs.

The format is the project's own, and decoding it never runs code: JSON
is parsed, arrays are rebuilt from their bytes, and a class is found by name
only among NumPy's and JAX's (`_TRUSTED_MODULES`), then built without calling
its constructor's logic (enums by name, named tuples and dataclasses field by
field, meshes and shardings from device ids). Everything else travels as a
reference the receiving side resolves (`Encoder.refer`, `Decoder.resolve`):
a handle to an object that stays where it lives, or, from the examiner only,
a check's own function shipped to run in the subject.

Identity survives inside one message (a list holding the same array twice
arrives holding one array twice), which is how an output that *is* an input
is recognised.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import importlib
import json
import math
import struct
import sys
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy
import numpy as np

VERSION = 1
MAX_MESSAGE_BYTES = 1 << 30  # a check's arrays are small; anything near this is an attack or a bug
_TRUSTED_MODULES = ("numpy", "ml_dtypes", "jax", "jaxlib", "builtins", "collections", "functools")
_BUILTIN_TYPES = {"int", "float", "bool", "complex", "str", "bytes", "tuple", "list", "dict", "set",
                  "frozenset", "object", "type", "slice", "NoneType", "range"}


class WireError(Exception):
    """A message that cannot be sent or could not be read (garbage, too big, an unknown tag)."""


# --- framing ------------------------------------------------------------------------------------


def protocol_transfers() -> Any:
    """A context in which moving arrays between host and devices is allowed, whatever guard a check
    or an answer has set: rebuilding and reading back arrays is the protocol's work, not the answer's.
    It also steps out of any trace in progress: an array rebuilt while a check traces is a value, not
    an operation of the check's program."""
    import contextlib

    from jax._src import core

    stack = contextlib.ExitStack()
    stack.enter_context(core.eval_context())
    for guard in (jax.transfer_guard, jax.transfer_guard_host_to_device, jax.transfer_guard_device_to_host,
                  jax.transfer_guard_device_to_device):
        stack.enter_context(guard("allow"))
    return stack


def pack(header: Any, blobs: list[bytes]) -> bytes:
    """One message: its JSON header, then its blobs, each with its length."""
    text = json.dumps(header, separators=(",", ":"), allow_nan=False).encode()
    parts = [struct.pack("<QI", len(text), len(blobs)), text]
    for blob in blobs:
        parts += [struct.pack("<Q", len(blob)), blob]
    data = b"".join(parts)
    if len(data) > MAX_MESSAGE_BYTES:
        raise WireError(f"a message of {len(data)} bytes is over the {MAX_MESSAGE_BYTES}-byte limit")
    return data


def unpack(data: bytes) -> tuple[Any, list[bytes]]:
    try:
        size, count = struct.unpack_from("<QI", data, 0)
        offset = 12
        header = json.loads(data[offset:offset + size])
        offset += size
        blobs = []
        for _ in range(count):
            (length,) = struct.unpack_from("<Q", data, offset)
            offset += 8
            if offset + length > len(data):
                raise WireError("a blob runs past the end of its message")
            blobs.append(data[offset:offset + length])
            offset += length
    except (struct.error, ValueError, RecursionError) as error:
        raise WireError(f"an unreadable message ({error})") from None
    return header, blobs


# --- names of trusted classes and JAX's own singletons ----------------------------------------------


def qualified(obj: Any) -> str:
    return f"{obj.__module__}:{obj.__qualname__}"


def _class_name(kind: Any) -> str | None:
    """`module:qualname` under which `kind` is found again (jax.Array's own qualname is not its path)."""
    for name in (qualified(kind), f"{kind.__module__}:{kind.__name__}"):
        try:
            if trusted_class(name) is kind:
                return name
        except WireError:
            continue
    return None


def _trusted_module(name: str) -> bool:
    return any(name == top or name.startswith(top + ".") for top in _TRUSTED_MODULES)


def trusted_class(name: str) -> type:
    """The class `module:qualname` names, from NumPy or JAX only (imported if need be)."""
    module_name, _, qualname = str(name).partition(":")
    if not _trusted_module(module_name) or not qualname or "<" in qualname:
        raise WireError(f"refused to look up {name!r}: not a NumPy or JAX class")
    try:
        found: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError) as error:
        raise WireError(f"no class {name!r} here ({error})") from None
    if not isinstance(found, type) and not _is_scalar_type(found):
        raise WireError(f"{name!r} is not a class")
    if module_name == "builtins" and qualname not in _BUILTIN_TYPES and not issubclass(found, BaseException):
        raise WireError(f"refused to look up {name!r}")
    return found


def _is_scalar_type(obj: Any) -> bool:
    """jnp.float32 and friends: JAX's scalar types are objects that behave as NumPy types."""
    return type(obj).__name__ == "_ScalarMeta"


class Singletons:
    """JAX's module-level objects that are compared by identity: primitives, effects, sentinels.

    They travel by the name they have in a JAX module: an object whose class is
    JAX's own and that is neither callable nor a class. The table is built from
    the modules imported so far and refreshed when an object is not found.
    """

    def __init__(self) -> None:
        self._names: dict[int, str] = {}
        self._seen_modules = 0

    @staticmethod
    def _eligible(value: Any) -> bool:
        kind = type(value)
        return (kind.__module__.startswith(("jax.", "jaxlib.")) and not isinstance(value, type)
                and (isinstance(value, J.core.Primitive) or not callable(value)))

    def _scan(self) -> None:
        modules = [m for name, m in list(sys.modules.items())
                   if m is not None and (name == "jax" or name.startswith(("jax.", "jaxlib.")))]
        if len(modules) == self._seen_modules:
            return
        self._seen_modules = len(modules)
        for module in modules:
            for attr, value in list(vars(module).items()):
                if id(value) not in self._names and self._eligible(value):
                    self._names[id(value)] = f"{module.__name__}:{attr}"

    def name_of(self, obj: Any) -> str | None:
        if not self._eligible(obj):
            return None
        if id(obj) not in self._names:
            self._scan()
        return self._names.get(id(obj))

    def find(self, name: str) -> Any:
        module_name, _, attr = str(name).partition(":")
        if not module_name.startswith(("jax", "jaxlib")) or not _trusted_module(module_name):
            raise WireError(f"refused to look up {name!r}")
        try:
            found = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as error:
            raise WireError(f"no JAX object {name!r} here ({error})") from None
        if not self._eligible(found):
            raise WireError(f"{name!r} is not one of JAX's primitives, effects or sentinels")
        return found


SINGLETONS = Singletons()


class _Internals:
    """JAX's internal modules and classes the codec needs, imported once (the codec runs per value)."""

    def __getattr__(self, name: str) -> Any:
        from jax._src import core, mesh, source_info_util
        from jax._src import linear_util
        from jax._src.export import shape_poly
        from jax._src.lax import lax
        from jax.sharding import NamedSharding, PartitionSpec, SingleDeviceSharding

        self.__dict__.update(core=core, mesh=mesh, lu=linear_util, shape_poly=shape_poly, lax=lax,
                             source_info_util=source_info_util, NamedSharding=NamedSharding,
                             PartitionSpec=PartitionSpec, SingleDeviceSharding=SingleDeviceSharding)
        return self.__dict__[name]


J = _Internals()


# --- dtypes -------------------------------------------------------------------------------------


def encode_dtype(dtype: Any) -> Any:
    import jax.dtypes

    dtype = np.dtype(dtype) if not hasattr(dtype, "_rules") and not isinstance(dtype, np.dtype) else dtype
    if jax.dtypes.issubdtype(dtype, jax.dtypes.prng_key):
        return ["key", str(dtype._impl.name)]
    if dtype == jax.dtypes.float0:
        return "float0"
    return str(dtype)


def decode_dtype(spec: Any) -> Any:
    import jax.dtypes

    if isinstance(spec, list) and spec[:1] == ["key"]:
        from jax._src.random import prng

        impl = prng.prngs.get(str(spec[1])) if hasattr(prng, "prngs") else None
        if impl is None:
            impl = jax.random.key_impl(jax.random.key(0, impl=str(spec[1])))
            impl = prng.resolve_prng_impl(impl)
        return prng.KeyTy(impl)
    if spec == "float0":
        return jax.dtypes.float0
    try:
        import ml_dtypes  # noqa: F401 - registers bfloat16 and friends with NumPy

        return np.dtype(str(spec))
    except TypeError as error:
        raise WireError(f"unknown dtype {spec!r}") from error


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
                 fallback: Callable[[Any, Encoder], list] | None = None) -> None:
        self.refer, self.fallback = refer, fallback
        self.node_type: Callable[[type, Any, list, Encoder], list] | None = None  # a treedef's foreign node
        self.blobs: list[bytes] = []
        self.memo: dict[int, int] = {}
        self._alive: list[Any] = []  # keeps encoded objects alive so their ids stay unique

    def blob(self, data: bytes) -> int:
        self.blobs.append(bytes(data))
        return len(self.blobs) - 1

    def remember(self, obj: Any) -> int:
        index = len(self.memo)
        self.memo[id(obj)] = index
        self._alive.append(obj)
        return index

    def dumps(self, value: Any) -> bytes:
        with protocol_transfers():
            return pack([VERSION, self.encode(value)], self.blobs)

    def encode(self, v: Any) -> Any:
        if v is None or isinstance(v, (bool, str)):
            return v
        kind = type(v)
        if kind is int:
            return v if abs(v) < 2 ** 62 else ["big", str(v)]
        if kind is float:
            return v if math.isfinite(v) else ["f", repr(v)]
        if id(v) in self.memo:
            return ["@", self.memo[id(v)]]
        referred = self.refer(v, self)
        if referred is not None:
            return referred
        method = _BY_TYPE.get(kind)
        if method is not None:
            found = method(self, v)
            if found is not None:
                return found
        for types, method in _ENCODERS:
            if isinstance(v, types):
                found = method(self, v)
                if found is not None:
                    if method in _BY_TYPE_ONLY:
                        _BY_TYPE[kind] = method
                    return found
        if self.fallback is not None:
            return self.fallback(v, self)
        raise WireError(f"cannot send a {type(v).__module__}.{type(v).__qualname__} across the wall")

    def items(self, values: Any) -> list:
        return [self.encode(x) for x in values]


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
    if isinstance(v, tuple) and hasattr(kind, "_fields") and _trusted_module(kind.__module__):
        return ["NT", e.remember(v), qualified(kind), e.items(v)]
    return None


def _enc_numpy(e: Encoder, v: Any) -> Any:
    if isinstance(v, np.ndarray):
        if v.dtype.hasobject:
            return None
        index = e.remember(v)
        return ["nd", index, encode_dtype(v.dtype), list(v.shape), e.blob(np.ascontiguousarray(v).tobytes())]
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
    if isinstance(v, type) or _is_scalar_type(v):
        if _trusted_module(getattr(v, "__module__", "")) and "<" not in v.__qualname__:
            if v.__module__ != "builtins" or v.__qualname__ in _BUILTIN_TYPES or (
                    isinstance(v, type) and issubclass(v, BaseException)):
                name = _class_name(v)
                if name is not None:
                    return ["ty", name]
        return None
    if isinstance(v, enum.Enum) and _trusted_module(type(v).__module__):
        return ["en", qualified(type(v)), v.name]
    if isinstance(v, BaseException):
        return encode_exception(e, v)
    return None


def _enc_dataclass(e: Encoder, v: Any) -> Any:
    kind = type(v)
    if not dataclasses.is_dataclass(v) or isinstance(v, type) or not _trusted_module(kind.__module__):
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

    if isinstance(v, jax.Array) and not isinstance(v, jax.core.Tracer):
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
        return ["X", e.blob(_serialized(v))]
    return None


def _serialized(exported: Any) -> bytes:
    """An exported program's bytes, with its derivatives up to the second where it has them (the
    receiver may differentiate it, or save it with its derivatives, as it could the original)."""
    for order in (2, 1):
        try:
            return exported.serialize(vjp_order=order)
        except Exception:  # noqa: BLE001 - fewer derivatives, or none: still the program itself
            continue
    return exported.serialize()


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
    fields["v"] = _enc_numpy(e, np.array(data))
    if "key" not in fields and v.is_fully_addressable and len(v.addressable_shards) > 1:
        differing = _differing_copies(v)
        if differing:  # copies that should agree and do not (a wrong collective): each as it is
            fields["shards"] = [[shard.device.id, _enc_numpy(e, np.asarray(shard.data))] for shard in v.addressable_shards]
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
    if e.node_type is not None and not _trusted_module(getattr(kind, "__module__", "")):
        return e.node_type(kind, aux, [_enc_treedef(e, c) for c in tree.children()], e)
    return ["td", e.encode(kind), e.encode(aux), [_enc_treedef(e, c) for c in tree.children()]]


_ENCODERS: list[tuple[Any, Callable[[Encoder, Any], Any]]] = [
    ((list, dict, set, frozenset), _enc_container),  # exact built-in containers first: the most common
    (object, _enc_jax),  # before tuples: a Mesh is a tuple
    (object, _enc_jaxpr_parts),  # before tuples: a DebugInfo is a named tuple
    (tuple, _enc_container),
    ((np.ndarray, np.generic, np.dtype), _enc_numpy),
    (object, _enc_misc),  # enums before numbers: an IntEnum is an int
    ((int, float, complex), _enc_scalar),
    ((bytes, bytearray), _enc_bytes),
    (object, _enc_dataclass),
    (object, _enc_singleton),
]


# Encoders whose answer depends on the value's type alone: the first that fits a type is remembered.
_BY_TYPE_ONLY = {_enc_container, _enc_jax, _enc_jaxpr_parts, _enc_scalar, _enc_bytes, _enc_dataclass}
_BY_TYPE: dict[type, Callable[[Encoder, Any], Any]] = {}


# --- the decoder ----------------------------------------------------------------------------------


class Decoder:
    """Rebuilds one message's values; `resolve(tag, decoder)` is the receiving side's say over
    references (handles, shipped functions, nodes)."""

    def __init__(self, resolve: Callable[[list, Decoder], Any], blobs: list[bytes],
                 on_array: Callable[[Any, dict], None] | None = None) -> None:
        self.resolve, self.on_array = resolve, on_array
        self.blobs = blobs
        self.in_program = 0  # > 0 while decoding a jaxpr's equations (their parameters are JAX's)
        self.memo: dict[int, Any] = {}
        self.scopes: dict[int, Any] = {}

    @staticmethod
    def loads(data: bytes, resolve: Callable[[list, Decoder], Any], memo: dict | None = None,
              on_array: Callable[[Any, dict], None] | None = None) -> Any:
        """The value in `data`; `memo` (if given) is filled with every object the message named by index."""
        header, blobs = unpack(data)
        if not isinstance(header, list) or len(header) != 2 or header[0] != VERSION:
            raise WireError(f"a message of another protocol version ({header[0] if isinstance(header, list) else '?'})")
        decoder = Decoder(resolve, blobs, on_array)
        if memo is not None:
            decoder.memo = memo
        try:
            with protocol_transfers():
                return decoder.decode(header[1])
        except WireError:
            raise
        except RecursionError:
            raise WireError("a message nested too deeply") from None
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
            raise WireError(f"a malformed message ({type(error).__name__}: {error})") from None

    def blob(self, index: int) -> bytes:
        return self.blobs[int(index)]

    def keep(self, index: int, value: Any) -> Any:
        self.memo[int(index)] = value
        return value

    def decode(self, v: Any) -> Any:
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        if not isinstance(v, list) or not v or not isinstance(v[0], str):
            raise WireError(f"a malformed value {str(v)[:80]!r}")
        method = _DECODERS.get(v[0])
        if method is None:
            return self.resolve(v, self)
        return method(self, v)

    def items(self, values: list) -> list:
        return [self.decode(x) for x in values]


def _dec_memo(d: Decoder, v: list) -> Any:
    return d.memo[int(v[1])]


def _dec_list(d: Decoder, v: list) -> Any:
    out = d.keep(v[1], [])
    out.extend(d.items(v[2]))
    return out


def _dec_dict(d: Decoder, v: list) -> Any:
    out = d.keep(v[1], {})
    for key, value in v[2]:
        key = d.decode(key)  # before the value: the encoder met the key first
        out[key] = d.decode(value)
    return out


def _dec_named_tuple(d: Decoder, v: list) -> Any:
    kind = trusted_class(v[2])
    if not (issubclass(kind, tuple) and hasattr(kind, "_make")):
        raise WireError(f"{v[2]!r} is not a named tuple")
    return d.keep(v[1], kind._make(d.items(v[3])))


def _dec_ndarray(d: Decoder, v: list) -> Any:
    dtype = decode_dtype(v[2])
    shape = tuple(int(n) for n in v[3])
    data = d.blob(v[4])
    if len(data) != math.prod(shape) * dtype.itemsize:
        raise WireError("an array's bytes do not match its shape and dtype")
    return d.keep(v[1], np.frombuffer(data, dtype=dtype).reshape(shape).copy())


def _dec_numpy_scalar(d: Decoder, v: list) -> Any:
    dtype = decode_dtype(v[1])
    data = d.blob(v[2])
    if len(data) != dtype.itemsize:
        raise WireError("a scalar's bytes do not match its dtype")
    return np.frombuffer(data, dtype=dtype)[0]


def _dec_enum(d: Decoder, v: list) -> Any:
    kind = trusted_class(v[1])
    if not issubclass(kind, enum.Enum):
        raise WireError(f"{v[1]!r} is not an enum")
    return kind[str(v[2])]


def _dec_dataclass(d: Decoder, v: list) -> Any:
    kind = trusted_class(v[2])
    if not dataclasses.is_dataclass(kind):
        raise WireError(f"{v[2]!r} is not a dataclass")
    obj = object.__new__(kind)
    d.keep(v[1], obj)
    names = {f.name for f in dataclasses.fields(kind)}
    for name, value in v[3].items():
        if name not in names:
            raise WireError(f"{v[2]!r} has no field {name!r}")
        object.__setattr__(obj, name, d.decode(value))
    return obj


def decode_exception(d: Decoder, v: list) -> BaseException:
    """An exception of the same class when it is a built-in, NumPy or JAX one; otherwise a
    `RemoteError` that names the original class (and is an instance of its nearest trusted base)."""
    info = v[1]
    message = str(info.get("message", ""))
    kind: type = RemoteError
    for name in [info.get("type"), *info.get("mro", [])]:
        try:
            found = trusted_class(name)
        except WireError:
            continue
        if isinstance(found, type) and issubclass(found, BaseException):
            kind = found
            break
    original = str(info.get("type", "")).split(":")[-1].rsplit(".", 1)[-1]
    if kind is RemoteError or qualified(kind) != info.get("type"):
        base = kind if kind is not RemoteError else Exception
        kind = _remote_error_class(base, original)
    elif kind.__str__ is not BaseException.__str__ or kind.__repr__ is not BaseException.__repr__:
        kind = _plain_text_class(kind)  # its own __str__ reads fields only a real constructor fills
    error = kind.__new__(kind)
    BaseException.__init__(error, message)
    if isinstance(error, RemoteError):
        error.remote_type = original
    if isinstance(error, SystemExit):
        error.code = info.get("code")
    error.remote_frames = [tuple(f) for f in info.get("frames", [])]
    for note in info.get("notes", []):
        error.add_note(str(note))
    for name, value in (info.get("attributes") or {}).items():
        if isinstance(name, str) and not name.startswith("__"):
            with _quietly():
                object.__setattr__(error, name, d.decode(value))
    if info.get("cause") is not None:
        error.__cause__ = decode_exception(d, info["cause"])
    return error


def _quietly() -> Any:
    import contextlib

    return contextlib.suppress(AttributeError, TypeError)


@dataclasses.dataclass(frozen=True)
class TracedFrame:
    """One frame of where JAX traced an operation (as `jax.Traceback`'s frames read)."""

    file_name: str
    function_name: str
    function_start_line: int
    line_num: int


@dataclasses.dataclass(frozen=True)
class TracedTraceback:
    frames: list

    def __str__(self) -> str:
        return "\n".join(f"{f.function_name};{f.file_name}:{f.line_num}" for f in self.frames)


class RemoteError(Exception):
    """An exception raised in the subject whose class only exists there; `remote_type` names it."""

    remote_type = ""

    def __str__(self) -> str:
        return BaseException.__str__(self)


_REMOTE_ERROR_CLASSES: dict[tuple[type, str], type] = {}
_PLAIN_TEXT_CLASSES: dict[type, type] = {}


def _plain_text_class(kind: type) -> type:
    if kind not in _PLAIN_TEXT_CLASSES:
        _PLAIN_TEXT_CLASSES[kind] = type(kind.__name__, (kind,), {
            "__module__": kind.__module__, "__qualname__": kind.__qualname__,
            "__str__": BaseException.__str__, "__repr__": BaseException.__repr__})
    return _PLAIN_TEXT_CLASSES[kind]


def _remote_error_class(base: type, name: str) -> type:
    """A stand-in for the subject's own exception class `name`: named like it, an instance of its
    nearest base class that exists here."""
    if not name.isidentifier():
        name = "RemoteError"
    if (base, name) not in _REMOTE_ERROR_CLASSES:
        _REMOTE_ERROR_CLASSES[base, name] = type(name, (RemoteError, base), {"__module__": "submission"})
    return _REMOTE_ERROR_CLASSES[base, name]


def _dec_type(d: Decoder, v: list) -> Any:
    return trusted_class(v[1])


def _device(index: Any) -> Any:
    devices = _devices_by_id()
    if int(index) not in devices:
        raise WireError(f"no device {index} here ({len(devices)} devices)")
    return devices[int(index)]


@functools.cache
def _devices_by_id() -> dict[int, Any]:
    return {device.id: device for device in jax.devices()}


def _dec_mesh(d: Decoder, v: list) -> Any:
    from jax._src import mesh as mesh_lib

    ids = d.decode(v[2])
    devices = np.vectorize(_device, otypes=[object])(ids) if np.size(ids) else np.zeros(np.shape(ids), object)
    types = tuple(jax.sharding.AxisType[str(t)] for t in v[4])
    return d.keep(v[1], mesh_lib.Mesh(devices, tuple(v[3]), axis_types=types))


def _empty_mesh() -> Any:
    from jax._src import mesh as mesh_lib

    return mesh_lib.empty_concrete_mesh


def _dec_abstract_mesh(d: Decoder, v: list) -> Any:
    mesh_lib = J.mesh
    types = tuple(jax.sharding.AxisType[str(t)] for t in v[3])
    device = d.decode(v[4]) if len(v) > 4 else None
    return mesh_lib.AbstractMesh(tuple(int(n) for n in v[1]), tuple(v[2]), axis_types=types, abstract_device=device)


def _dec_named_sharding(d: Decoder, v: list) -> Any:
    return J.NamedSharding(d.decode(v[1]), d.decode(v[2]), memory_kind=v[3])


def _dec_single_device(d: Decoder, v: list) -> Any:
    from jax.sharding import SingleDeviceSharding

    return SingleDeviceSharding(_device(v[1]), memory_kind=v[2])


def _dec_spec(d: Decoder, v: list) -> Any:
    return J.PartitionSpec(*d.items(v[1]), unreduced=frozenset(d.items(v[2])), reduced=frozenset(d.items(v[3])))


def _dec_shape_dtype(d: Decoder, v: list) -> Any:
    return jax.ShapeDtypeStruct(tuple(d.decode(v[1])), decode_dtype(v[2]), sharding=d.decode(v[3]),
                                weak_type=bool(v[4]))


def _dec_exported(d: Decoder, v: list) -> Any:
    try:
        return jax.export.deserialize(bytearray(d.blob(v[1])))
    except Exception as error:  # noqa: BLE001 - a corrupt artifact is the sender's failure
        raise WireError(f"an exported program that does not deserialize ({type(error).__name__})") from None


def decode_array(d: Decoder, v: list) -> Any:
    """A jax.Array on the same devices, with the same sharding, committedness and weak type."""
    fields = v[2]
    sharding = d.decode(fields["sh"])
    if fields.get("deleted"):
        dtype = decode_dtype(fields["dtype"])
        placeholder = jax.device_put(np.zeros(tuple(fields["shape"]), dtype if not hasattr(dtype, "_impl")
                                              else np.uint32), sharding)
        placeholder.delete()
        return d.keep(v[1], placeholder)
    data = d.decode(fields["v"])
    if not isinstance(data, np.ndarray):
        raise WireError("an array without its data")
    with _wide_types(data.dtype):  # an int64 result of an answer that turned 64-bit types on stays int64
        # Through jnp.asarray: a buffer XLA owns, as an array computed here has. On the CPU a buffer
        # put straight from NumPy memory may borrow it, and then it cannot be donated.
        if "shards" in fields:  # copies that disagree, rebuilt device by device
            pieces = []
            for device_id, shard in fields["shards"]:
                pieces.append(jax.device_put(jax.numpy.asarray(d.decode(shard)), _device(device_id)))
            out = jax.make_array_from_single_device_arrays(data.shape, sharding, pieces)
        elif fields.get("c", True):
            out = jax.device_put(jax.numpy.asarray(data), sharding)
        else:
            out = jax.numpy.asarray(data)  # uncommitted, on the default device, as it was
    if "key" in fields:
        out = jax.random.wrap_key_data(out, impl=str(fields["key"]))
    if fields.get("w"):
        out = J.lax._convert_element_type(out, out.dtype, weak_type=True)
    if d.on_array is not None:
        known = d.on_array(out, fields)  # the receiver may already hold this very array
        out = out if known is None else known
    return d.keep(v[1], out)


def _wide_types(dtype: np.dtype) -> Any:
    import contextlib

    from jax._src import config as jax_config

    if dtype.itemsize == 8 and dtype.kind in "iufc" or dtype.itemsize == 16:
        return jax_config.enable_x64(True)
    return contextlib.nullcontext()


def _dec_jaxpr(d: Decoder, v: list) -> Any:
    core, source_info_util = J.core, J.source_info_util
    body = v[2]
    constvars, invars = d.items(body["constvars"]), d.items(body["invars"])
    eqns = []
    d.in_program += 1
    try:
        for name, ins, outs, params, effects, ctx in body["eqns"]:
            primitive = SINGLETONS.find(name)
            if not isinstance(primitive, core.Primitive):
                raise WireError(f"{name!r} is not a primitive")
            eqns.append(core.new_jaxpr_eqn(d.items(ins), d.items(outs), primitive,
                                           {k: d.decode(x) for k, x in params.items()},
                                           frozenset(d.items(effects)), source_info_util.new_source_info(),
                                           d.decode(ctx)))
    finally:
        d.in_program -= 1
    jaxpr = core.Jaxpr(constvars, invars, d.items(body["outvars"]), eqns, frozenset(d.items(body["effects"])),
                       d.decode(body["debug"]))
    return d.keep(v[1], jaxpr)


def _dec_closed_jaxpr(d: Decoder, v: list) -> Any:
    core = J.core
    return d.keep(v[1], core.ClosedJaxpr(d.decode(v[2]), d.items(v[3])))


def _dec_var(d: Decoder, v: list) -> Any:
    core = J.core
    return d.keep(v[1], core.Var(d.decode(v[2])))


def _dec_literal(d: Decoder, v: list) -> Any:
    core = J.core
    return core.Literal(d.decode(v[1]), d.decode(v[2]))


def _dec_drop_var(d: Decoder, v: list) -> Any:
    core = J.core
    return core.DropVar(d.decode(v[1]))


def _dec_aval(d: Decoder, v: list) -> Any:
    core = J.core
    return core.ShapedArray._create(tuple(d.decode(v[1])), decode_dtype(v[2]), bool(v[3]), d.decode(v[4]),
                                    d.decode(v[5]), core.MemorySpace[str(v[6])])


def _dec_manual_axes(d: Decoder, v: list) -> Any:
    core = J.core
    return core.ManualAxisType(varying=frozenset(d.items(v[1])), unreduced=frozenset(d.items(v[2])),
                               reduced=frozenset(d.items(v[3])))


def _dec_context(d: Decoder, v: list) -> Any:
    core = J.core
    mesh = d.decode(v[3])
    metadata = d.decode(v[5])
    return core.JaxprEqnContext._create(v[1], bool(v[2]), mesh, bool(v[4]),
                                        None if metadata is None else dict(metadata))


def _dec_debug_info(d: Decoder, v: list) -> Any:
    from jax._src import linear_util as lu

    return lu.DebugInfo(str(v[1]), str(v[2]), None if v[3] is None else tuple(v[3]),
                        None if v[4] is None else tuple(v[4]))


def _dec_treedef(d: Decoder, v: list) -> Any:
    from jax._src import tree_util

    if v[1] is None:
        return jax.tree.structure(0)
    kind, aux = d.decode(v[1]), d.decode(v[2])
    children = d.items(v[3])  # a child may be a node the receiving side resolves (a class of its own)
    return jax.tree_util.PyTreeDef.from_node_data_and_children(tree_util.default_registry, (kind, aux), children)


def _dec_scope(d: Decoder, v: list) -> Any:
    return d.keep(v[1], jax.export.SymbolicScope([str(c) for c in v[2]]))


def _dec_dim(d: Decoder, v: list) -> Any:
    scope = d.decode(v[2])
    (dim,) = jax.export.symbolic_shape(str(v[1]), scope=scope)
    return dim


_DECODERS: dict[str, Callable[[Decoder, list], Any]] = {
    "@": _dec_memo,
    "big": lambda d, v: int(v[1]),
    "f": lambda d, v: float(v[1]),
    "int": lambda d, v: int(v[1]),
    "flt": lambda d, v: float(v[1]),
    "c": lambda d, v: complex(float(v[1]), float(v[2])),
    "b": lambda d, v: d.blob(v[1]),
    "T": lambda d, v: d.keep(v[1], tuple(d.items(v[2]))),
    "L": _dec_list,
    "D": _dec_dict,
    "S": lambda d, v: d.keep(v[1], set(d.items(v[2]))),
    "FS": lambda d, v: d.keep(v[1], frozenset(d.items(v[2]))),
    "NT": _dec_named_tuple,
    "nd": _dec_ndarray,
    "ns": _dec_numpy_scalar,
    "dt": lambda d, v: decode_dtype(v[1]),
    "sl": lambda d, v: slice(d.decode(v[1]), d.decode(v[2]), d.decode(v[3])),
    "...": lambda d, v: Ellipsis,
    "rg": lambda d, v: range(int(v[1]), int(v[2]), int(v[3])),
    "ty": _dec_type,
    "tyN": lambda d, v: type(None),
    "en": _dec_enum,
    "dc": _dec_dataclass,
    "sg": lambda d, v: SINGLETONS.find(v[1]),
    "E": decode_exception,
    "xtb": lambda d, v: TracedTraceback([TracedFrame(str(a), str(b), int(c), int(n)) for a, b, c, n in v[1]]),
    "dev": lambda d, v: _device(v[1]),
    "mesh": _dec_mesh,
    "mesh0": lambda d, v: _empty_mesh(),
    "amesh": _dec_abstract_mesh,
    "nsh": _dec_named_sharding,
    "sds1": _dec_single_device,
    "P": _dec_spec,
    "Pu": lambda d, v: jax.sharding.PartitionSpec.UNCONSTRAINED,
    "SDS": _dec_shape_dtype,
    "X": _dec_exported,
    "A": decode_array,
    "J": _dec_jaxpr,
    "CJ": _dec_closed_jaxpr,
    "V": _dec_var,
    "lit": _dec_literal,
    "dv": _dec_drop_var,
    "aval": _dec_aval,
    "mat": _dec_manual_axes,
    "ctx": _dec_context,
    "dbg": _dec_debug_info,
    "td": _dec_treedef,
    "scope": _dec_scope,
    "dim": _dec_dim,
}
