"""Stand-ins for the check's objects (pytree nodes, captured output) and the bookkeeping of mirrored
containers, descriptions and trusted names."""

from __future__ import annotations

import importlib
import io
import threading
import types
from typing import Any

from grader.engine.remote.codec import WireError
from grader.engine.remote.protocol import SHIPPABLE_MODULES, hashable


EMPTY_CELL = object()


def cell_value(cell: Any) -> Any:
    try:
        return cell.cell_contents
    except ValueError:
        return EMPTY_CELL


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


def check_node_type(name: str, keys: list[tuple], sequence: bool) -> type:
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


class Capture:
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


def mirrorable(obj: Any) -> bool:
    """A container, a NumPy array, or an object of a class a check shipped (with attributes)."""
    import numpy as np

    if isinstance(obj, (list, dict, set, np.ndarray)):
        return True
    return hasattr(obj, "__dict__") and not type(obj).__module__.startswith(("jax", "jaxlib"))


def content_signature(obj: Any) -> tuple:
    """What an object holds: a NumPy array by its bytes, anything else by the identity of its items."""
    import hashlib

    import numpy as np

    if isinstance(obj, np.ndarray):
        return ("bytes", obj.shape, obj.dtype.str, hashlib.sha1(np.ascontiguousarray(obj).tobytes()).digest())
    items = obj.items() if isinstance(obj, dict) else obj if isinstance(obj, (list, set)) else vars(obj).items()
    flat = [part for item in items for part in (item if isinstance(obj, dict) or not isinstance(obj, (list, set))
                                                else (item,))]
    return ("items", tuple(flat))


def same_content(a: tuple | None, b: tuple | None) -> bool:
    if a is None or b is None or a[0] != b[0]:
        return False
    if a[0] == "bytes":
        return a == b
    return len(a[1]) == len(b[1]) and all(x is y for x, y in zip(a[1], b[1]))


def update_in_place(obj: Any, contents: Any) -> None:
    if isinstance(obj, list):
        obj[:] = contents
    else:
        obj.clear()
        obj.update(contents)


def unflatten_one(kind: type, aux: Any, children: list) -> Any:
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


def contents_of(obj: Any) -> Any:
    """A new container with what `obj` holds now: sent as a value, where `obj` itself would be sent
    as a reference to the examiner's own object."""
    import numpy as np

    if isinstance(obj, (list, dict, set)):
        return type(obj)(obj)
    if isinstance(obj, np.ndarray):
        return obj.copy()
    return dict(obj.__dict__)


def key_path_entry(key: Any) -> list:
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


def trusted_function(name: str) -> Any:
    module_name, _, qualname = str(name).partition(":")
    if not any(module_name == m or module_name.startswith(m + ".") for m in SHIPPABLE_MODULES):
        raise WireError(f"refused to look up {name!r}")
    found: Any = shippable_module(module_name)
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


PRIVATE_MODULES: dict[str, types.ModuleType] = {}


def shippable_module(name: str) -> types.ModuleType:
    name = str(name)
    if name in PRIVATE_MODULES:
        return PRIVATE_MODULES[name]
    if not any(name == m or name.startswith(m + ".") for m in SHIPPABLE_MODULES):
        raise WireError(f"refused to hand over module {name!r}")
    return importlib.import_module(name)
