"""Mutants of a reference solution, derived mechanically with JAX-aware operators.

Each operator rewrites one place of the solution's syntax tree into an answer
a learner could plausibly write: one that often returns the same values but
loses the JAX property an exercise teaches (it recompiles, unrolls, reuses a
key, runs on the host or on one device, copies instead of donating, writes
into its input). A derived mutant that passes every check is a blind spot of
the checks, or, where the exercise does not care about that property, a right
answer (declare it in the exercise's `tests/variants/.../mutants.toml`).

This module names the operators and finds where each can act; reading the
solution's syntax is grader.course.mutation_syntax, and the rewrites and the
helpers written into a mutant (some of which say NOT_APPLICABLE_MARK at run
time, when the input they need never comes) grader.course.mutation_rewrites.

Pure syntax: these modules import neither JAX nor the exercise.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from grader.core.manifest import Exercise
from grader.course.mutation_rewrites import (UNHASHABLE, add_static, body_start, call_helper, container_param,
                                             drop_custom_rule, drop_keyword, host_numpy, pmap_to_vmap,
                                             rebind_params, rename_call, replace_by_argument, set_axes, set_keyword,
                                             to_numpy, with_helpers, write_back)
from grader.course.mutation_syntax import (JIT, PMAP, VMAP, aliases, functions_of, keyword_of, locate, name_of,
                                           params_of, transform_of, walk)

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
    names = aliases(tree)
    found: list[Mutant] = []
    seen = {original}
    taken: dict[str, int] = {}
    for site in _sites(tree, names):
        mutated = copy.deepcopy(tree)
        helpers = site.apply(mutated, locate(mutated, site.path))
        ast.fix_missing_locations(mutated)
        text = with_helpers(mutated, helpers)
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
    apply: Callable  # (mutated module, Spot) -> set of helper names it needs


LOOPS = {"jax.lax.scan": "scan", "jax.lax.fori_loop": "fori_loop", "jax.lax.while_loop": "while_loop",
         "jax.lax.map": "map"}
SHARDING_APIS = ("jax.sharding", "jax.shard_map", "jax.reshard", "jax.device_put", "jax.make_mesh",
                 "jax.set_mesh", "jax.pmap", "jax.lax.with_sharding_constraint", "jax.lax.psum")
AT_METHODS = {"add": "at-add-to-set", "set": "at-set-to-add", "multiply": "at-to-set", "divide": "at-to-set",
              "power": "at-to-set", "min": "at-to-set", "max": "at-to-set"}


def _sites(tree: ast.Module, names: dict[str, str]) -> Iterator[_Site]:
    functions = functions_of(tree)
    uses_sharding = any(name_of(n, names).startswith(SHARDING_APIS) for n in ast.walk(tree)
                        if isinstance(n, (ast.Name, ast.Attribute)))
    for node, path, where in walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.FunctionDef):
            yield from _function_sites(node, path, line, names, uses_sharding, top=len(path) == 1)
        if not isinstance(node, ast.Call) or path[-1][0] == "decorator_list":
            continue  # a decorator is its function's: see _function_sites
        kind, _ = transform_of(node, names)
        is_partial = name_of(node.func, names) == "functools.partial"
        target = node.args[0] if node.args and not is_partial else None
        if kind == JIT and target is not None:
            yield _Site("drop-jit", path, where, line, f"calls {ast.unparse(target)} without jax.jit",
                        lambda tree, spot: replace_by_argument(spot))
            if isinstance(target, ast.Name) and target.id in functions:
                yield from _static_sites(node, path, where, line, functions[target.id])
        if kind in (JIT, PMAP):
            yield from _keyword_drops(node, path, where, line, kind)
        if kind in LOOPS:
            loop = LOOPS[kind]
            yield _Site("python-loop", path, where, line, f"a Python loop instead of lax.{loop}",
                        lambda tree, spot, loop=loop: call_helper(spot, f"_katas_python_{loop}"))
            if loop in ("scan", "fori_loop"):
                yield _Site("unroll", path, where, line, f"lax.{loop}(..., unroll=True)",
                            lambda tree, spot: set_keyword(spot.node, "unroll", ast.Constant(True)))
        if kind == "jax.random.split":
            yield _Site("reuse-key", path, where, line, "the same key wherever the reference splits it",
                        lambda tree, spot: call_helper(spot, "_katas_same_keys"))
        if kind == "jax.random.fold_in" and node.args:
            yield _Site("reuse-key", path, where, line, "the base key wherever the reference folds data in",
                        lambda tree, spot: replace_by_argument(spot))
        if kind in (VMAP, PMAP, "jax.shard_map"):
            yield from _axes_sites(node, path, where, line, kind)
        if kind == VMAP and target is not None:
            yield _Site("vmap-to-loop", path, where, line, "a Python loop over the batch instead of jax.vmap",
                        lambda tree, spot: call_helper(spot, "_katas_python_vmap"))
        if kind == PMAP and not is_partial:
            yield _Site("pmap-to-vmap", path, where, line, "jax.vmap instead of jax.pmap: all on one device",
                        lambda tree, spot: pmap_to_vmap(spot.node))
        if kind in ("jax.checkpoint", "checkpoint_name") and node.args and not is_partial:
            yield _Site("drop-checkpoint", path, where, line, f"drops {kind.rsplit('.', 1)[-1]}",
                        lambda tree, spot: replace_by_argument(spot))
        if kind in ("jax.lax.with_sharding_constraint", "jax.reshard") and node.args:
            yield _Site("drop-placement", path, where, line, f"drops {kind.rsplit('.', 1)[-1]}",
                        lambda tree, spot: replace_by_argument(spot))
        if kind == "jax.device_put" and (len(node.args) > 1 or keyword_of(node, "device")):
            yield _Site("drop-placement", path, where, line, "drops a device_put: the value stays where it was",
                        lambda tree, spot: replace_by_argument(spot))
        if kind == "jax.debug.print":
            yield _Site("python-print", path, where, line, "print instead of jax.debug.print",
                        lambda tree, spot: rename_call(spot.node, "print"))
        if kind == "jax.lax.stop_gradient" and node.args:
            yield _Site("drop-stop-gradient", path, where, line, "drops lax.stop_gradient",
                        lambda tree, spot: replace_by_argument(spot))
        yield from _at_sites(node, path, where, line)


def _function_sites(function: ast.FunctionDef, path: tuple, line: int, names: dict[str, str],
                    uses_sharding: bool, top: bool) -> Iterator[_Site]:
    name = function.name
    for i, decorator in enumerate(function.decorator_list):
        kind, call = transform_of(decorator, names)
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
                        lambda tree, spot, name=name: drop_custom_rule(tree, spot, name))
    body = body_start(function)
    uses_jnp = any(to_numpy(n, names) for statement in function.body for n in ast.walk(statement)
                   if isinstance(n, ast.Attribute))
    params = params_of(function)
    jitted = any(transform_of(d, names)[0] in (JIT, PMAP) for d in function.decorator_list)
    if top and uses_jnp:
        yield _Site("host-numpy", path, name, line, f"{name} computed with NumPy on the host",
                    lambda tree, spot: host_numpy(spot.node, names, body, params))
    if top and params and not name.startswith("_") and not jitted:  # inside jit every input is a tracer
        if uses_sharding:
            for operator, helper in (("gather-to-host", "_katas_gather_inputs"),
                                     ("replicate-input", "_katas_replicate_inputs")):
                yield _Site(operator, path, name, line, OPERATORS[operator],
                            lambda tree, spot, helper=helper: rebind_params(spot.node, body, params, helper))
        param = container_param(function, names)
        if param:
            yield _Site("mutate-input", path, name, line, f"{name} writes its result back into {param}",
                        lambda tree, spot: write_back(spot.node, param))


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
                static |= {p for i, p in enumerate(params_of(function)) if i in numbers}
    annotations = {a.arg: ast.unparse(a.annotation) for a in function.args.posonlyargs + function.args.args
                   + function.args.kwonlyargs if a.annotation is not None}
    for param in params_of(function):
        # An array (or a dict of them) cannot be static at all: JAX refuses it, which teaches nothing.
        if param not in static and not UNHASHABLE.search(annotations.get(param, "")):
            yield _Site("static-arg", path, f"{where}:{param}", line, f"{param} marked static in jit of {function.name}",
                        lambda tree, spot, param=param: add_static(spot, param))


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
                    lambda tree, spot, arg=keyword.arg: drop_keyword(spot.node, arg))


def _axes_sites(node: ast.Call, path: tuple, where: str, line: int, kind: str) -> Iterator[_Site]:
    fields = [("in_specs", "swap-in-axes"), ("out_specs", "swap-out-axes")] if kind == "jax.shard_map" else \
        [("in_axes", "swap-in-axes"), ("out_axes", "swap-out-axes")]
    for position, (keyword_name, operator) in enumerate(fields):
        keyword = keyword_of(node, keyword_name)
        value = keyword.value if keyword else (node.args[position + 1] if kind == VMAP and len(node.args) > position + 1
                                               else None)
        swapped = _swapped(value) if value is not None else None
        if swapped is None:
            continue
        yield _Site(operator, path, where, line, f"{keyword_name}={ast.unparse(swapped)} instead of "
                                                 f"{ast.unparse(value)}",
                    lambda tree, spot, k=keyword_name, p=position, s=swapped: set_axes(spot.node, k, p, s, kind))


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
    if keyword_of(node, "mode"):
        yield _Site("at-drop-mode", path, where, line, f"drops {ast.unparse(keyword_of(node, 'mode'))} from .at[].{method}",
                    lambda tree, spot: drop_keyword(spot.node, "mode"))
