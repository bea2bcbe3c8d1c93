"""What a check holds of the subject's objects: proxies of functions, classes, attributes and
pytree nodes, and the tracer that escaped a transformation."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any, Protocol

import jax

from grader.engine.remote.codec import WireError
from grader.engine.remote.examiner.tracing import (Requester, building_locally, has_tracer, trace_in_subject,
                                                   trace_state_clean)
from grader.runtime.explain import TRACED_ON_ITS_OWN


class Link(Requester, Protocol):
    """What a proxy asks of the session it came from (a Session is one): the requests, the
    generation its handles belong to, and the proxy for a handle."""

    generation: int

    def proxy(self, hid: int, info: dict) -> RemoteObject: ...


# --- proxies ------------------------------------------------------------------------------------------


class RemoteObject:
    """An object of the subject's: attribute reads, calls and the usual protocols go there."""

    __slots__ = ("_session", "_hid", "_info", "_generation", "__weakref__")

    def __init__(self, session: Link, hid: int, info: dict) -> None:
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
        if has_tracer((args, kwargs)) or not trace_state_clean() and not self._info.get("internal"):
            # Called while the check traces (jit, grad, vmap, make_jaxpr): the subject traces it, and the
            # check's transformation records the program it sends back, as it would the function's own.
            return trace_in_subject(self._session, (args, kwargs), fn=self)
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

    def __init__(self, module: RemoteObject, name: str, info: dict | None = None) -> None:
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

    def __getattr__(self, name: str) -> Any:
        if name == "_trace":  # JAX computing with it: say why it has no trace, not that a slot is missing
            raise jax.errors.UnexpectedTracerError(
                f"a tracer escaped from its transformation: {self.description}. Under the grader the "
                f"exercise's function is {TRACED_ON_ITS_OWN} "
                "(a custom_vjp's bwd, a custom_jvp rule) runs after that trace has ended: a value it "
                "closes over that was traced inside the exercise's function (an argument such as a "
                "bound) has escaped. Hand it over explicitly instead (for custom_vjp: return it from "
                "fwd as a residual).")
        raise AttributeError(name)


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
        if building_locally():
            return RemoteNode._make(info, children)
        session = cls._remote_class._session
        try:
            return _rebuilt(session, info, children)
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
        if has_tracer(self._children):
            return _attribute_of(session, self, name)
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


def _rebuilt(session: Link, info: NodeInfo, children: list) -> RemoteNode:
    """One of the submission's pytree objects made from `children` by its class's own unflatten."""
    rebuild = {"type": session.proxy(info.type_hid, {"class": True}), "aux": session.proxy(info.aux_hid, {})}
    if not has_tracer(children):
        found = session.request("rebuild", children=children, **rebuild)
        if not isinstance(found, RemoteNode):
            raise WireError("a rebuilt node came back as something else")
        return found
    node = trace_in_subject(session, ((), {}, children), rebuild=rebuild)
    if isinstance(node, RemoteNode) and node._info.origin is None:  # same class and aux: same attributes
        object.__setattr__(node, "_info", dataclasses.replace(node._info, origin=info.origin))
    return node


def _attribute_of(session: Link, node: RemoteNode, name: str) -> Any:
    """`getattr(node, name)` on the submission's own object, rebuilt from the node's traced children."""
    info = node._info
    rebuild = {"type": session.proxy(info.type_hid, {"class": True}), "aux": session.proxy(info.aux_hid, {})}
    return trace_in_subject(session, ((), {}, list(node._children)), rebuild=rebuild, attribute=name)
