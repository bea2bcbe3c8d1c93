"""What the examiner sends: its own objects as references and shipments the subject resolves."""

from __future__ import annotations

import dataclasses
import marshal
import re
import types
from typing import Any

import jax
import numpy as np

from grader.engine.remote import codec
from grader.engine.remote.codec import Encoder, WireError
from grader.engine.remote.examiner.proxies import RemoteAttribute, RemoteNode, RemoteObject
from grader.engine.remote.examiner.shipping import (EMPTY, assigned_closure_names, cell_value, check_owned,
                                                    dataclass_fields, fields_by_attribute, global_names, jit_options,
                                                    jitted, key_tag, named, shippable_module)
from grader.engine.remote.examiner.tracing import collected_tracers


class Outgoing:
    """The sending half of a Session: what it reads of the session's state, the session sets up."""

    generation: int
    shipped: dict[Any, Any]
    delivered: set[int]
    shipping: list[int]
    cells: dict[int, list]
    envelope: set[int]
    plain_types: set[type]
    array_handles: dict[int, tuple]

    def encoder(self) -> Encoder:
        """An encoder for one request: the check's objects become references and shipments."""
        return Encoder(self._refer, self._ship_fallback, self.plain_types)

    def array_handle(self, array: jax.Array) -> int | None:
        """The subject's array that `array` stands for, if it is one of this generation's."""
        found = self.array_handles.get(id(array))
        if found is None or found[0]() is not array or found[2] != self.generation:
            return None
        return found[1]

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
        if check_owned(type(obj)) and not isinstance(obj, (type, types.FunctionType)):
            node = self._check_node(obj, e)
            if node is not None:
                return node
        if isinstance(obj, jax.core.Tracer):
            tracing = collected_tracers()
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
        if kind is not type(jax_config.config_ext.unset) and not callable(obj) and not check_owned(kind):
            e.plain.add(kind)  # data of a kind never sent by reference: the encoder stops asking
        return None

    def _ship_fallback(self, obj: Any, e: Encoder) -> list:
        """A check's own function, class or object, shipped to run in the subject; a function of
        JAX, NumPy or the standard library, by name."""
        module = getattr(obj, "__module__", None) or ""
        qualname = getattr(obj, "__qualname__", "")
        if callable(obj) and "<" not in qualname and shippable_module(module) and named(module, qualname, obj):
            return ["fref", f"{module}:{qualname}"]
        if isinstance(obj, (types.FunctionType, type)) or check_owned(type(obj)) or jitted(obj):
            return self._ship(obj, e)
        raise WireError(f"cannot hand a {type(obj).__qualname__} to the submission")

    def _ship(self, obj: Any, e: Encoder) -> list:
        ship_id = id(obj)
        self.shipped[ship_id] = obj
        index = e.remember(obj)
        if ship_id in self.delivered and (jitted(obj) or isinstance(obj, (types.FunctionType, type))):
            # The subject has it from an earlier request of this check (and ignores a body sent again):
            # a reference, without the body whose parts this message would then name but never define.
            return ["shipped", index, ship_id]
        self.shipping.append(ship_id)
        if jitted(obj):
            return ["shipjit", index, {"id": ship_id, "fun": e.encode(obj._fun), "options": e.encode(jit_options(obj))}]
        if isinstance(obj, types.FunctionType):
            code = obj.__code__
            names = global_names(code)
            glob = {name: obj.__globals__[name] for name in names if name in obj.__globals__}
            cells = obj.__closure__ or ()
            assigned = assigned_closure_names(code)
            for cell, name in zip(cells, code.co_freevars):
                entry = self.cells.setdefault(id(cell), [cell, cell_value(cell), False])
                entry[2] = entry[2] or name in assigned
            body = {"id": ship_id, "name": obj.__name__, "qualname": obj.__qualname__, "module": obj.__module__,
                    "code": e.blob(marshal.dumps(code)), "globals": e.encode(glob), "cells": [id(c) for c in cells],
                    "closure": e.encode([(cell_value(c) is not EMPTY, None if cell_value(c) is EMPTY
                                          else c.cell_contents) for c in cells]),
                    "defaults": e.encode(obj.__defaults__), "kwdefaults": e.encode(obj.__kwdefaults__),
                    "dict": e.encode(dict(obj.__dict__))}
            return ["ship", index, body]
        if isinstance(obj, type):
            if not check_owned(obj):
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
        fields = dataclass_fields(kind)
        if fields is None:
            fields = fields_by_attribute(kind, keyed)
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
            keys = [key_tag(k) for k, _ in keyed]
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
