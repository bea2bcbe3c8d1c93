"""The subject's side of the codec: what goes back (handles for what stays here) and what comes in
(the examiner's references, shipped functions and objects, mirrored containers)."""

from __future__ import annotations

import builtins
import marshal
import types
from typing import Any

import numpy as np

from grader.core.failures import KataFailure
from grader.engine.remote import codec
from grader.engine.remote.codec import Decoder, Encoder, WireError
from grader.engine.remote.subject.standins import (EMPTY_CELL, CheckAux, CheckNode, check_node_type, hashable, key_path_entry,
                                                  shippable_module, content_signature, trusted_function, unflatten_one, update_in_place,
                                                  describe)


# Kinds of value the examiner sends by value or mirrors (a request's arrays, a check's containers):
# `_refer` looks each one up; any other trusted kind of data (not a class, not callable) it never
# refers, whatever the value.
_MAY_BE_SENT = frozenset({list, dict, set, tuple, frozenset, np.ndarray})


class Translation:
    """Encoding and decoding for a Server."""

    # --- encoding what goes back ---------------------------------------------------------------

    def encoder(self, *, refer_requests: bool = True) -> Encoder:
        encoder = Encoder(lambda obj, e: self._refer(obj, e, refer_requests), self._fallback, self.plain_types,
                          self.trusted_types)
        encoder.node_type = self._treedef_node
        encoder.reuse_serialized = False  # serialized afresh: the record of earlier crossings is reachable here
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
        if type(obj) is KataFailure:  # a check's own failure: by value, as the examiner raises it
            return None
        if isinstance(obj, CheckNode):
            return ["cnode", e.remember(obj), {"type": obj._aux.type_id, "aux": obj._aux.aux_id,
                                               "children": e.items(obj._children)}]
        if hasattr(type(obj), "_check_type_id") and not isinstance(obj, type):  # a new one, made here
            return ["cdcnew", e.remember(obj), type(obj)._check_type_id, e.encode(dict(vars(obj)))]
        if isinstance(obj, jax.core.Tracer):  # out of its trace: its type travels, for what it can still say
            aval = getattr(obj, "aval", None)
            return ["leak", str(aval)[:200], e.encode(aval) if isinstance(aval, jax.core.ShapedArray) else None]
        if type(obj) in codec.J.ARRAY_TYPES:  # by its type: `isinstance` asks the object (a `__class__` property)
            tag = codec.encode_array(e, obj)
            tag[2]["h"] = self.handle(obj)
            return tag
        if isinstance(obj, (types.ModuleType, types.FunctionType, types.MethodType, types.BuiltinFunctionType)):
            return self._handle_tag(obj)
        if isinstance(obj, type) and not codec.trusted_module(getattr(obj, "__module__", "")):
            return self._handle_tag(obj)
        if not codec.trusted_module(type(obj).__module__):
            return self._node(obj, e) or self._handle_tag(obj)
        if type(obj) not in _MAY_BE_SENT and not callable(obj):
            e.plain.add(type(obj))  # a JAX or NumPy value of a kind the examiner never sends or ships
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
            keys = [key_path_entry(k) for k, _ in keyed]
        return ["node", index, {"type": self._handle_tag(type(obj)), "aux": e.encode(aux),
                                "aux_handle": self.handle(aux), "obj": self.handle(obj), "keys": keys,
                                "children": e.items([child for _, child in keyed]),
                                "sequence": isinstance(obj, tuple)}]

    # --- decoding what comes in ----------------------------------------------------------------

    def decode(self, data: bytes, placeholders: list | None = None, met_foreign: list | None = None) -> Any:
        """A request's value; its by-value objects become `request_memo`, except in a traced call's
        arguments (`placeholders` given), which are the trace's own. A tag whose rebuilding may run
        the submission's code (`_MAY_RUN_SUBMISSION_CODE`, an attribute read from anything but a plain
        module's own names) appends it to `met_foreign` first."""
        import jax

        if placeholders is None:
            self.request_memo = {}
        decoder_memo: dict[int, Any] = {}
        note = met_foreign.append if met_foreign is not None else _ignore

        def resolve(tag: list, d: Decoder) -> Any:
            kind = tag[0]
            if kind in _MAY_RUN_SUBMISSION_CODE or (kind == "attr" and not _plain_module_name(
                    self.objects.get(int(tag[1])), tag[2])) or (kind == "mut" and _hashes_objects(tag)):
                note(kind)
            return self._resolve(tag, d, placeholders)

        with jax.transfer_guard("allow"):  # rebuilding the examiner's arrays is the protocol's transfer
            value = Decoder.loads(data, resolve, memo=decoder_memo)
        if placeholders is None:
            self.request_memo = {i: o for i, o in decoder_memo.items() if type(o) in codec.J.ARRAY_TYPES}
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
        if kind == "shipped":  # a function or class an earlier request of this check shipped
            if int(tag[2]) not in self.shipped:
                raise WireError("a reference to nothing that was shipped")
            return d.keep(tag[1], self.shipped[int(tag[2])])
        if kind == "fref":
            return trusted_function(tag[1])
        if kind == "mod":
            return shippable_module(tag[1])
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
        info = tag[2]
        kind = self.objects[int(info["type"])]
        aux = self.objects[int(info["aux_handle"])]
        return d.keep(tag[1], unflatten_one(kind, aux, d.items(info["children"])))

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
            if all(base in self.trusted_types for base in cls.__mro__[1:]):  # a check's class on trusted ones
                self.trusted_types.add(cls)
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
            self.cell_seen[int(cell_id)] = value if filled else EMPTY_CELL
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
            update_in_place(obj, contents)
        self._keep_ship(examiner_id, obj)
        self.signatures[examiner_id] = content_signature(obj)
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
        self.signatures[examiner_id] = content_signature(obj)
        return obj

    def _check_node(self, tag: list, d: Decoder) -> Any:
        """A stand-in for an object of a pytree class of the check's, with the same keys and children."""
        info = tag[2]
        kind = self.check_node_types.get(int(info["type"]))
        if kind is None:
            kind = check_node_type(str(info["name"]), [tuple(k) for k in info["keys"]], bool(info["sequence"]))
            self.check_node_types[int(info["type"])] = kind
        aux = CheckAux(int(info["type"]), int(info["aux"]), hashable(d.decode(info["aux_value"])))
        node = kind.__new__(kind)
        d.keep(tag[1], node)
        object.__setattr__(node, "_aux", aux)
        object.__setattr__(node, "_children", d.items(info["children"]))
        return node

    def _keep_ship(self, ship_id: int, obj: Any) -> None:
        self.shipped[ship_id] = obj
        self.shipped_ids[id(obj)] = ship_id


# Tags whose rebuilding may call the submission's code: its pytree's unflatten ("node"), a check's
# class made on bases of its ("shipcls"), objects set up on such classes ("shipobj", "cnode", "cdc"),
# jax.jit of one of its callables ("shipjit": reads its signature). A mirrored container ("mut") may,
# by hashing: `_hashes_objects`.
_MAY_RUN_SUBMISSION_CODE = frozenset({"node", "shipcls", "shipobj", "shipjit", "cnode", "cdc"})


def _hashes_objects(tag: list) -> bool:
    """Whether mirroring a container hashes anything but plain values (a dict's keys, a set's items),
    whose `__hash__` and `__eq__` may be the submission's. A list or an array is only filled."""
    kind, contents = tag[3], tag[4]
    keys = [key for key, _ in contents] if kind == "dict" else contents if kind == "set" else []
    return not all(key is None or type(key) in (str, int, float, bool) for key in keys)


def _plain_module_name(obj: Any, name: Any) -> bool:
    """`getattr(obj, name)` only reads a plain module's own dict (no module `__getattr__`, no class
    of the submission's)."""
    return type(obj) is types.ModuleType and type(name) is str and name in vars(obj)


def _ignore(_: Any) -> None:
    """A decode whose caller does not ask what ran."""
