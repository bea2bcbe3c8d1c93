"""Mutants of a reference solution, derived mechanically with JAX-aware operators.

Each operator rewrites one place of the solution's syntax tree into an answer
a learner could plausibly write: one that often returns the same values but
loses the JAX property an exercise teaches (it recompiles, unrolls, reuses a
key, runs on the host or on one device, copies instead of donating, writes
into its input). A derived mutant that passes every check is a blind spot of
the checks, or, where the exercise does not care about that property, a right
answer (declare it in the exercise's `tests/variants/.../mutants.toml`).

Operators that can only act on what the program does at run time (gather a
sharded input, write into a mutable input) raise an error saying
NOT_APPLICABLE_MARK when the input they need never comes, so a mutant that
changed nothing is never reported as a survivor.

Pure syntax: this module imports neither JAX nor the exercise.
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from grader.core.manifest import Exercise

NOT_APPLICABLE_MARK = "mutation does not apply here"

# name -> what the mutant does instead of the reference (listed by `grader check --help`)
OPERATORS = {
    "drop-jit": "runs the function without jax.jit",
    "static-arg": "marks an argument of a jitted function static (a recompile per value)",
    "unstatic-arg": "drops static_argnames/static_argnums (Python control flow on a tracer, or a recompile)",
    "python-loop": "replaces lax.scan/fori_loop/while_loop/map by a Python loop (unrolled when traced)",
    "unroll": "passes unroll=True to lax.scan/fori_loop",
    "reuse-key": "reuses a PRNG key where the reference splits or folds it",
    "drop-donate": "drops donate_argnums/donate_argnames",
    "host-numpy": "computes the function with NumPy on the host instead of jax.numpy",
    "gather-to-host": "gathers each sharded input to the host and back onto one device first",
    "replicate-input": "reshards each sharded input to fully replicated (P()) first",
    "swap-in-axes": "swaps two entries of in_axes/in_specs (or maps axis 1 for 0)",
    "swap-out-axes": "swaps out_axes",
    "at-add-to-set": "x.at[i].add(v) -> x.at[i].set(v)",
    "at-set-to-add": "x.at[i].set(v) -> x.at[i].add(v)",
    "at-to-set": "x.at[i].multiply/divide/power/min/max(v) -> x.at[i].set(v)",
    "at-drop-mode": "drops mode= from an .at[] update or read",
    "mutate-input": "writes the result back into a mutable input (a dict, a list, a NumPy array)",
    "drop-checkpoint": "drops jax.checkpoint/remat and checkpoint_name",
    "drop-placement": "drops device_put/with_sharding_constraint/reshard (the value stays where it was)",
    "python-print": "replaces jax.debug.print by print (once per trace)",
    "drop-stop-gradient": "drops lax.stop_gradient",
    "vmap-to-loop": "replaces jax.vmap by a Python loop over the batch",
    "drop-custom-rule": "drops a custom_vjp/custom_jvp rule (JAX differentiates the function itself)",
    "pmap-to-vmap": "replaces jax.pmap by jax.vmap (all on one device)",
}


@dataclass(frozen=True)
class Mutant:
    """One derived mutant: `name` is `<operator>@<function>` (`#2` for a second place in it)."""

    exercise: Exercise
    name: str
    operator: str
    line: int  # in the reference solution
    description: str
    text: str  # the mutated module

    def source(self) -> bytes:
        return self.text.encode("utf-8")


def derive(entry: Exercise, source: str) -> list[Mutant]:
    """Every mutant the operators make of `source` (one per operator and place), duplicates and
    rewrites that change nothing left out.

    None for a predict kata: its answer is data (what JAX will do), and its checks run their own copy of
    the program it shows, so rewriting that program changes nothing they judge. Its kept mutants are wrong
    predictions instead.
    """
    if entry.kind == "predict":
        return []
    tree = ast.parse(source)
    original = ast.unparse(tree)
    names = _aliases(tree)
    found: list[Mutant] = []
    seen = {original}
    taken: dict[str, int] = {}
    for site in _sites(tree, names):
        mutated = copy.deepcopy(tree)
        helpers = site.apply(mutated, _locate(mutated, site.path))
        ast.fix_missing_locations(mutated)
        text = _with_helpers(mutated, helpers)
        if text in seen:
            continue
        seen.add(text)
        base = f"{site.operator}@{site.where}"
        taken[base] = taken.get(base, 0) + 1
        name = base if taken[base] == 1 else f"{base}#{taken[base]}"
        found.append(Mutant(entry, name, site.operator, site.line, site.description, text))
    return found


# --- where the operators act -------------------------------------------------------------------


@dataclass
class _Site:
    operator: str
    path: tuple  # (field, index) steps from the module to the node acted on
    where: str  # the function it is in (module for top level), plus a detail
    line: int
    description: str
    apply: Callable  # (mutated module, _Spot) -> set of helper names it needs


@dataclass
class _Spot:
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


def _locate(tree: ast.AST, path: tuple) -> _Spot:
    parent, node = None, tree
    field, index = "", None
    for field, index in path:
        parent = node
        value = getattr(node, field)
        node = value if index is None else value[index]
    return _Spot(parent, field, index, node)


def _walk(node: ast.AST, path: tuple = (), function: str = "module") -> Iterator[tuple[ast.AST, tuple, str]]:
    """Every node with its path and the innermost function around it."""
    yield node, path, function
    inner = node.name if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
    for field, value in ast.iter_fields(node):
        if isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, ast.AST):
                    yield from _walk(item, path + ((field, i),), inner)
        elif isinstance(value, ast.AST):
            yield from _walk(value, path + ((field, None),), inner)


def _aliases(tree: ast.Module) -> dict[str, str]:
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


def _qual(node: ast.AST, names: dict[str, str]) -> str:
    """The dotted name an expression refers to, through the imports ('' if it is not a name)."""
    if isinstance(node, ast.Name):
        return names.get(node.id, node.id)
    if isinstance(node, ast.Attribute):
        base = _qual(node.value, names)
        return f"{base}.{node.attr}" if base else ""
    return ""


SPELLINGS = {  # the same function under its other public names
    "jax.ad_checkpoint.checkpoint": "jax.checkpoint", "jax.remat": "jax.checkpoint",
    "jax.ad_checkpoint.checkpoint_name": "checkpoint_name", "jax.sharding.reshard": "jax.reshard",
    "jax.experimental.shard_map.shard_map": "jax.shard_map", "jax.tree_util.tree_map": "jax.tree.map",
}


def _name(node: ast.AST, names: dict[str, str]) -> str:
    qual = _qual(node, names)
    return SPELLINGS.get(qual, qual)


def _transform(node: ast.AST, names: dict[str, str]) -> tuple[str, ast.Call | None]:
    """For a decorator or call: (the transform it applies, the call carrying its keywords).

    `@jax.jit` -> ("jax.jit", None); `@partial(jax.jit, static_argnames=...)` and
    `jax.jit(f, static_argnames=...)` -> ("jax.jit", that call)."""
    if isinstance(node, ast.Call):
        head = _name(node.func, names)
        if head == "functools.partial" and node.args:
            return _name(node.args[0], names), node
        return head, node
    return _name(node, names), None


JIT, PMAP, VMAP = "jax.jit", "jax.pmap", "jax.vmap"
LOOPS = {"jax.lax.scan": "scan", "jax.lax.fori_loop": "fori_loop", "jax.lax.while_loop": "while_loop",
         "jax.lax.map": "map"}
SHARDING_APIS = ("jax.sharding", "jax.shard_map", "jax.reshard", "jax.device_put", "jax.make_mesh",
                 "jax.set_mesh", "jax.pmap", "jax.lax.with_sharding_constraint", "jax.lax.psum")
AT_METHODS = {"add": "at-add-to-set", "set": "at-set-to-add", "multiply": "at-to-set", "divide": "at-to-set",
              "power": "at-to-set", "min": "at-to-set", "max": "at-to-set"}


def _keyword(call: ast.Call, *names: str) -> ast.keyword | None:
    return next((k for k in call.keywords if k.arg in names), None)


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def _params(function: ast.FunctionDef) -> list[str]:
    args = function.args
    return [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs if a.arg != "self"]


def _sites(tree: ast.Module, names: dict[str, str]) -> Iterator[_Site]:
    functions = _functions(tree)
    uses_sharding = any(_name(n, names).startswith(SHARDING_APIS) for n in ast.walk(tree)
                        if isinstance(n, (ast.Name, ast.Attribute)))
    for node, path, where in _walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.FunctionDef):
            yield from _function_sites(node, path, line, names, uses_sharding, top=len(path) == 1)
        if not isinstance(node, ast.Call) or path[-1][0] == "decorator_list":
            continue  # a decorator is its function's: see _function_sites
        kind, _ = _transform(node, names)
        is_partial = _name(node.func, names) == "functools.partial"
        target = node.args[0] if node.args and not is_partial else None
        if kind == JIT and target is not None:
            yield _Site("drop-jit", path, where, line, f"calls {ast.unparse(target)} without jax.jit",
                        lambda tree, spot: _replace_by_argument(spot))
            if isinstance(target, ast.Name) and target.id in functions:
                yield from _static_sites(node, path, where, line, functions[target.id])
        if kind in (JIT, PMAP):
            yield from _keyword_drops(node, path, where, line, kind)
        if kind in LOOPS:
            loop = LOOPS[kind]
            yield _Site("python-loop", path, where, line, f"a Python loop instead of lax.{loop}",
                        lambda tree, spot, loop=loop: _call_helper(spot, f"_katas_python_{loop}"))
            if loop in ("scan", "fori_loop"):
                yield _Site("unroll", path, where, line, f"lax.{loop}(..., unroll=True)",
                            lambda tree, spot: _set_keyword(spot.node, "unroll", ast.Constant(True)))
        if kind == "jax.random.split":
            yield _Site("reuse-key", path, where, line, "the same key wherever the reference splits it",
                        lambda tree, spot: _call_helper(spot, "_katas_same_keys"))
        if kind == "jax.random.fold_in" and node.args:
            yield _Site("reuse-key", path, where, line, "the base key wherever the reference folds data in",
                        lambda tree, spot: _replace_by_argument(spot))
        if kind in (VMAP, PMAP, "jax.shard_map"):
            yield from _axes_sites(node, path, where, line, kind)
        if kind == VMAP and target is not None:
            yield _Site("vmap-to-loop", path, where, line, "a Python loop over the batch instead of jax.vmap",
                        lambda tree, spot: _call_helper(spot, "_katas_python_vmap"))
        if kind == PMAP and not is_partial:
            yield _Site("pmap-to-vmap", path, where, line, "jax.vmap instead of jax.pmap: all on one device",
                        lambda tree, spot: _pmap_to_vmap(spot.node))
        if kind in ("jax.checkpoint", "checkpoint_name") and node.args and not is_partial:
            yield _Site("drop-checkpoint", path, where, line, f"drops {kind.rsplit('.', 1)[-1]}",
                        lambda tree, spot: _replace_by_argument(spot))
        if kind in ("jax.lax.with_sharding_constraint", "jax.reshard") and node.args:
            yield _Site("drop-placement", path, where, line, f"drops {kind.rsplit('.', 1)[-1]}",
                        lambda tree, spot: _replace_by_argument(spot))
        if kind == "jax.device_put" and (len(node.args) > 1 or _keyword(node, "device")):
            yield _Site("drop-placement", path, where, line, "drops a device_put: the value stays where it was",
                        lambda tree, spot: _replace_by_argument(spot))
        if kind == "jax.debug.print":
            yield _Site("python-print", path, where, line, "print instead of jax.debug.print",
                        lambda tree, spot: _rename_call(spot.node, "print"))
        if kind == "jax.lax.stop_gradient" and node.args:
            yield _Site("drop-stop-gradient", path, where, line, "drops lax.stop_gradient",
                        lambda tree, spot: _replace_by_argument(spot))
        yield from _at_sites(node, path, where, line)


def _function_sites(function: ast.FunctionDef, path: tuple, line: int, names: dict[str, str],
                    uses_sharding: bool, top: bool) -> Iterator[_Site]:
    name = function.name
    for i, decorator in enumerate(function.decorator_list):
        kind, call = _transform(decorator, names)
        spot_path = path + (("decorator_list", i),)
        if kind == JIT:
            yield _Site("drop-jit", spot_path, name, line, f"{name} without jax.jit",
                        lambda tree, spot: spot.remove())
            yield from _static_sites(decorator, spot_path, name, line, function)
        if kind in (JIT, PMAP) and call is not None:
            yield from _keyword_drops(call, spot_path, name, line, kind)
        if kind == "jax.checkpoint":
            yield _Site("drop-checkpoint", spot_path, name, line, f"{name} without jax.checkpoint",
                        lambda tree, spot: spot.remove())
        if kind in ("jax.custom_vjp", "jax.custom_jvp"):
            yield _Site("drop-custom-rule", spot_path, name, line, f"{name} without its {kind.rsplit('.', 1)[-1]} rule",
                        lambda tree, spot, name=name: _drop_custom_rule(tree, spot, name))
    body = _body_start(function)
    uses_jnp = any(_to_numpy(n, names) for statement in function.body for n in ast.walk(statement)
                   if isinstance(n, ast.Attribute))
    params = _params(function)
    jitted = any(_transform(d, names)[0] in (JIT, PMAP) for d in function.decorator_list)
    if top and uses_jnp:
        yield _Site("host-numpy", path, name, line, f"{name} computed with NumPy on the host",
                    lambda tree, spot: _host_numpy(spot.node, names, body, params))
    if top and params and not name.startswith("_") and not jitted:  # inside jit every input is a tracer
        if uses_sharding:
            for operator, helper in (("gather-to-host", "_katas_gather_inputs"),
                                     ("replicate-input", "_katas_replicate_inputs")):
                yield _Site(operator, path, name, line, OPERATORS[operator],
                            lambda tree, spot, helper=helper: _rebind_params(spot.node, body, params, helper))
        param = _container_param(function, names)
        if param:
            yield _Site("mutate-input", path, name, line, f"{name} writes its result back into {param}",
                        lambda tree, spot: _write_back(spot.node, param))


def _static_sites(node: ast.AST, path: tuple, where: str, line: int,
                  function: ast.FunctionDef) -> Iterator[_Site]:
    call = node if isinstance(node, ast.Call) else None
    static = set()
    if call is not None:
        for keyword in call.keywords:
            if keyword.arg == "static_argnames":
                static |= {c.value for c in ast.walk(keyword.value) if isinstance(c, ast.Constant)}
            if keyword.arg == "static_argnums":
                numbers = {c.value for c in ast.walk(keyword.value) if isinstance(c, ast.Constant)}
                static |= {p for i, p in enumerate(_params(function)) if i in numbers}
    annotations = {a.arg: ast.unparse(a.annotation) for a in function.args.posonlyargs + function.args.args
                   + function.args.kwonlyargs if a.annotation is not None}
    for param in _params(function):
        # An array (or a dict of them) cannot be static at all: JAX refuses it, which teaches nothing.
        if param not in static and not UNHASHABLE.search(annotations.get(param, "")):
            yield _Site("static-arg", path, f"{where}:{param}", line, f"{param} marked static in jit of {function.name}",
                        lambda tree, spot, param=param: _add_static(spot, param))


def _keyword_drops(call: ast.Call, path: tuple, where: str, line: int, kind: str) -> Iterator[_Site]:
    for keyword in call.keywords:
        if keyword.arg in ("static_argnames", "static_argnums") and kind == JIT:
            operator = "unstatic-arg"
        elif keyword.arg in ("donate_argnums", "donate_argnames"):
            operator = "drop-donate"
        else:
            continue
        detail = ast.unparse(keyword)
        yield _Site(operator, path, where, line, f"drops {detail}",
                    lambda tree, spot, arg=keyword.arg: _drop_keyword(spot.node, arg))


def _axes_sites(node: ast.Call, path: tuple, where: str, line: int, kind: str) -> Iterator[_Site]:
    fields = [("in_specs", "swap-in-axes"), ("out_specs", "swap-out-axes")] if kind == "jax.shard_map" else \
        [("in_axes", "swap-in-axes"), ("out_axes", "swap-out-axes")]
    for position, (keyword_name, operator) in enumerate(fields):
        keyword = _keyword(node, keyword_name)
        value = keyword.value if keyword else (node.args[position + 1] if kind == VMAP and len(node.args) > position + 1
                                               else None)
        swapped = _swapped(value) if value is not None else None
        if swapped is None:
            continue
        yield _Site(operator, path, where, line, f"{keyword_name}={ast.unparse(swapped)} instead of "
                                                 f"{ast.unparse(value)}",
                    lambda tree, spot, k=keyword_name, p=position, s=swapped: _set_axes(spot.node, k, p, s, kind))


def _swapped(value: ast.AST) -> ast.AST | None:
    if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) >= 2:
        texts = [ast.unparse(e) for e in value.elts]
        pair = next(((i, j) for i in range(len(texts)) for j in range(i + 1, len(texts)) if texts[i] != texts[j]),
                    None)
        if pair is None:
            return None
        new = copy.deepcopy(value)
        i, j = pair
        new.elts[i], new.elts[j] = new.elts[j], new.elts[i]
        return new
    if isinstance(value, ast.Constant) and value.value in (0, 1) and not isinstance(value.value, bool):
        return ast.Constant(1 - value.value)
    return None


def _at_sites(node: ast.Call, path: tuple, where: str, line: int) -> Iterator[_Site]:
    func = node.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Subscript)
            and isinstance(func.value.value, ast.Attribute) and func.value.value.attr == "at"):
        return
    method = func.attr
    if method in AT_METHODS:
        new = "add" if method == "set" else "set"
        yield _Site(AT_METHODS[method], path, where, line, f".at[].{method} -> .at[].{new}",
                    lambda tree, spot, new=new: setattr(spot.node.func, "attr", new))
    if _keyword(node, "mode"):
        yield _Site("at-drop-mode", path, where, line, f"drops {ast.unparse(_keyword(node, 'mode'))} from .at[].{method}",
                    lambda tree, spot: _drop_keyword(spot.node, "mode"))


# --- the rewrites ------------------------------------------------------------------------------


def _replace_by_argument(spot: _Spot) -> set[str]:
    spot.replace(spot.node.args[0])
    return set()


def _call_helper(spot: _Spot, helper: str) -> set[str]:
    spot.node.func = ast.Name(helper, ast.Load())
    return {helper}


def _rename_call(call: ast.Call, name: str) -> set[str]:
    call.func = ast.Name(name, ast.Load())
    return set()


def _set_keyword(call: ast.Call, name: str, value: ast.AST) -> set[str]:
    call.keywords = [k for k in call.keywords if k.arg != name] + [ast.keyword(name, value)]
    return set()


def _drop_keyword(call: ast.Call, name: str) -> set[str]:
    call.keywords = [k for k in call.keywords if k.arg != name]
    return set()


def _add_static(spot: _Spot, param: str) -> set[str]:
    node = spot.node
    if not isinstance(node, ast.Call):  # a bare @jax.jit: call it with the keyword
        node = ast.Call(node, [], [])
        spot.replace(node)
    existing = _keyword(node, "static_argnames")
    names = [c.value for c in ast.walk(existing.value) if isinstance(c, ast.Constant)] if existing else []
    _set_keyword(node, "static_argnames", ast.Tuple([ast.Constant(n) for n in names + [param]], ast.Load()))
    return set()


def _set_axes(call: ast.Call, keyword_name: str, position: int, value: ast.AST, kind: str) -> set[str]:
    if _keyword(call, keyword_name) or kind != VMAP:
        _set_keyword(call, keyword_name, value)
    else:
        call.args[position + 1] = value
    return set()


def _pmap_to_vmap(call: ast.Call) -> set[str]:
    call.func = ast.Attribute(ast.Name("_katas_jax", ast.Load()), "vmap", ast.Load())
    call.keywords = [k for k in call.keywords if k.arg in ("in_axes", "out_axes", "axis_name", "axis_size")]
    return {"_katas_imports"}


def _drop_custom_rule(tree: ast.Module, spot: _Spot, name: str) -> set[str]:
    spot.remove()
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                block[:] = [s for s in block if not _defines_rule(s, name)] or [ast.Pass()]
        if isinstance(node, ast.FunctionDef):
            node.decorator_list = [d for d in node.decorator_list if not _is_rule(d, name)]
    return set()


def _is_rule(node: ast.AST, name: str) -> bool:
    func = node.func if isinstance(node, ast.Call) else node
    return (isinstance(func, ast.Attribute) and func.attr in ("defvjp", "defjvp", "defjvps")
            and isinstance(func.value, ast.Name) and func.value.id == name)


def _defines_rule(statement: ast.stmt, name: str) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) and _is_rule(statement.value, name)


def _body_start(function: ast.FunctionDef) -> int:
    """Where code goes in at the top of a function: after its docstring."""
    first = function.body[0] if function.body else None
    return 1 if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
        and isinstance(first.value.value, str) else 0


def _rebind_params(function: ast.FunctionDef, start: int, params: list[str], helper: str) -> set[str]:
    target = ast.Tuple([ast.Name(p, ast.Store()) for p in params], ast.Store())
    value = ast.Call(ast.Name(helper, ast.Load()), [ast.Name(p, ast.Load()) for p in params], [])
    function.body.insert(start, ast.Assign([target], value))
    return {helper}


UNHASHABLE = re.compile(r"Array|ndarray|\bdict\b|\blist\b|Dict|List|Mapping|PyTree|\bKey")
MUTABLE_HINTS = re.compile(r"(?<![\w.])(dict|list|Dict|List|Mapping|MutableMapping|np\.ndarray|numpy\.ndarray)\b")


def _container_param(function: ast.FunctionDef, names: dict[str, str]) -> str | None:
    """The first parameter a learner might write the result into: one annotated as a dict, list or
    NumPy array, or the first one when the function returns a new container built from its input."""
    arguments = function.args.posonlyargs + function.args.args
    for argument in arguments:
        if argument.annotation is not None and MUTABLE_HINTS.search(ast.unparse(argument.annotation)):
            return argument.arg
    returns = [n.value for n in _own_nodes(function) if isinstance(n, ast.Return) and n.value is not None]
    builds = any(isinstance(v, (ast.Dict, ast.DictComp, ast.List, ast.ListComp)) or
                 isinstance(v, ast.Call) and _name(v.func, names) == "jax.tree.map" for v in returns)
    return arguments[0].arg if builds and arguments else None


def _own_nodes(function: ast.FunctionDef) -> Iterator[ast.AST]:
    """The nodes of a function's body, not those of functions (or lambdas) defined inside it."""
    stack = list(function.body)
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                stack.append(child)


def _wrap_returns(function: ast.FunctionDef, wrap: Callable[[ast.AST], ast.AST]) -> None:
    for node in _own_nodes(function):
        if isinstance(node, ast.Return) and node.value is not None:
            node.value = wrap(node.value)


def _write_back(function: ast.FunctionDef, param: str) -> set[str]:
    _wrap_returns(function, lambda value: ast.Call(ast.Name("_katas_write_back", ast.Load()),
                                                    [ast.Name(param, ast.Load()), value], []))
    return {"_katas_write_back"}


def _to_numpy(node: ast.Attribute, names: dict[str, str]) -> bool:
    """Whether `node` is a jax.numpy function NumPy has too (`jnp.sum`, not `jnp.ndarray` types)."""
    import numpy

    qual = _name(node, names)
    return qual.startswith("jax.numpy.") and qual.count(".") == 2 and hasattr(numpy, node.attr) \
        and node.attr not in ("ndarray", "dtype")


def _host_numpy(function: ast.FunctionDef, names: dict[str, str], start: int, params: list[str]) -> set[str]:
    function.decorator_list = [d for d in function.decorator_list if _transform(d, names)[0] != JIT]

    class ToNumpy(ast.NodeTransformer):
        def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
            if _to_numpy(node, names):
                return ast.copy_location(ast.Attribute(ast.Name("_katas_np", ast.Load()), node.attr, ast.Load()), node)
            return self.generic_visit(node)

    function.body = [ToNumpy().visit(statement) for statement in function.body]
    _wrap_returns(function, lambda value: ast.Call(ast.Name("_katas_on_device", ast.Load()), [value], []))
    if params:  # the inputs come to the host first, so NumPy computes (a tracer refuses: jit is gone)
        _rebind_params(function, start, params, "_katas_to_host")
    return {"_katas_on_device", "_katas_to_host"}


# --- the helpers a mutant may need, written into it -------------------------------------------

_IMPORTS = '''\
import jax as _katas_jax
import jax.numpy as _katas_jnp
import numpy as _katas_np


# The input a derived mutant acts on never came: it would behave as the reference does. A built-in
# exception, so that its message crosses from the process running the exercise to the checks.
MutationDoesNotApply = RuntimeError
'''

_HELPERS = {
    "_katas_python_scan": '''\
def _katas_python_scan(f, init, xs=None, length=None, reverse=False, unroll=1, _split_transpose=False):
    leaves = _katas_jax.tree.leaves(xs)
    n = length if not leaves else leaves[0].shape[0]
    carry, ys = init, []
    for i in (reversed(range(n)) if reverse else range(n)):
        x = None if xs is None else _katas_jax.tree.map(lambda a: a[i], xs)
        carry, y = f(carry, x)
        ys.append(y)
    if reverse:
        ys.reverse()
    if not ys:
        raise MutationDoesNotApply("''' + NOT_APPLICABLE_MARK + ''': a scan of length 0")
    return carry, _katas_jax.tree.map(lambda *y: _katas_jnp.stack(y), *ys)
''',
    "_katas_python_fori_loop": '''\
def _katas_python_fori_loop(lower, upper, body_fun, init_val, unroll=None):
    value = init_val
    for i in range(int(lower), int(upper)):
        value = body_fun(i, value)
    return value
''',
    "_katas_python_while_loop": '''\
def _katas_python_while_loop(cond_fun, body_fun, init_val):
    value = init_val
    while bool(cond_fun(value)):
        value = body_fun(value)
    return value
''',
    "_katas_python_map": '''\
def _katas_python_map(f, xs, batch_size=None):
    n = _katas_jax.tree.leaves(xs)[0].shape[0]
    ys = [f(_katas_jax.tree.map(lambda a: a[i], xs)) for i in range(n)]
    return _katas_jax.tree.map(lambda *y: _katas_jnp.stack(y), *ys)
''',
    "_katas_same_keys": '''\
def _katas_same_keys(key, num=2):
    shape = (num,) if isinstance(num, int) else tuple(num)
    return _katas_jnp.broadcast_to(key, shape + key.shape)
''',
    "_katas_python_vmap": '''\
def _katas_python_vmap(f, in_axes=0, out_axes=0, axis_name=None, axis_size=None, spmd_axis_name=None):
    if axis_name is not None or not isinstance(out_axes, int):
        raise MutationDoesNotApply("''' + NOT_APPLICABLE_MARK + ''': a named or nested vmap axis")

    def looped(*args):
        axes = list(in_axes) if isinstance(in_axes, (list, tuple)) else [in_axes] * len(args)
        if len(axes) != len(args) or not all(a is None or isinstance(a, int) for a in axes):
            raise MutationDoesNotApply("''' + NOT_APPLICABLE_MARK + ''': in_axes per leaf")
        sizes = [leaf.shape[axis] for arg, axis in zip(args, axes) if axis is not None
                 for leaf in _katas_jax.tree.leaves(arg)]
        if not sizes:
            raise MutationDoesNotApply("''' + NOT_APPLICABLE_MARK + ''': nothing mapped")
        outs = []
        for i in range(sizes[0]):
            sliced = [arg if axis is None else _katas_jax.tree.map(lambda a: _katas_jnp.take(a, i, axis=axis), arg)
                      for arg, axis in zip(args, axes)]
            outs.append(f(*sliced))
        return _katas_jax.tree.map(lambda *y: _katas_jnp.stack(y, axis=out_axes), *outs)

    return looped
''',
    "_katas_on_device": '''\
def _katas_on_device(value):
    return _katas_jax.tree.map(_katas_jnp.asarray, value)
''',
    "_katas_to_host": '''\
def _katas_to_host(*args):
    return _katas_jax.tree.map(lambda a: _katas_np.asarray(a) if isinstance(a, _katas_jax.Array) else a, args)
''',
    "_katas_write_back": '''\
def _katas_write_back(target, result):
    if any(isinstance(leaf, _katas_jax.core.Tracer) for leaf in _katas_jax.tree.leaves(target)):
        raise MutationDoesNotApply("''' + NOT_APPLICABLE_MARK + ''': the input is traced, a copy the caller never sees")
    same = _katas_jax.tree.structure(target) == _katas_jax.tree.structure(result) and all(
        _katas_np.shape(a) == _katas_np.shape(b) and _katas_np.array_equal(_katas_np.asarray(a), _katas_np.asarray(b))
        for a, b in zip(_katas_jax.tree.leaves(target), _katas_jax.tree.leaves(result)))
    if same:
        raise MutationDoesNotApply("''' + NOT_APPLICABLE_MARK + ''': the result equals the input, so writing it back changes nothing")
    if isinstance(target, dict) and isinstance(result, dict) and set(target) == set(result):
        target.update(result)
        return target
    if isinstance(target, list) and isinstance(result, (list, tuple)) and len(target) == len(result):
        target[:] = result
        return target
    if isinstance(target, _katas_np.ndarray) and _katas_np.shape(result) == target.shape and target.flags.writeable:
        target[...] = _katas_np.asarray(result)
        return result
    raise MutationDoesNotApply("''' + NOT_APPLICABLE_MARK + ''': the input is not a mutable container of the '''
    '''result's shape")
''',
    "_katas_gather_inputs": '''\
def _katas_sharded(leaf):
    return isinstance(leaf, _katas_jax.Array) and not isinstance(leaf, _katas_jax.core.Tracer) \\
        and len(leaf.sharding.device_set) > 1


def _katas_gather_inputs(*args):
    if not any(_katas_sharded(leaf) for leaf in _katas_jax.tree.leaves(args)):
        raise MutationDoesNotApply("''' + NOT_APPLICABLE_MARK + ''': no input is spread over devices")
    return _katas_jax.tree.map(
        lambda a: _katas_jnp.asarray(_katas_jax.device_get(a)) if _katas_sharded(a) else a, args)
''',
    "_katas_replicate_inputs": '''\
def _katas_replicated(leaf):
    sharding = leaf.sharding
    if not isinstance(sharding, _katas_jax.sharding.NamedSharding):
        return leaf
    return _katas_jax.device_put(leaf, _katas_jax.sharding.NamedSharding(sharding.mesh,
                                                                          _katas_jax.sharding.PartitionSpec()))


def _katas_split_input(leaf):
    return isinstance(leaf, _katas_jax.Array) and not isinstance(leaf, _katas_jax.core.Tracer) \\
        and isinstance(leaf.sharding, _katas_jax.sharding.NamedSharding) and not leaf.sharding.is_fully_replicated


def _katas_replicate_inputs(*args):
    if not any(_katas_split_input(leaf) for leaf in _katas_jax.tree.leaves(args)):
        raise MutationDoesNotApply("''' + NOT_APPLICABLE_MARK + ''': no input is split over devices")
    return _katas_jax.tree.map(lambda a: _katas_replicated(a) if _katas_split_input(a) else a, args)
''',
}


def _with_helpers(tree: ast.Module, helpers: set[str]) -> str:
    """The mutated module's text, with the helpers it calls defined after its docstring and
    `from __future__` imports."""
    body = ast.unparse(tree)
    if not helpers:
        return body + "\n"
    code = _IMPORTS + "".join("\n\n" + _HELPERS[h] for h in sorted(helpers) if h in _HELPERS)
    count = 0
    for statement in tree.body:
        docstring = count == 0 and isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) \
            and isinstance(statement.value.value, str)
        if not (docstring or isinstance(statement, ast.ImportFrom) and statement.module == "__future__"):
            break
        count += 1
    top = ast.unparse(ast.Module(body=tree.body[:count], type_ignores=[]))
    rest = ast.unparse(ast.Module(body=tree.body[count:], type_ignores=[]))
    return (top + "\n" if top else "") + code + "\n\n" + rest + "\n"
