"""Values, shapes, dtypes, the purity of the functions that produce them, and whether they follow
the function the task names (`swap_function`, `assert_follows`)."""

from __future__ import annotations

import contextlib
import copy
import sys
import types
from collections.abc import Callable, Iterator
from typing import Any

import chex
import jax
import jax.numpy as jnp
import numpy as np

from grader.checks import site
from grader.checks.core import DOCS, fail, sentence, short
from grader.checks.witnessed import every_setting
from grader.runtime.loading import SWAPPED_FUNCTION


def assert_close(actual: Any, expected: Any, *, what: str, rtol: float = 1e-5,
                 atol: float = 1e-6, hint: str = "") -> None:
    """`actual` equals `expected` (a pytree) to a tolerance.

    Args:
      what: the call that produced `actual`, e.g. "running_sum(x)".
      hint: the likely cause when they differ, in JAX terms.
    Raises:
      KataFailure (wrong-values or wrong-shape) naming the call, both values and the hint.
    """
    __tracebackhide__ = True
    refuse_unreadable(actual, what=what)
    if not _holds(chex.assert_trees_all_equal_structs, actual, expected):
        fail(sentence(f"{what} returned {_structure(actual)}; expected {_structure(expected)}.", hint),
             "wrong-shape")
    got_leaves = jax.tree_util.tree_flatten_with_path(actual)[0]
    for (path, got), want in zip(got_leaves, jax.tree.leaves(expected)):
        where = f"{what}: {jax.tree_util.keystr(path)}" if path else what
        got_arr, want_arr = np.asarray(got), np.asarray(want)
        if not _holds(chex.assert_shape, got_arr, want_arr.shape):
            fail(sentence(f"{where} has shape {got_arr.shape}; expected shape {want_arr.shape}.", hint),
                 "wrong-shape")
        # chex compares as np.testing does: NaN equals NaN, |got - want| <= atol + rtol * |want|.
        if not _holds(chex.assert_trees_all_close, got_arr, want_arr, rtol=rtol, atol=atol):
            verb = "is" if path else "returned"
            fail(sentence(f"{where} {verb} {short(got)}; expected {short(want)}.", hint))


def refuse_unreadable(actual: Any, *, what: str) -> None:
    """No leaf of `actual` is a tracer, or an object the exercise's process kept instead of a value.

    A tracer is a value that escaped the JAX transformation it was computed in: comparing one would
    fail inside NumPy with "a traced value was handed to NumPy", a false cause when the answer never
    called NumPy (its value was saved on the side while tracing). An object of the answer's own that
    only acts like an array (its values computed when they are read) would do its work after the
    checks that watch the call (its compiles, its host reads) have looked.
    """
    __tracebackhide__ = True
    here = site.current()
    for path, leaf in jax.tree_util.tree_flatten_with_path(actual)[0]:
        if here is not None and here.held_there(leaf):
            where = f"{what}: {jax.tree_util.keystr(path)}" if path else what
            fail(f"{where} is an object of the exercise's own ({leaf.__name__}), not an array: return "
                 f"arrays (or a pytree of them: tuples, lists, dicts, registered classes) whose values "
                 f"are computed when the function runs.", "not-pytree")
        if isinstance(leaf, jax.core.Tracer):
            where = f"{what}: {jax.tree_util.keystr(path)}" if path else what
            fail(f"{where} is a tracer, not an array: a value computed inside a JAX transformation "
                 f"(jax.grad, jax.jit, jax.vmap...) was kept on the side (in a dict, a list, a global) "
                 f"and handed back after the trace ended. Return it from the transformed function "
                 f"instead (extra outputs of a differentiated function: has_aux=True). "
                 f"See {DOCS}/errors.html#jax.errors.UnexpectedTracerError", "leaked-tracer")


def _holds(assertion: Callable[..., None], *args: Any, **kwargs: Any) -> bool:
    """Whether a chex assertion holds. Its own message is written for a library's user; the checks
    say what went wrong in the learner's terms instead, so only the verdict is kept."""
    try:
        assertion(*args, **kwargs)
    except AssertionError:
        return False
    return True


def _structure(tree: Any) -> str:
    leaves = jax.tree.leaves(tree)
    if len(leaves) == 1 and jax.tree.structure(tree).num_nodes == 1:
        return f"an array of shape {np.shape(leaves[0])}" if hasattr(leaves[0], "shape") else repr(tree)
    return f"a {type(tree).__name__} with structure {jax.tree.structure(tree)}"


def assert_shape_dtype(x: Any, shape: tuple[int, ...], dtype: Any, *, what: str, hint: str = "") -> None:
    """`x` is an array of exactly this shape and dtype."""
    __tracebackhide__ = True
    refuse_unreadable(x, what=what)
    got_shape, got_dtype = getattr(x, "shape", None), getattr(x, "dtype", None)
    if got_shape is None or got_dtype is None or not _holds(chex.assert_shape, x, tuple(shape)) \
            or not _holds(chex.assert_type, x, np.dtype(dtype)):
        got = f"{got_dtype}{list(got_shape)}" if got_shape is not None else f"a {type(x).__name__}"
        fail(sentence(f"{what} returned {got}; "
                      f"expected {np.dtype(dtype)}{list(shape)}.", hint), "wrong-shape")


def _snapshot(value: Any) -> Any:
    return copy.deepcopy(jax.tree.map(lambda v: np.array(v) if isinstance(v, np.ndarray) else v, value))


def assert_not_mutated(fn: Callable, *args: Any, what: str, **kwargs: Any) -> Any:
    """Call `fn(*args, **kwargs)` and fail if it changed any argument in place.

    The arguments are kept (`keep_untouched`): a later call in the same check, or the end of the
    check, that finds one changed fails too (a function that keeps a reference to what it was handed
    and writes into it afterwards). Returns what `fn` returned.
    """
    __tracebackhide__ = True
    before = [_snapshot(a) for a in args]
    before_kw = {k: _snapshot(v) for k, v in kwargs.items()}
    result = fn(*args, **kwargs)
    changed = [i for i, (a, b) in enumerate(zip(args, before)) if not _same(a, b)]
    changed += [k for k, v in kwargs.items() if not _same(v, before_kw[k])]
    if changed:
        fail(f"{what} changed its input in place ({_which(changed)}). A function JAX transforms must be "
             f"pure: build and return new values instead of changing what the caller passed. "
             f"See {DOCS}/stateful-computations.html", "mutates-input")
    assert_kept_untouched(after=f"after a later call ({what})")
    _KEPT.append(_Kept(what, [*args, *kwargs.values()], [*before, *before_kw.values()],
                       [*range(len(args)), *kwargs], checked=True))
    return result


class _Kept:
    """Inputs a call must leave as they were, with their snapshots (what the call was handed)."""

    def __init__(self, what: str, values: list, snapshots: list, names: list, checked: bool = False) -> None:
        self.what, self.values, self.snapshots, self.names = what, values, snapshots, names
        self.checked = checked  # compared already when its call returned


_KEPT: list[_Kept] = []  # this check's, in order


def keep_untouched(*values: Any, what: str) -> None:
    """Snapshot `values` (the caller's inputs to `what`, which must never change them) now; each later
    `assert_not_mutated` and the end of the check compare them with it (`assert_kept_untouched`)."""
    _KEPT.append(_Kept(what, list(values), [_snapshot(v) for v in values], list(range(len(values)))))


def assert_kept_untouched(*, after: str = "at the end of the check") -> None:
    """Every input kept in this check (`assert_not_mutated`, `keep_untouched`) still equals its snapshot.

    One that changed after its own call returned was written into later: the function kept a reference
    to the caller's data and changed it during a later call (or from a thread). The plugin runs this
    once more after each check's own code.
    """
    __tracebackhide__ = True
    for kept in list(_KEPT):
        changed = [name for name, value, snapshot in zip(kept.names, kept.values, kept.snapshots)
                   if not _same(value, snapshot)]
        if changed:
            _KEPT.remove(kept)  # said once
            what = (f"{kept.what} left its input as it was when it returned, but {after} it had changed"
                    if kept.checked else f"the input handed to {kept.what} had changed {after}")
            fail(f"{what} ({_which(changed)}): the function kept a reference to what the caller passed and "
                 f"wrote into it afterwards, or during a later call (the caller's data changed under its feet). "
                 f"A function JAX transforms must be pure: build and return new values, and keep nothing of "
                 f"the caller's to change later. See {DOCS}/stateful-computations.html", "mutates-input")


def forget_kept() -> None:
    """A new check starts: nothing is kept."""
    _KEPT.clear()


def _which(changed: list) -> str:
    return ", ".join(f"argument {c}" if isinstance(c, int) else f"`{c}`" for c in changed)


def _same(a: Any, b: Any) -> bool:
    try:
        sa, sb = jax.tree.structure(a), jax.tree.structure(b)
    except Exception:  # noqa: BLE001 - an unflattenable value is compared as a whole
        return a == b
    if sa != sb:
        return False
    return all(_kind(x) == _kind(y) and np.array_equal(np.asarray(x), np.asarray(y))
               for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b)))


def _kind(leaf: Any) -> tuple:
    """What a leaf is besides its values: a caller's float32 entry swapped for float64 numbers (or a
    NumPy array for a jax.Array) holds equal values, but it changed what the caller passed."""
    kind = "jax" if isinstance(leaf, jax.Array) else "numpy" if isinstance(leaf, (np.ndarray, np.generic)) \
        else type(leaf)
    return kind, str(getattr(leaf, "dtype", "")), bool(getattr(leaf, "weak_type", False))


def assert_sees_global_change(call: Callable[[], Any], set_global: Callable[[Any], None],
                              values: list[Any], expected: Callable[[Any], Any], *, what: str,
                              hint: str = "") -> None:
    """After each `set_global(v)`, `call()` returns `expected(v)`, not a stale value.

    A jitted function that reads a global bakes in the value it saw when it was
    traced; later changes are silently ignored until something retraces it.
    """
    __tracebackhide__ = True
    for value in values:
        set_global(value)
        got, want = call(), expected(value)
        if not np.allclose(np.asarray(got), np.asarray(want), rtol=1e-5, atol=1e-6):
            fail(sentence(f"after the global was changed to {value!r}, {what} returned {short(got)}; "
                          f"expected {short(want)}. jit traced the function once and baked in the "
                          f"global's old value: the compiled program never looks at the global again. "
                          f"Values that change must reach the jitted code as arguments.",
                          hint, f"See {DOCS}/stateful-computations.html"), "stale-global")


# --- global JAX settings -------------------------------------------------------------------------


def change_setting(name: str, value: Any) -> None:
    """Set a JAX setting globally (`jax.config.update`), here and where the exercise's code runs."""
    jax.config.update(name, value)
    where = site.current()
    if where is not None:  # there, whatever an answer left it at
        where.change_setting(name, value)


def assert_leaves_setting(call: Callable[[], Any], name: str, *, what: str, why: str = "") -> None:
    """`call()` leaves the boolean JAX setting `name` as it found it, from both starting values.

    An answer that switches a setting on and then "restores" it to False passes
    a check that only ever starts from False, and turns the setting off for a
    caller who had it on. The setting is set globally (`jax.config.update`)
    before each run and put back to its first value afterwards.
    """
    __tracebackhide__ = True
    before = read_setting(name)
    try:
        for start in (False, True):
            change_setting(name, start)
            found = every_setting()[name]  # with a value held by this thread beside the global one
            call()
            after = every_setting()[name]
            if after != found:
                fail(sentence(f"{what}, called with {name} {'on' if start else 'off'}, left it reading "
                              f"{after} (it read {found}). The setting is global, and a value left on the "
                              f"calling thread counts too: every later call in the caller's program would "
                              f"run with a value the caller never chose. Change it for your own block only, "
                              f"with a setting that restores the caller's value on the way out, whatever "
                              f"it was.", why), "global-setting")
    finally:
        change_setting(name, before)


# --- the answer uses the function the task names ---------------------------------------------

@contextlib.contextmanager
def swap_function(module: Any, name: str, replacement: Callable) -> Iterator[Any]:
    """Inside the block, the learner's function `name` behaves as `replacement`, however it is reached.

    A task that says "map `predict` with jax.vmap" or "the gradient of `loss` by
    jax.grad" is only met if the answer calls that function: a hand-written copy
    of its formula gives the same numbers. Swap the function for another one,
    call the answer, and check it follows (`assert_follows`).

    The function object stays where it is, the very same object: its code is
    pointed at the replacement for the block (a trampoline with the original's
    name, signature, file, line and closure layout), then put back. So `is`,
    `==`, `id()`, its defaults and every attribute read but `__code__` see
    nothing change (an answer cannot tell a swap from a real call by asking
    whether the name still holds the function defined at import), and a
    reference bound at import (`batched = jax.vmap(predict)`, a jitted
    wrapper's `__wrapped__`) follows as well. Under the grader, reading the
    swapped function's `__code__` from the submission during the block is
    refused by the subject's audit hook. A callable that is not a Python
    function (a `functools.partial`, an object with `__call__`) has no code to
    point elsewhere: the module attribute is replaced instead, which an
    answer can notice. Call the answer with shapes it has not seen in the
    block's process, so no jit cache hands back a program traced with the
    original (and the programs traced in the block stay cached for its shapes).

    Args:
      module: the `exercise` fixture (or a module).
      name: the function's name in the module.
      replacement: any callable taking the same arguments (positional
        parameters the caller left out arrive with the original's defaults).
    Yields:
      A callable that still runs the original function (for a replacement that
      wraps it, e.g. to count calls).
    """
    where = site.current()
    if where is not None:  # the exercise runs in the subject: the swap happens there
        with where.swap(module, name, replacement) as still_original:
            yield still_original
        return
    original = getattr(module, name)
    target = original
    while not isinstance(target, types.FunctionType) and hasattr(target, "__wrapped__"):
        target = target.__wrapped__
    if not isinstance(target, types.FunctionType):  # nothing with code to point elsewhere
        setattr(module, name, replacement)
        try:
            yield original
        finally:
            setattr(module, name, original)
        return
    saved_code = target.__code__
    still_original = types.FunctionType(saved_code, target.__globals__, target.__name__,
                                        target.__defaults__, target.__closure__)
    still_original.__kwdefaults__ = target.__kwdefaults__
    target.__code__ = trampoline(saved_code, replacement)
    sys.audit(SWAPPED_FUNCTION, target, True)
    try:
        yield still_original
    finally:
        target.__code__ = saved_code
        sys.audit(SWAPPED_FUNCTION, target, False)


def both_ways(function: Callable, *args: Any, static_argnums: Any = ()) -> dict[str, Any]:
    """`function(*args)` under jax.jit and called directly on the values: {how: result}.

    Inside `swap_function`, call the answer both ways and check each result with
    `assert_follows`: an answer can tell a tracer from an array, and transform
    the swapped function only when it is traced (computing by hand when called
    on arrays) or only when it is not. Under jax.jit first, on shapes new to
    the block, so the direct call never reuses a program traced before the swap.
    """
    return {"under jax.jit": jax.jit(function, static_argnums=static_argnums)(*args),
            "called directly": function(*args)}


def straight_through_round(x: Any) -> Any:
    """`jnp.round(x)`, whose derivative JAX is told (`jax.custom_jvp`) is 1 instead of round's 0.

    Build a swapped function with it (`swap_function`) where a task says "the derivative JAX takes
    of f": JAX's autodiff (grad, jvp, jacfwd, value_and_grad) follows the rule, while a derivative
    taken any other way (written by hand, by finite differences, by reading f's equations) sees
    round's 0. The rule is made inside the call, so a swap carries it whole.
    """
    @jax.custom_jvp
    def rounded(v: Any) -> Any:
        return jnp.round(v)

    rounded.defjvp(lambda primals, tangents: (jnp.round(primals[0]), tangents[0]))
    return rounded(x)


_CO_VARARGS, _CO_VARKEYWORDS = 0x04, 0x08  # inspect.CO_VARARGS, inspect.CO_VARKEYWORDS
_SLOT = "kata swap: the replacement"  # a constant of the trampoline's source, then the replacement itself


def trampoline(code: types.CodeType, replacement: Callable) -> types.CodeType:
    """Code that calls `replacement` with the arguments it gets, laid out as `code` is: the same
    parameters (so the function's own defaults still fit), the same free variables (so its closure
    still fits), named as `code` and placed at its file and line. The replacement is one of its
    constants: nothing in the module's namespace shows the swap."""
    names = code.co_varnames
    n_pos, n_posonly, n_kwonly = code.co_argcount, code.co_posonlyargcount, code.co_kwonlyargcount
    positional, keyword_only = names[:n_pos], names[n_pos:n_pos + n_kwonly]
    rest = list(names[n_pos + n_kwonly:])
    var_args = rest.pop(0) if code.co_flags & _CO_VARARGS else None
    var_kwargs = rest.pop(0) if code.co_flags & _CO_VARKEYWORDS else None
    every = [*positional, *keyword_only, *filter(None, (var_args, var_kwargs)), *code.co_freevars]
    if not all(n.isidentifier() for n in every):  # a comprehension's `.0`: any arguments will do
        positional, keyword_only, n_posonly, var_args, var_kwargs = (), (), 0, "args", "kwargs"
    params = list(positional)
    if n_posonly:
        params.insert(n_posonly, "/")
    if var_args or keyword_only:
        params.append(f"*{var_args or ''}")
    params += keyword_only
    params += [f"**{var_kwargs}"] if var_kwargs else []
    forward = [*positional, *([f"*{var_args}"] if var_args else []), *(f"{k}={k}" for k in keyword_only),
               *([f"**{var_kwargs}"] if var_kwargs else [])]
    touch = "".join(f"{free}; " for free in code.co_freevars)  # free here too: the closure still fits
    source = (f"def _kata_factory():\n"
              + (f"    {' = '.join(code.co_freevars)} = None\n" if code.co_freevars else "")
              + f"    def _kata_trampoline({', '.join(params)}): "
                f"{touch}return ({_SLOT!r} if True else None)({', '.join(forward)})\n"
              + "    return _kata_trampoline\n")
    # (The constant is called through a conditional folded away: calling a bare string would warn.)
    factory = compile(source, code.co_filename, "exec").co_consts[0]
    inner = next(c for c in factory.co_consts if isinstance(c, types.CodeType))
    consts = tuple(replacement if type(c) is str and c == _SLOT else c for c in inner.co_consts)
    return inner.replace(co_consts=consts, co_name=code.co_name, co_qualname=code.co_qualname,
                         co_firstlineno=code.co_firstlineno)


def assert_follows(actual: Any, expected: Any, *, what: str, swapped: str, rtol: float = 1e-5,
                   atol: float = 1e-6, hint: str = "", shape_hint: str = "") -> None:
    """After `swap_function(..., swapped, other)`, the answer returned what `other` implies.

    A wrong structure or shape fails as `wrong-shape` (with `shape_hint`); values
    that do not follow fail as `wrong-tool` (with `hint`): the answer recomputes
    the function's formula itself instead of transforming the function the task
    names. Check the answer's values first, so a wrong answer is told about its
    values rather than about the tool.
    """
    __tracebackhide__ = True
    swap = f"with `{swapped}` swapped for another function"
    refuse_unreadable(actual, what=what)
    if not _holds(chex.assert_trees_all_equal_structs, actual, expected):
        fail(sentence(f"{swap}, {what} returned {_structure(actual)}; expected {_structure(expected)}.",
                      shape_hint), "wrong-shape")
    got_leaves = jax.tree_util.tree_flatten_with_path(actual)[0]
    for (path, got), want in zip(got_leaves, jax.tree.leaves(expected)):
        where = f"{what}: {jax.tree_util.keystr(path)}" if path else what
        if not _holds(chex.assert_shape, np.asarray(got), np.shape(want)):
            fail(sentence(f"{swap}, {where} has shape {np.shape(got)}; expected shape {np.shape(want)}.",
                          shape_hint), "wrong-shape")
        if not _holds(chex.assert_trees_all_close, np.asarray(got), np.asarray(want), rtol=rtol, atol=atol):
            fail(sentence(f"{where} does not follow `{swapped}`: {swap} it is {short(got)}; that "
                          f"function gives {short(want)}. The answer computes its own copy of the "
                          f"formula instead of transforming `{swapped}` itself.", hint), "wrong-tool")


# --- what only the exercise's own process can see -----------------------------------------------------


def read_setting(name: str) -> Any:
    """The current value of a JAX setting (`jax.config.<name>`) where the exercise's code runs.

    To judge whether an answer left a global setting as it found it, read the
    setting here after the call: under the grader the exercise runs in another
    process, whose settings are its own.
    """
    where = site.current()
    return where.setting(name) if where is not None else getattr(jax.config, name)


def observe(probe: Callable[..., Any], exercise: Any, *args: Any, **kwargs: Any) -> Any:
    """`probe(exercise, *args, **kwargs)`, run where the exercise's code runs; what it returns.

    For a check that must watch the exercise from close by (hand it a fake
    clock, record which functions it calls and when): the probe is a
    module-level function of the check file that calls the exercise and
    returns what it saw, as data (numbers, strings, arrays, lists, dicts). It
    decides nothing: the check judges what comes back. Under the grader the
    probe is shipped to the exercise's process, so it must not rely on the
    check process's state.
    """
    where = site.current()
    if where is None:
        return probe(exercise, *args, **kwargs)
    return where.observe(probe, exercise, *args, **kwargs)
