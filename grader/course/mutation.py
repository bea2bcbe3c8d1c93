"""Mutants of a reference solution, derived mechanically with JAX-aware operators.

Each operator rewrites one place of the solution's syntax tree into an answer
a learner could plausibly write: one that often returns the same values but
loses the JAX property an exercise teaches (it recompiles, unrolls, reuses a
key, runs on the host or on one device, copies instead of donating, writes
into its input). A derived mutant that passes every check is a blind spot of
the checks, or, where the exercise does not care about that property, a right
answer (declare it in the exercise's `tests/variants/.../mutants.toml`).

This module names the operators and finds where each can act; the operators on
JAX idioms (loops rolled and unrolled, associative scans, selections, dtypes,
vmap axes) are grader.course.mutation_idioms, a course's own ones
(its `mutations.py`) grader.course.mutation_course. Reading the solution's
syntax is grader.course.mutation_syntax, and the rewrites and the helpers
written into a mutant (some of which say NOT_APPLICABLE_MARK at run time, when
the input they need never comes) grader.course.mutation_rewrites.

Pure syntax: these modules import neither JAX nor the exercise.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

from grader.core.manifest import Exercise
from grader.core.selection import UsageProblem
from grader.course.mutation_course import COURSE_FILE, CourseOperator, course_sites, load_operators
from grader.course.mutation_idioms import idiom_sites
from grader.course.mutation_rewrites import (UNHASHABLE, add_static, body_start, call_helper, container_param,
                                             drop_custom_rule, drop_keyword, host_numpy, pmap_to_vmap,
                                             rebind_params, rename_call, replace_by_argument, set_axes, set_keyword,
                                             to_numpy, with_helpers, write_back)
from grader.course.mutation_syntax import (JIT, PMAP, VMAP, aliases, functions_of, keyword_of, locate, name_of,
                                           params_of, transform_of, walk, Site)

# name -> what the mutant does instead of the reference (listed by `grader check --help`)
OPERATORS = {
    "drop-jit": "runs the function without jax.jit",
    "static-arg": "marks an argument of a jitted function static (a recompile per value)",
    "unstatic-arg": "drops static_argnames/static_argnums (Python control flow on a tracer, or a recompile)",
    "python-loop": "replaces lax.scan/fori_loop/while_loop/map/associative_scan by a Python loop (unrolled when "
                   "traced)",
    "loop-to-fori": "replaces a Python for-range loop carrying values by lax.fori_loop (one traced body, not "
                    "unrolled)",
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
    "swap-combine-order": "applies lax.associative_scan's combine to its operands in the other order (right only "
                          "if it commutes)",
    "swap-combine-op": "+ <-> * (jnp.add <-> multiply, maximum <-> minimum) in lax.associative_scan's combine",
    "closed-form-scan": "a linear recurrence's associative_scan as cumprod(a) * cumsum(b / cumprod(a)) (overflows, "
                        "divides by zero)",
    "swap-cumulative": "jnp/lax cumsum <-> cumprod, cummax <-> cummin",
    "swap-branches": "swaps the two branches of jnp.where, lax.select or lax.cond",
    "where-one-branch": "replaces jnp.where(c, a, b) by one branch (no selection: the guard it gave is gone)",
    "swap-dtype": "jnp.float32 -> bfloat16 (-> float64 where the solution enables x64), bfloat16/float16/float64 -> "
                  "float32",
    "drop-astype": "drops .astype(dtype) (the value keeps its dtype)",
    "drop-dtype": "drops dtype=/preferred_element_type= from a JAX call (its default dtype instead)",
    "in-axes-entry": "one vmap/pmap in_axes entry changed: None -> 0 (maps what was broadcast), N -> None",
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


def derive(entry: Exercise, source: str, course_operators: Sequence[CourseOperator] = ()) -> list[Mutant]:
    """Every mutant the operators make of `source` (one per operator and place), duplicates and
    rewrites that change nothing left out; `course_operators` (grader.course.mutation_course) act
    after the built-in ones.

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
    sites = chain(_sites(tree, names), idiom_sites(tree, names), course_sites(tree, names, list(course_operators)))
    for site in sites:
        mutated = copy.deepcopy(tree)
        helpers = site.apply(mutated, locate(mutated, site.path))
        ast.fix_missing_locations(mutated)
        text = with_helpers(mutated, helpers)
        if text in seen:
            continue
        _must_parse(text, site)
        seen.add(text)
        base = f"{site.operator}@{site.where}"
        taken[base] = taken.get(base, 0) + 1
        name = base if taken[base] == 1 else f"{base}#{taken[base]}"
        found.append(Mutant(entry, name, site.operator, site.line, site.description, text))
    return found


def derive_course(repo: Path, exercises: Sequence[Exercise]) -> list[Mutant]:
    """The mutants of each exercise's reference solution, by the built-in operators and those of the
    course's own `mutations.py` (a UsageProblem when that file is unusable)."""
    own = load_operators(repo, set(OPERATORS))
    return [m for entry in exercises
            for m in derive(entry, (repo / "solutions" / entry.path).read_text(encoding="utf-8"), own)]


def _must_parse(text: str, site: Site) -> None:
    """A rewrite that leaves a module Python cannot read is the operator's fault, not the checks'."""
    try:
        compile(text, site.operator, "exec")
    except SyntaxError as error:
        problem = (f"operator {site.operator} at {site.where} (solution line {site.line}) wrote a module Python "
                   f"cannot read: {error.msg}")
        if site.operator in OPERATORS:
            raise ValueError(problem) from None
        raise UsageProblem(f"{COURSE_FILE}: {problem}") from None


# --- where the operators act -------------------------------------------------------------------


LOOPS = {"jax.lax.scan": "scan", "jax.lax.fori_loop": "fori_loop", "jax.lax.while_loop": "while_loop",
         "jax.lax.map": "map", "jax.lax.associative_scan": "associative_scan"}
SHARDING_APIS = ("jax.sharding", "jax.shard_map", "jax.reshard", "jax.device_put", "jax.make_mesh",
                 "jax.set_mesh", "jax.pmap", "jax.lax.with_sharding_constraint", "jax.lax.psum")
AT_METHODS = {"add": "at-add-to-set", "set": "at-set-to-add", "multiply": "at-to-set", "divide": "at-to-set",
              "power": "at-to-set", "min": "at-to-set", "max": "at-to-set"}


def _sites(tree: ast.Module, names: dict[str, str]) -> Iterator[Site]:
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
            yield Site("drop-jit", path, where, line, f"calls {ast.unparse(target)} without jax.jit",
                        lambda tree, spot: replace_by_argument(spot))
            if isinstance(target, ast.Name) and target.id in functions:
                yield from _static_sites(node, path, where, line, functions[target.id])
        if kind in (JIT, PMAP):
            yield from _keyword_drops(node, path, where, line, kind)
        if kind in LOOPS:
            loop = LOOPS[kind]
            yield Site("python-loop", path, where, line, f"a Python loop instead of lax.{loop}",
                        lambda tree, spot, loop=loop: call_helper(spot, f"_katas_python_{loop}"))
            if loop in ("scan", "fori_loop"):
                yield Site("unroll", path, where, line, f"lax.{loop}(..., unroll=True)",
                            lambda tree, spot: set_keyword(spot.node, "unroll", ast.Constant(True)))
        if kind == "jax.random.split":
            yield Site("reuse-key", path, where, line, "the same key wherever the reference splits it",
                        lambda tree, spot: call_helper(spot, "_katas_same_keys"))
        if kind == "jax.random.fold_in" and node.args:
            yield Site("reuse-key", path, where, line, "the base key wherever the reference folds data in",
                        lambda tree, spot: replace_by_argument(spot))
        if kind in (VMAP, PMAP, "jax.shard_map"):
            yield from _axes_sites(node, path, where, line, kind)
        if kind == VMAP and target is not None:
            yield Site("vmap-to-loop", path, where, line, "a Python loop over the batch instead of jax.vmap",
                        lambda tree, spot: call_helper(spot, "_katas_python_vmap"))
        if kind == PMAP and not is_partial:
            yield Site("pmap-to-vmap", path, where, line, "jax.vmap instead of jax.pmap: all on one device",
                        lambda tree, spot: pmap_to_vmap(spot.node))
        if kind in ("jax.checkpoint", "checkpoint_name") and node.args and not is_partial:
            yield Site("drop-checkpoint", path, where, line, f"drops {kind.rsplit('.', 1)[-1]}",
                        lambda tree, spot: replace_by_argument(spot))
        if kind in ("jax.lax.with_sharding_constraint", "jax.reshard") and node.args:
            yield Site("drop-placement", path, where, line, f"drops {kind.rsplit('.', 1)[-1]}",
                        lambda tree, spot: replace_by_argument(spot))
        if kind == "jax.device_put" and (len(node.args) > 1 or keyword_of(node, "device")):
            yield Site("drop-placement", path, where, line, "drops a device_put: the value stays where it was",
                        lambda tree, spot: replace_by_argument(spot))
        if kind == "jax.debug.print":
            yield Site("python-print", path, where, line, "print instead of jax.debug.print",
                        lambda tree, spot: rename_call(spot.node, "print"))
        if kind == "jax.lax.stop_gradient" and node.args:
            yield Site("drop-stop-gradient", path, where, line, "drops lax.stop_gradient",
                        lambda tree, spot: replace_by_argument(spot))
        yield from _at_sites(node, path, where, line)


def _function_sites(function: ast.FunctionDef, path: tuple, line: int, names: dict[str, str],
                    uses_sharding: bool, top: bool) -> Iterator[Site]:
    name = function.name
    for i, decorator in enumerate(function.decorator_list):
        kind, call = transform_of(decorator, names)
        spot_path = path + (("decorator_list", i),)
        if kind == JIT:
            yield Site("drop-jit", spot_path, name, line, f"{name} without jax.jit",
                        lambda tree, spot: spot.remove())
            yield from _static_sites(decorator, spot_path, name, line, function)
        if kind in (JIT, PMAP) and call is not None:
            yield from _keyword_drops(call, spot_path, name, line, kind)
        if kind == "jax.checkpoint":
            yield Site("drop-checkpoint", spot_path, name, line, f"{name} without jax.checkpoint",
                        lambda tree, spot: spot.remove())
        if kind in ("jax.custom_vjp", "jax.custom_jvp"):
            yield Site("drop-custom-rule", spot_path, name, line, f"{name} without its {kind.rsplit('.', 1)[-1]} rule",
                        lambda tree, spot, name=name: drop_custom_rule(tree, spot, name))
    body = body_start(function)
    uses_jnp = any(to_numpy(n, names) for statement in function.body for n in ast.walk(statement)
                   if isinstance(n, ast.Attribute))
    params = params_of(function)
    jitted = any(transform_of(d, names)[0] in (JIT, PMAP) for d in function.decorator_list)
    if top and uses_jnp:
        yield Site("host-numpy", path, name, line, f"{name} computed with NumPy on the host",
                    lambda tree, spot: host_numpy(spot.node, names, body, params))
    if top and params and not name.startswith("_") and not jitted:  # inside jit every input is a tracer
        if uses_sharding:
            for operator, helper in (("gather-to-host", "_katas_gather_inputs"),
                                     ("replicate-input", "_katas_replicate_inputs")):
                yield Site(operator, path, name, line, OPERATORS[operator],
                            lambda tree, spot, helper=helper: rebind_params(spot.node, body, params, helper))
        param = container_param(function, names)
        if param:
            yield Site("mutate-input", path, name, line, f"{name} writes its result back into {param}",
                        lambda tree, spot: write_back(spot.node, param))


def _static_sites(node: ast.AST, path: tuple, where: str, line: int,
                  function: ast.FunctionDef) -> Iterator[Site]:
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
            yield Site("static-arg", path, f"{where}:{param}", line, f"{param} marked static in jit of {function.name}",
                        lambda tree, spot, param=param: add_static(spot, param))


def _keyword_drops(call: ast.Call, path: tuple, where: str, line: int, kind: str) -> Iterator[Site]:
    for keyword in call.keywords:
        if keyword.arg in ("static_argnames", "static_argnums") and kind == JIT:
            operator = "unstatic-arg"
        elif keyword.arg in ("donate_argnums", "donate_argnames"):
            operator = "drop-donate"
        else:
            continue
        detail = ast.unparse(keyword)
        yield Site(operator, path, where, line, f"drops {detail}",
                    lambda tree, spot, arg=keyword.arg: drop_keyword(spot.node, arg))


def _axes_sites(node: ast.Call, path: tuple, where: str, line: int, kind: str) -> Iterator[Site]:
    fields = [("in_specs", "swap-in-axes"), ("out_specs", "swap-out-axes")] if kind == "jax.shard_map" else \
        [("in_axes", "swap-in-axes"), ("out_axes", "swap-out-axes")]
    for position, (keyword_name, operator) in enumerate(fields):
        keyword = keyword_of(node, keyword_name)
        value = keyword.value if keyword else (node.args[position + 1] if kind == VMAP and len(node.args) > position + 1
                                               else None)
        swapped = _swapped(value) if value is not None else None
        if swapped is None:
            continue
        yield Site(operator, path, where, line, f"{keyword_name}={ast.unparse(swapped)} instead of "
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


def _at_sites(node: ast.Call, path: tuple, where: str, line: int) -> Iterator[Site]:
    func = node.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Subscript)
            and isinstance(func.value.value, ast.Attribute) and func.value.value.attr == "at"):
        return
    method = func.attr
    if method in AT_METHODS:
        new = "add" if method == "set" else "set"
        yield Site(AT_METHODS[method], path, where, line, f".at[].{method} -> .at[].{new}",
                    lambda tree, spot, new=new: setattr(spot.node.func, "attr", new))
    if keyword_of(node, "mode"):
        yield Site("at-drop-mode", path, where, line, f"drops {ast.unparse(keyword_of(node, 'mode'))} from .at[].{method}",
                    lambda tree, spot: drop_keyword(spot.node, "mode"))
