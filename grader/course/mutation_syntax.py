"""Reading a reference solution's syntax for mutation (grader.course.mutation): where a node is,
what each name it uses imports, which JAX transform a decorator or call applies. Pure syntax."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass


@dataclass
class Spot:
    parent: ast.AST
    field: str
    index: int | None
    node: ast.AST

    def replace(self, new: ast.AST) -> None:
        if self.index is None:
            setattr(self.parent, self.field, new)
        else:
            getattr(self.parent, self.field)[self.index] = new

    def remove(self) -> None:
        del getattr(self.parent, self.field)[self.index]


@dataclass
class Site:
    """A place one operator can act on: derive() applies it to a copy of the solution's tree."""

    operator: str
    path: tuple  # (field, index) steps from the module to the node acted on
    where: str  # the function it is in (module for top level), plus a detail
    line: int
    description: str
    apply: Callable  # (mutated module, Spot) -> set of helper names it needs


def locate(tree: ast.AST, path: tuple) -> Spot:
    parent, node = None, tree
    field, index = "", None
    for field, index in path:
        parent = node
        value = getattr(node, field)
        node = value if index is None else value[index]
    return Spot(parent, field, index, node)


def walk(node: ast.AST, path: tuple = (), function: str = "module") -> Iterator[tuple[ast.AST, tuple, str]]:
    """Every node with its path and the innermost function around it."""
    yield node, path, function
    inner = node.name if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
    for field, value in ast.iter_fields(node):
        if isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, ast.AST):
                    yield from walk(item, path + ((field, i),), inner)
        elif isinstance(value, ast.AST):
            yield from walk(value, path + ((field, None),), inner)


def aliases(tree: ast.Module) -> dict[str, str]:
    """Local name -> what it imports: `jnp` -> `jax.numpy`, `P` -> `jax.sharding.PartitionSpec`."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else \
                    alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def qualified_name(node: ast.AST, names: dict[str, str]) -> str:
    """The dotted name an expression refers to, through the imports ('' if it is not a name)."""
    if isinstance(node, ast.Name):
        return names.get(node.id, node.id)
    if isinstance(node, ast.Attribute):
        base = qualified_name(node.value, names)
        return f"{base}.{node.attr}" if base else ""
    return ""


SPELLINGS = {  # the same function under its other public names
    "jax.ad_checkpoint.checkpoint": "jax.checkpoint", "jax.remat": "jax.checkpoint",
    "jax.ad_checkpoint.checkpoint_name": "checkpoint_name", "jax.sharding.reshard": "jax.reshard",
    "jax.experimental.shard_map.shard_map": "jax.shard_map", "jax.tree_util.tree_map": "jax.tree.map",
}


def name_of(node: ast.AST, names: dict[str, str]) -> str:
    qual = qualified_name(node, names)
    return SPELLINGS.get(qual, qual)


def transform_of(node: ast.AST, names: dict[str, str]) -> tuple[str, ast.Call | None]:
    """For a decorator or call: (the transform it applies, the call carrying its keywords).

    `@jax.jit` -> ("jax.jit", None); `@partial(jax.jit, static_argnames=...)` and
    `jax.jit(f, static_argnames=...)` -> ("jax.jit", that call)."""
    if isinstance(node, ast.Call):
        head = name_of(node.func, names)
        if head == "functools.partial" and node.args:
            return name_of(node.args[0], names), node
        return head, node
    return name_of(node, names), None


JIT, PMAP, VMAP = "jax.jit", "jax.pmap", "jax.vmap"


def keyword_of(call: ast.Call, *names: str) -> ast.keyword | None:
    return next((k for k in call.keywords if k.arg in names), None)


def functions_of(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def params_of(function: ast.FunctionDef) -> list[str]:
    args = function.args
    return [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs if a.arg != "self"]
