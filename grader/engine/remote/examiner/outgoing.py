"""What the examiner sends: its own objects as references and shipments the subject resolves."""

from __future__ import annotations

import dataclasses
import dis
import marshal
import os
import re
import sys
import types
from collections.abc import Iterator
from typing import Any

import jax
import numpy as np

from grader.engine.remote import codec
from grader.engine.remote.codec import Encoder, WireError
from grader.engine.remote.examiner.proxies import RemoteAttribute, RemoteNode, RemoteObject
from grader.engine.remote.examiner.tracing import _tracing
from grader.engine.remote.protocol import SHIPPABLE_MODULES


class Outgoing:
    """The sending half of a Session."""

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
        if kind in (list, dict, set) and id(obj) in self.envelope:
            return None
        if kind in (list, dict, set) or kind is np.ndarray and not obj.dtype.hasobject:
            return self._mirror(obj, e)
        if isinstance(obj, types.ModuleType):
            return ["mod", obj.__name__]
        if isinstance(obj, re.Pattern):
            return ["re", obj.pattern, int(obj.flags)]
        from jax._src import config as jax_config

        if obj is jax_config.config_ext.unset:
            return ["unset"]
        if kind is not type(jax_config.config_ext.unset) and not callable(obj) and not _check_owned(kind):
            e.plain.add(kind)  # data of a kind never sent by reference: the encoder stops asking
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
            assigned = assigned_closure_names(code)
            for cell, name in zip(cells, code.co_freevars):
                entry = self.cells.setdefault(id(cell), [cell, _cell_value(cell), False])
                entry[2] = entry[2] or name in assigned
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
            return ["mut", index, id(obj), "nd", codec.encode_numpy(e, np.array(obj))]
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


def _body(body: Any) -> Any:
    """A compiled program's (output types, primitive names) as the subject reported them."""
    if body is None:
        return None
    outputs, primitives = body
    return _signature(outputs), frozenset(str(name) for name in primitives)


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


def assigned_closure_names(code: types.CodeType) -> set[str]:
    """The closure variables that `code`, or a function nested in it, assigns or deletes (`nonlocal`).

    Only these may come back changed from the subject: a variable of the check's that no shipped
    code assigns (an expected value, a threshold) stays what the check made it, whatever the
    subject's process says.
    """
    names = {op.argval for op in dis.get_instructions(code) if op.opname in ("STORE_DEREF", "DELETE_DEREF")}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= assigned_closure_names(const)
    return names
