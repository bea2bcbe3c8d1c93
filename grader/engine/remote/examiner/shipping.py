"""What a check's own objects are made of when they are handed to the subject: closures and their
cells, jitted functions' options, the fields of its dataclasses, and which classes are the check's."""

from __future__ import annotations

import dataclasses
import dis
import os
import sys
import types
from typing import Any

import jax

from grader.engine.remote.protocol import SHIPPABLE_MODULES


EMPTY = object()  # an empty closure cell


def cell_value(cell: Any) -> Any:
    """What a closure cell holds, or EMPTY."""
    try:
        return cell.cell_contents
    except ValueError:
        return EMPTY


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


def global_names(code: types.CodeType) -> set[str]:
    """The global names `code`, or a function nested in it, may read."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= global_names(const)
    return names


def jitted(obj: Any) -> bool:
    """Whether `obj` is a function made by `jax.jit`."""
    return type(obj).__name__ == "PjitFunction" and hasattr(obj, "_jit_info") and hasattr(obj, "_fun")


def jit_options(function: Any) -> dict[str, Any]:
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


def shippable_module(module: str) -> bool:
    """Whether the subject may find a function of `module` by its name (JAX, NumPy, the standard library)."""
    return module == "builtins" or any(module == m or module.startswith(m + ".") for m in SHIPPABLE_MODULES)


def named(module: str, qualname: str, obj: Any) -> bool:
    """Whether `module.qualname` really is `obj` (so the subject finds the same thing by name)."""
    found: Any = sys.modules.get(module)
    for part in qualname.split("."):
        found = getattr(found, part, None)
    return found is obj


def check_owned(kind: type) -> bool:
    """Classes a check file defines (they are shipped; anything else of the examiner's is not)."""
    module_name = getattr(kind, "__module__", "") or ""
    found = _CHECK_MODULES.get(module_name)
    if found is None:
        module = sys.modules.get(module_name, None)
        name = os.path.basename(getattr(module, "__file__", "") or "")
        found = _CHECK_MODULES[module_name] = name.startswith(("test_", "hidden_test_")) or module_name == "__main__"
    return found


_CHECK_MODULES: dict[str, bool] = {}


def dataclass_fields(kind: type) -> tuple[tuple, tuple] | None:
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


def fields_by_attribute(kind: type, keyed: list) -> tuple[tuple, tuple] | None:
    """(data fields, no metadata) of a dataclass registered some other way (chex.dataclass) whose
    children are exactly its fields, keyed by attribute name, in the order its flatten gives them."""
    from jax.tree_util import GetAttrKey

    if not dataclasses.is_dataclass(kind) or not all(isinstance(k, GetAttrKey) for k, _ in keyed):
        return None
    names = tuple(k.name for k, _ in keyed)
    if sorted(names) != sorted(f.name for f in dataclasses.fields(kind)):
        return None
    return names, ()


def key_tag(key: Any) -> list:
    """A pytree key as it travels: ["attr" | "dict" | "seq" | "flat", its value]."""
    from jax.tree_util import DictKey, GetAttrKey, SequenceKey

    if isinstance(key, GetAttrKey):
        return ["attr", str(key.name)]
    if isinstance(key, DictKey):
        return ["dict", key.key]
    if isinstance(key, SequenceKey):
        return ["seq", int(key.idx)]
    return ["flat", int(getattr(key, "key", 0))]
