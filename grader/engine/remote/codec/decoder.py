"""Decoding: a JSON tree and its blobs back into values, without running any code."""

from __future__ import annotations

import dataclasses
import enum
import functools
import math
import types
from collections.abc import Callable, Mapping
from typing import Any

import jax
import jax.numpy
import numpy as np

from grader.core.failures import FAILURE_CODES, KataFailure
from grader.engine.remote.codec.wire import (J, SINGLETONS, VERSION, WireError, decode_dtype, protocol_transfers, qualified, remember_serialized, trusted_class, unpack)


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
    array = np.frombuffer(data, dtype=dtype).reshape(shape).copy()
    if len(v) > 5 and v[5] is False:  # read-only where it came from (np.asarray of a jax.Array): a write fails here too
        array.flags.writeable = False
    return d.keep(v[1], array)


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
    """An exception of the same class when it is a built-in, NumPy or JAX one, or a check's
    `KataFailure` (its message and code: a failure the check's own code met where the exercise
    runs, such as a multi-process launch's); otherwise a `RemoteError` that names the original class
    (and is an instance of its nearest trusted base)."""
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
    if info.get("type") == qualified(KataFailure):  # a check's own failure, raised where the exercise runs
        code = info.get("code")
        return KataFailure(message, code if code in FAILURE_CODES else "wrong-values")
    if kind is RemoteError or qualified(kind) != info.get("type") or not issubclass(kind, Exception):
        # Only an Exception may cross: a KeyboardInterrupt, SystemExit or GeneratorExit (or a test
        # framework's outcome, a BaseException) raised here would end the examiner, not fail a check.
        base = kind if kind is not RemoteError and issubclass(kind, Exception) else Exception
        kind = _remote_error_class(base, original)
    elif kind.__str__ is not BaseException.__str__ or kind.__repr__ is not BaseException.__repr__:
        kind = _plain_text_class(kind)  # its own __str__ reads fields only a real constructor fills
    error = kind.__new__(kind)
    BaseException.__init__(error, message)
    if isinstance(error, RemoteError):
        error.remote_type = original
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
    data = d.blob(v[1])
    try:
        exported = jax.export.deserialize(bytearray(data))
    except Exception as error:  # noqa: BLE001 - a corrupt artifact is the sender's failure
        raise WireError(f"an exported program that does not deserialize ({type(error).__name__})") from None
    remember_serialized(exported, bytes(data))
    return exported


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
        if "shards" in fields:  # copies that disagree, rebuilt device by device
            pieces = [_owned_array(d.decode(shard), _device(device_id)) for device_id, shard in fields["shards"]]
            out = jax.make_array_from_single_device_arrays(data.shape, sharding, pieces)
        else:  # uncommitted, on the default device, where it was so
            out = _owned_array(data, sharding if fields.get("c", True) else None)
    if "key" in fields:
        out = jax.random.wrap_key_data(out, impl=str(fields["key"]))
    if fields.get("w"):
        out = J.lax._convert_element_type(out, out.dtype, weak_type=True)
    if d.on_array is not None:
        known = d.on_array(out, fields)  # the receiver may already hold this very array
        out = out if known is None else known
    return d.keep(v[1], out)


def _owned_array(data: np.ndarray, where: Any) -> Any:
    """`data` on `where` (None: uncommitted, on the default device) in buffers XLA owns, as an array
    computed here has. On the CPU a buffer put straight from NumPy memory may borrow it (it depends on
    the memory's alignment), and a borrowed buffer cannot be donated: then it is copied on the device."""
    out = jax.device_put(data, where)
    start = data.ctypes.data
    try:
        borrowed = any(start <= shard.data.unsafe_buffer_pointer() < start + data.nbytes
                       for shard in out.addressable_shards) if data.nbytes else False
    except (NotImplementedError, RuntimeError, ValueError):  # no pointers to compare on this backend
        borrowed = True
    return jax.device_put(out, where, may_alias=False) if borrowed else out


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


# Read-only, like every table of the codec (the subject's tripwires compare a module's names by identity;
# a mapping proxy's entries cannot be swapped behind an unchanged name).
_DECODERS: Mapping[str, Callable[[Decoder, list], Any]] = types.MappingProxyType({
    "@": _dec_memo,
    "=": lambda d, v: d.keep(v[1], d.decode(v[2])),
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
})
