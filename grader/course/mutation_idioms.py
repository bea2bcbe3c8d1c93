"""Mutation operators on JAX idioms (grader.course.mutation): loops rolled and unrolled, associative
scans and their combines, selections, dtypes, vmap axes.

Each finds the places it can act on in a solution's syntax tree and says how to rewrite one: a
plausible wrong answer whose values are often right (a Python loop unrolled under jit, a closed
form that overflows) or subtly wrong (a combine applied in the other order, bfloat16 for float32).
Pure syntax, like the rest of the mutation modules.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from grader.course.mutation_rewrites import call_helper, drop_keyword, set_axes, set_keyword
from grader.course.mutation_syntax import PMAP, VMAP, Site, Spot, keyword_of, name_of, params_of, transform_of, walk

ASSOCIATIVE_SCAN = "jax.lax.associative_scan"
CUMULATIVE = {"jax.numpy.cumsum": "cumprod", "jax.numpy.cumprod": "cumsum", "jax.lax.cumsum": "cumprod",
              "jax.lax.cumprod": "cumsum", "jax.lax.cummax": "cummin", "jax.lax.cummin": "cummax"}
COMBINE_PARTNERS = {"add": "multiply", "multiply": "add", "maximum": "minimum", "minimum": "maximum"}
BRANCHES = {"jax.numpy.where": 1, "jax.lax.select": 1, "jax.lax.cond": 1}  # the index of the first branch
DTYPES = {"float32": "bfloat16", "bfloat16": "float32", "float16": "float32", "float64": "float32"}
DTYPE_KEYWORDS = ("dtype", "preferred_element_type")
LOOP_EXITS = (ast.Break, ast.Continue, ast.Return, ast.Yield, ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal)


def idiom_sites(tree: ast.Module, names: dict[str, str]) -> Iterator[Site]:
    """Every place in `tree` where an operator of this module can act."""
    x64 = any(isinstance(n, ast.Constant) and n.value == "jax_enable_x64" or isinstance(n, ast.Attribute)
              and n.attr == "enable_x64" for n in ast.walk(tree))
    combines = _combine_operations(tree, names)
    for node, path, where in walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.FunctionDef):
            yield from _loop_sites(node, path, names)
        if isinstance(node, ast.BinOp) and id(node) in combines:
            yield from _operator_sites(node, path, where, line)
        if isinstance(node, ast.Attribute):
            yield from _attribute_sites(node, path, where, line, names, x64)
        if not isinstance(node, ast.Call) or path[-1][0] == "decorator_list":
            continue
        kind, _ = transform_of(node, names)
        head = name_of(node.func, names)
        if head == ASSOCIATIVE_SCAN and node.args:
            yield from _associative_scan_sites(node, path, where, line, names)
        if head in BRANCHES:
            yield from _branch_sites(node, path, where, line, head)
        yield from _dtype_sites(node, path, where, line, head, x64)
        if kind in (VMAP, PMAP):
            yield from _in_axes_sites(node, path, where, line, kind)


# --- associative scans and their combines ----------------------------------------------------


def _combine_of(call: ast.Call, tree: ast.Module) -> ast.AST:
    """The combine function an associative_scan call applies: a lambda, or the def its name is."""
    fn = call.args[0]
    if isinstance(fn, ast.Name):
        return next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == fn.id), fn)
    return fn


def _combine_operations(tree: ast.Module, names: dict[str, str]) -> set[int]:
    """The + and * of every associative_scan's combine (their ids)."""
    found = set()
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and call.args and name_of(call.func, names) == ASSOCIATIVE_SCAN:
            found |= {id(n) for n in ast.walk(_combine_of(call, tree))
                      if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Mult))}
    return found


def _associative_scan_sites(call: ast.Call, path: tuple, where: str, line: int,
                            names: dict[str, str]) -> Iterator[Site]:
    yield Site("swap-combine-order", path, where, line, "associative_scan's combine applied to its operands in the "
               "other order", lambda tree, spot: _swap_operands(spot.node))
    yield Site("closed-form-scan", path, where, line, "the linear recurrence in closed form, cumprod(a) * "
               "cumsum(b / cumprod(a)), instead of lax.associative_scan",
               lambda tree, spot: call_helper(spot, "_katas_closed_form_scan"))
    fn = call.args[0]
    partner = COMBINE_PARTNERS.get(name_of(fn, names).rsplit(".", 1)[-1]) if name_of(fn, names).startswith(
        "jax.numpy.") else None
    if partner and isinstance(fn, ast.Attribute):
        yield Site("swap-combine-op", path, where, line, f"associative_scan combining with {partner} instead of "
                   f"{fn.attr}", lambda tree, spot: setattr(spot.node.args[0], "attr", partner) or set())


def _swap_operands(call: ast.Call) -> set[str]:
    first, second = ast.arg("_katas_first"), ast.arg("_katas_second")
    swapped = ast.Call(call.args[0], [ast.Name("_katas_second", ast.Load()), ast.Name("_katas_first", ast.Load())], [])
    call.args[0] = ast.Lambda(ast.arguments([], [first, second], None, [], [], None, []), swapped)
    return set()


def _operator_sites(node: ast.BinOp, path: tuple, where: str, line: int) -> Iterator[Site]:
    old, new = ("+", "*") if isinstance(node.op, ast.Add) else ("*", "+")
    yield Site("swap-combine-op", path, where, line, f"{new} instead of {old} in associative_scan's combine "
               f"({ast.unparse(node)})", lambda tree, spot: setattr(spot.node, "op", ast.Mult() if old == "+"
                                                                       else ast.Add()) or set())


def _attribute_sites(node: ast.Attribute, path: tuple, where: str, line: int, names: dict[str, str],
                     x64: bool) -> Iterator[Site]:
    qual = name_of(node, names)
    if qual in CUMULATIVE:
        new = CUMULATIVE[qual]
        yield Site("swap-cumulative", path, where, line, f"{new} instead of {node.attr}",
                   lambda tree, spot: setattr(spot.node, "attr", new) or set())
    if qual.startswith("jax.numpy.") and node.attr in DTYPES:
        for new in _dtype_swaps(node.attr, x64):
            yield Site("swap-dtype", path, where, line, f"jnp.{new} instead of jnp.{node.attr}",
                       lambda tree, spot, new=new: setattr(spot.node, "attr", new) or set())


def _dtype_swaps(dtype: str, x64: bool) -> list[str]:
    """Without x64, JAX makes a float64 request float32 (with a warning): swapping the two changes nothing."""
    if dtype == "float64":
        return ["float32"] if x64 else []
    return [DTYPES[dtype]] + (["float64"] if dtype == "float32" and x64 else [])


# --- selections and dtypes -------------------------------------------------------------------


def _branch_sites(call: ast.Call, path: tuple, where: str, line: int, head: str) -> Iterator[Site]:
    first = BRANCHES[head]
    if len(call.args) < first + 2 or call.keywords and head != "jax.lax.cond":
        return
    short = head.replace("jax.numpy.", "jnp.").replace("jax.lax.", "lax.")
    yield Site("swap-branches", path, where, line, f"{short} with its two branches swapped",
               lambda tree, spot: _swap_args(spot.node, first))
    if head != "jax.numpy.where" or len(call.args) != 3:
        return
    for i in (1, 2):
        branch = call.args[i]
        if not isinstance(branch, ast.Constant) and not (isinstance(branch, ast.UnaryOp)
                                                         and isinstance(branch.operand, ast.Constant)):
            yield Site("where-one-branch", path, where, line, f"{ast.unparse(branch)} everywhere instead of "
                       f"{ast.unparse(call)}", lambda tree, spot, i=i: spot.replace(spot.node.args[i]) or set())


def _swap_args(call: ast.Call, first: int) -> set[str]:
    call.args[first], call.args[first + 1] = call.args[first + 1], call.args[first]
    return set()


def _dtype_sites(call: ast.Call, path: tuple, where: str, line: int, head: str, x64: bool) -> Iterator[Site]:
    func = call.func
    method = head != "jax.numpy.astype" and not head.startswith("numpy.")  # x.astype, not jnp.astype
    if method and isinstance(func, ast.Attribute) and func.attr == "astype" and (call.args or keyword_of(call, "dtype")):
        yield Site("drop-astype", path, where, line, f"drops .astype({ast.unparse((call.args or [call.keywords[0]])[0])})",
                   lambda tree, spot: spot.replace(spot.node.func.value) or set())
    if head == "jax.numpy.astype" and call.args:
        yield Site("drop-astype", path, where, line, f"drops jnp.astype: {ast.unparse(call.args[0])} keeps its dtype",
                   lambda tree, spot: spot.replace(spot.node.args[0]) or set())
    if not head.startswith("jax."):
        return
    for keyword in call.keywords:
        if keyword.arg not in DTYPE_KEYWORDS:
            continue
        yield Site("drop-dtype", path, where, line, f"drops {ast.unparse(keyword)} (the default dtype instead)",
                   lambda tree, spot, arg=keyword.arg: drop_keyword(spot.node, arg))
        if isinstance(keyword.value, ast.Constant) and keyword.value.value in DTYPES:
            for new in _dtype_swaps(keyword.value.value, x64):
                yield Site("swap-dtype", path, where, line, f"{keyword.arg}='{new}' instead of '{keyword.value.value}'",
                           lambda tree, spot, arg=keyword.arg, new=new: set_keyword(spot.node, arg, ast.Constant(new)))


# --- vmap axes ------------------------------------------------------------------------------


def _in_axes_sites(call: ast.Call, path: tuple, where: str, line: int, kind: str) -> Iterator[Site]:
    keyword = keyword_of(call, "in_axes")
    value = keyword.value if keyword else (call.args[1] if kind == VMAP and len(call.args) > 1 else None)
    if not isinstance(value, (ast.Tuple, ast.List)):
        return
    for i, entry in enumerate(value.elts):
        if not isinstance(entry, ast.Constant) or entry.value is not None and type(entry.value) is not int:
            continue
        new = ast.Constant(0 if entry.value is None else None)
        changed = copy.deepcopy(value)
        changed.elts[i] = new
        what = "maps an argument it broadcast" if entry.value is None else "broadcasts an argument it mapped"
        yield Site("in-axes-entry", path, f"{where}:{i}", line, f"in_axes={ast.unparse(changed)}: {what}",
                   lambda tree, spot, changed=changed: set_axes(spot.node, "in_axes", 0, changed, kind))


# --- Python loops rolled into lax.fori_loop ------------------------------------------------------


def _loop_sites(function: ast.FunctionDef, path: tuple, names: dict[str, str]) -> Iterator[Site]:
    """Each `for i in range(...)` of the function's own body that carries values from step to step."""
    for node, node_path, where in walk(function, path, function.name):
        if where != function.name or not isinstance(node, ast.For) or node is function:
            continue
        bounds = node.iter.args if isinstance(node.iter, ast.Call) and name_of(node.iter.func, names) == "range" \
            and not node.iter.keywords and len(node.iter.args) in (1, 2) else None
        if bounds is None or node.orelse or not isinstance(node.target, ast.Name) \
                or any(isinstance(n, LOOP_EXITS) for n in ast.walk(node)):
            continue
        carried = sorted(_assigned(node.body) & _bound_before(function, node.lineno))
        if carried:
            yield Site("loop-to-fori", node_path, function.name, node.lineno,
                       f"lax.fori_loop carrying {', '.join(carried)} instead of the Python loop",
                       lambda tree, spot, carried=carried: _to_fori(spot, carried))


def _assigned(statements: list[ast.stmt]) -> set[str]:
    found = set()
    for statement in statements:
        for node in ast.walk(statement):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            found |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return found


def _bound_before(function: ast.FunctionDef, line: int) -> set[str]:
    earlier = [s for s in function.body if s.end_lineno is not None and s.end_lineno < line]
    return set(params_of(function)) | _assigned(earlier)


def _to_fori(spot: Spot, carried: list[str]) -> set[str]:
    loop = spot.node
    bounds = loop.iter.args if len(loop.iter.args) == 2 else [ast.Constant(0), loop.iter.args[0]]

    def names(context) -> ast.Tuple:
        return ast.Tuple([ast.Name(n, context()) for n in carried], context())

    unpack = ast.Assign([names(ast.Store)], ast.Name("_katas_carry", ast.Load()))
    body = ast.parse(f"def _katas_loop_body({loop.target.id}, _katas_carry):\n    pass").body[0]
    body.body = [unpack] + loop.body + [ast.Return(names(ast.Load))]
    fori = ast.Attribute(ast.Attribute(ast.Name("_katas_jax", ast.Load()), "lax", ast.Load()), "fori_loop", ast.Load())
    rolled = ast.Assign([names(ast.Store)], ast.Call(fori, bounds + [ast.Name("_katas_loop_body", ast.Load()),
                                                                     names(ast.Load)], []))
    getattr(spot.parent, spot.field)[spot.index:spot.index + 1] = [body, rolled]
    return {"_katas_imports"}
