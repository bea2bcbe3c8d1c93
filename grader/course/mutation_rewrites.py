"""How a mutant is written (grader.course.mutation): the rewrites of a solution's syntax tree each
operator makes, and the helper functions a mutant then calls, written into its source.

A helper that can only act on what the program does at run time (gather a sharded input, write
into a mutable input) raises an error saying NOT_APPLICABLE_MARK when the input it needs never
comes, so a mutant that changed nothing is never reported as a survivor.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator

from grader.course.mutation_syntax import JIT, VMAP, Spot, keyword_of, name_of, transform_of

NOT_APPLICABLE_MARK = "mutation does not apply here"


# --- the rewrites ------------------------------------------------------------------------------


def replace_by_argument(spot: Spot) -> set[str]:
    spot.replace(spot.node.args[0])
    return set()


def call_helper(spot: Spot, helper: str) -> set[str]:
    spot.node.func = ast.Name(helper, ast.Load())
    return {helper}


def rename_call(call: ast.Call, name: str) -> set[str]:
    call.func = ast.Name(name, ast.Load())
    return set()


def set_keyword(call: ast.Call, name: str, value: ast.AST) -> set[str]:
    call.keywords = [k for k in call.keywords if k.arg != name] + [ast.keyword(name, value)]
    return set()


def drop_keyword(call: ast.Call, name: str) -> set[str]:
    call.keywords = [k for k in call.keywords if k.arg != name]
    return set()


def add_static(spot: Spot, param: str) -> set[str]:
    node = spot.node
    if not isinstance(node, ast.Call):  # a bare @jax.jit: call it with the keyword
        node = ast.Call(node, [], [])
        spot.replace(node)
    existing = keyword_of(node, "static_argnames")
    names = [c.value for c in ast.walk(existing.value) if isinstance(c, ast.Constant)] if existing else []
    set_keyword(node, "static_argnames", ast.Tuple([ast.Constant(n) for n in names + [param]], ast.Load()))
    return set()


def set_axes(call: ast.Call, keyword_name: str, position: int, value: ast.AST, kind: str) -> set[str]:
    if keyword_of(call, keyword_name) or kind != VMAP:
        set_keyword(call, keyword_name, value)
    else:
        call.args[position + 1] = value
    return set()


def pmap_to_vmap(call: ast.Call) -> set[str]:
    call.func = ast.Attribute(ast.Name("_katas_jax", ast.Load()), "vmap", ast.Load())
    call.keywords = [k for k in call.keywords if k.arg in ("in_axes", "out_axes", "axis_name", "axis_size")]
    return {"_katas_imports"}


def drop_custom_rule(tree: ast.Module, spot: Spot, name: str) -> set[str]:
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


def body_start(function: ast.FunctionDef) -> int:
    """Where code goes in at the top of a function: after its docstring."""
    first = function.body[0] if function.body else None
    return 1 if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
        and isinstance(first.value.value, str) else 0


def rebind_params(function: ast.FunctionDef, start: int, params: list[str], helper: str) -> set[str]:
    target = ast.Tuple([ast.Name(p, ast.Store()) for p in params], ast.Store())
    value = ast.Call(ast.Name(helper, ast.Load()), [ast.Name(p, ast.Load()) for p in params], [])
    function.body.insert(start, ast.Assign([target], value))
    return {helper}


UNHASHABLE = re.compile(r"Array|ndarray|\bdict\b|\blist\b|Dict|List|Mapping|PyTree|\bKey")
MUTABLE_HINTS = re.compile(r"(?<![\w.])(dict|list|Dict|List|Mapping|MutableMapping|np\.ndarray|numpy\.ndarray)\b")


def container_param(function: ast.FunctionDef, names: dict[str, str]) -> str | None:
    """The first parameter a learner might write the result into: one annotated as a dict, list or
    NumPy array, or the first one when the function returns a new container built from its input."""
    arguments = function.args.posonlyargs + function.args.args
    for argument in arguments:
        if argument.annotation is not None and MUTABLE_HINTS.search(ast.unparse(argument.annotation)):
            return argument.arg
    returns = [n.value for n in _own_nodes(function) if isinstance(n, ast.Return) and n.value is not None]
    builds = any(isinstance(v, (ast.Dict, ast.DictComp, ast.List, ast.ListComp)) or
                 isinstance(v, ast.Call) and name_of(v.func, names) == "jax.tree.map" for v in returns)
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


def write_back(function: ast.FunctionDef, param: str) -> set[str]:
    _wrap_returns(function, lambda value: ast.Call(ast.Name("_katas_write_back", ast.Load()),
                                                    [ast.Name(param, ast.Load()), value], []))
    return {"_katas_write_back"}


def to_numpy(node: ast.Attribute, names: dict[str, str]) -> bool:
    """Whether `node` is a jax.numpy function NumPy has too (`jnp.sum`, not `jnp.ndarray` types)."""
    import numpy

    qual = name_of(node, names)
    return qual.startswith("jax.numpy.") and qual.count(".") == 2 and hasattr(numpy, node.attr) \
        and node.attr not in ("ndarray", "dtype")


def host_numpy(function: ast.FunctionDef, names: dict[str, str], start: int, params: list[str]) -> set[str]:
    function.decorator_list = [d for d in function.decorator_list if transform_of(d, names)[0] != JIT]

    class ToNumpy(ast.NodeTransformer):
        def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
            if to_numpy(node, names):
                return ast.copy_location(ast.Attribute(ast.Name("_katas_np", ast.Load()), node.attr, ast.Load()), node)
            return self.generic_visit(node)

    function.body = [ToNumpy().visit(statement) for statement in function.body]
    _wrap_returns(function, lambda value: ast.Call(ast.Name("_katas_on_device", ast.Load()), [value], []))
    if params:  # the inputs come to the host first, so NumPy computes (a tracer refuses: jit is gone)
        rebind_params(function, start, params, "_katas_to_host")
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
    "_katas_python_associative_scan": '''\
def _katas_python_associative_scan(fn, elems, reverse=False, axis=0):
    n = _katas_jax.tree.leaves(elems)[0].shape[axis]
    if n == 0:
        raise MutationDoesNotApply("''' + NOT_APPLICABLE_MARK + ''': an associative_scan of length 0")
    pieces, carry = [None] * n, None
    for i in (reversed(range(n)) if reverse else range(n)):
        x = _katas_jax.tree.map(lambda a: _katas_jax.lax.slice_in_dim(a, i, i + 1, axis=axis % a.ndim), elems)
        carry = x if carry is None else fn(carry, x)
        pieces[i] = carry
    return _katas_jax.tree.map(lambda *p: _katas_jnp.concatenate(p, axis=axis), *pieces)
''',
    "_katas_closed_form_scan": '''\
def _katas_is_linear_recurrence(fn, a):
    shape = list(_katas_np.shape(a))
    shape[0] = 1
    probe = [_katas_np.full(shape, v, _katas_np.dtype(a.dtype)) for v in (0.5, 2.0, 3.0, -1.0)]
    with _katas_jax.ensure_compile_time_eval():
        try:
            got = fn((probe[0], probe[1]), (probe[2], probe[3]))
            return len(got) == 2 and _katas_np.allclose(got[0], 1.5) and _katas_np.allclose(got[1], 5.0)
        except Exception:
            return False


def _katas_closed_form_scan(fn, elems, reverse=False, axis=0):
    if not isinstance(elems, (tuple, list)) or len(elems) != 2 or _katas_np.shape(elems[0]) != _katas_np.shape(elems[1]) \\
            or not _katas_np.shape(elems[0]) or axis not in (0, -_katas_np.ndim(elems[0])):
        raise MutationDoesNotApply("''' + NOT_APPLICABLE_MARK + ''': not a pair of sequences (a, b) scanned on axis 0")
    a, b = elems
    if not _katas_is_linear_recurrence(fn, a):
        raise MutationDoesNotApply("''' + NOT_APPLICABLE_MARK + ''': the combine is not h = a * h + b's")
    if reverse:
        a, b = _katas_jnp.flip(a, 0), _katas_jnp.flip(b, 0)
    products = _katas_jnp.cumprod(a, axis=0)
    h = products * _katas_jnp.cumsum(b / products, axis=0)
    if reverse:
        products, h = _katas_jnp.flip(products, 0), _katas_jnp.flip(h, 0)
    return type(elems)((products, h))
''',
    "_katas_usual_imports": '''\
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
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


def with_helpers(tree: ast.Module, helpers: set[str]) -> str:
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
