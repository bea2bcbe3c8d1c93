"""What both sides of the wall share: message framing, the names of trusted classes, JAX's singletons
and dtypes."""

from __future__ import annotations

import functools
import importlib
import json
import struct
import sys
import weakref
from typing import Any

import jax
import jax.numpy
import numpy as np


VERSION = 1
MAX_MESSAGE_BYTES = 1 << 30  # a check's arrays are small; anything near this is an attack or a bug
TRUSTED_MODULES = ("numpy", "ml_dtypes", "jax", "jaxlib", "builtins", "collections", "functools")
BUILTIN_TYPES = frozenset({"int", "float", "bool", "complex", "str", "bytes", "tuple", "list", "dict", "set",
                           "frozenset", "object", "type", "slice", "NoneType", "range"})


class WireError(Exception):
    """A message that cannot be sent or could not be read (garbage, too big, an unknown tag)."""


# --- framing ------------------------------------------------------------------------------------


def protocol_transfers() -> Any:
    """A context in which moving arrays between host and devices is allowed, whatever guard a check
    or an answer has set: rebuilding and reading back arrays is the protocol's work, not the answer's.
    It also steps out of any trace in progress: an array rebuilt while a check traces is a value, not
    an operation of the check's program. Nothing to do (the common case, every request) when no
    guard is set and nothing traces."""
    import contextlib

    from jax._src import config, core

    guards = (config.transfer_guard_host_to_device, config.transfer_guard_device_to_host,
              config.transfer_guard_device_to_device)
    if core.trace_state_clean() and all(guard.value in (None, "allow") for guard in guards):
        return contextlib.nullcontext()
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


def class_name(kind: Any) -> str | None:
    """`module:qualname` under which `kind` is found again (jax.Array's own qualname is not its path)."""
    for name in (qualified(kind), f"{kind.__module__}:{kind.__name__}"):
        try:
            if trusted_class(name) is kind:
                return name
        except WireError:
            continue
    return None


@functools.lru_cache(maxsize=4096)  # asked of every object the codec meets: a few hundred names in all
def trusted_module(name: str) -> bool:
    return any(name == top or name.startswith(top + ".") for top in TRUSTED_MODULES)


def trusted_class(name: str) -> type:
    """The class `module:qualname` names, from NumPy or JAX only (imported if need be)."""
    module_name, _, qualname = str(name).partition(":")
    if not trusted_module(module_name) or not qualname or "<" in qualname:
        raise WireError(f"refused to look up {name!r}: not a NumPy or JAX class")
    try:
        found: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError) as error:
        raise WireError(f"no class {name!r} here ({error})") from None
    if not isinstance(found, type) and not is_scalar_type(found):
        raise WireError(f"{name!r} is not a class")
    if module_name == "builtins" and qualname not in BUILTIN_TYPES and not issubclass(found, BaseException):
        raise WireError(f"refused to look up {name!r}")
    return found


def is_scalar_type(obj: Any) -> bool:
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
        self._kept: list[Any] = []  # every named object, held so that no other object takes its id
        self._found: dict[str, Any] = {}  # name -> object, for the names already looked up
        self._seen_modules = 0
        self._modules_then: tuple[int, Any] = (0, None)

    @staticmethod
    def _eligible(value: Any) -> bool:
        kind = type(value)
        return (kind.__module__.startswith(("jax.", "jaxlib.")) and not isinstance(value, type)
                and (isinstance(value, J.core.Primitive) or not callable(value)))

    def _scan(self) -> None:
        # Cheap first: the same count and newest entry means nothing was imported since the last scan.
        state = (len(sys.modules), next(reversed(sys.modules), None))
        if state == self._modules_then:
            return
        self._modules_then = state
        modules = [m for name, m in list(sys.modules.items())
                   if m is not None and (name == "jax" or name.startswith(("jax.", "jaxlib.")))]
        if len(modules) == self._seen_modules:
            return
        self._seen_modules = len(modules)
        for module in modules:
            for attr, value in list(vars(module).items()):
                if id(value) not in self._names and self._eligible(value):
                    self._names[id(value)] = f"{module.__name__}:{attr}"
                    self._kept.append(value)

    def name_of(self, obj: Any) -> str | None:
        name = self._names.get(id(obj))
        if name is not None or not self._eligible(obj):
            return name
        self._scan()
        return self._names.get(id(obj))

    def find(self, name: str) -> Any:
        found = self._found.get(name)
        if found is None:
            found = self._found[name] = self._look_up(name)
        return found

    def _look_up(self, name: str) -> Any:
        module_name, _, attr = str(name).partition(":")
        if not module_name.startswith(("jax", "jaxlib")) or not trusted_module(module_name):
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
        from jax._src.array import ArrayImpl
        from jax._src.random.prng import PRNGKeyArray
        from jax._src.export import shape_poly
        from jax._src.lax import lax
        from jax.sharding import NamedSharding, PartitionSpec, SingleDeviceSharding

        self.__dict__.update(core=core, mesh=mesh, lu=linear_util, shape_poly=shape_poly, lax=lax,
                             source_info_util=source_info_util, NamedSharding=NamedSharding,
                             PartitionSpec=PartitionSpec, SingleDeviceSharding=SingleDeviceSharding,
                             ARRAY_TYPES=(ArrayImpl, PRNGKeyArray))
        return self.__dict__[name]


J = _Internals()


# --- dtypes -------------------------------------------------------------------------------------


# Exported programs by the bytes they crossed the wire as (or were first serialized to): serializing
# one again with its derivatives lowers two more programs, and those bytes say the same. Held by
# id with a weak reference, so an entry goes when its program does.
_serialized_exports: dict[int, tuple[Any, bytes]] = {}


def remember_serialized(exported: Any, data: bytes) -> None:
    key = id(exported)
    _serialized_exports[key] = (weakref.ref(exported, lambda _, key=key: _serialized_exports.pop(key, None)),
                                data)


def known_serialized(exported: Any) -> bytes | None:
    found = _serialized_exports.get(id(exported))
    return found[1] if found is not None and found[0]() is exported else None


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
