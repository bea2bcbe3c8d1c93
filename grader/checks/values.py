"""Values, shapes, dtypes, and the purity of the functions that produce them."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import chex
import jax
import numpy as np

from grader.checks.core import DOCS, fail, sentence, short


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
    try:
        chex.assert_trees_all_equal_structs(actual, expected)
    except (AssertionError, ValueError, TypeError):
        fail(sentence(f"{what} returned {_structure(actual)}; expected {_structure(expected)}.", hint),
             "wrong-shape")
    got_leaves = jax.tree_util.tree_flatten_with_path(actual)[0]
    for (path, got), want in zip(got_leaves, jax.tree.leaves(expected)):
        where = f"{what}: {jax.tree_util.keystr(path)}" if path else what
        got_arr, want_arr = np.asarray(got), np.asarray(want)
        if got_arr.shape != want_arr.shape:
            fail(sentence(f"{where} has shape {got_arr.shape}; expected shape {want_arr.shape}.", hint),
                 "wrong-shape")
        if not np.allclose(got_arr, want_arr, rtol=rtol, atol=atol, equal_nan=True):
            verb = "is" if path else "returned"
            fail(sentence(f"{where} {verb} {short(got)}; expected {short(want)}.", hint))


def _structure(tree: Any) -> str:
    leaves = jax.tree.leaves(tree)
    if len(leaves) == 1 and jax.tree.structure(tree).num_nodes == 1:
        return f"an array of shape {np.shape(leaves[0])}" if hasattr(leaves[0], "shape") else repr(tree)
    return f"a {type(tree).__name__} with structure {jax.tree.structure(tree)}"


def assert_shape_dtype(x: Any, shape: tuple[int, ...], dtype: Any, *, what: str, hint: str = "") -> None:
    """`x` is an array of exactly this shape and dtype."""
    __tracebackhide__ = True
    got_shape, got_dtype = getattr(x, "shape", None), getattr(x, "dtype", None)
    if got_shape != tuple(shape) or got_dtype != np.dtype(dtype):
        fail(sentence(f"{what} returned {got_dtype}{list(got_shape) if got_shape is not None else type(x).__name__}; "
                      f"expected {np.dtype(dtype)}{list(shape)}.", hint), "wrong-shape")


def _snapshot(value: Any) -> Any:
    return copy.deepcopy(jax.tree.map(lambda v: np.array(v) if isinstance(v, np.ndarray) else v, value))


def assert_not_mutated(fn: Callable, *args: Any, what: str, **kwargs: Any) -> Any:
    """Call `fn(*args, **kwargs)` and fail if it changed any argument in place.

    Returns what `fn` returned.
    """
    __tracebackhide__ = True
    before = [_snapshot(a) for a in args]
    before_kw = {k: _snapshot(v) for k, v in kwargs.items()}
    result = fn(*args, **kwargs)
    changed = [i for i, (a, b) in enumerate(zip(args, before)) if not _same(a, b)]
    changed += [k for k, v in kwargs.items() if not _same(v, before_kw[k])]
    if changed:
        which = ", ".join(f"argument {c}" if isinstance(c, int) else f"`{c}`" for c in changed)
        fail(f"{what} changed its input in place ({which}). A function JAX transforms must be "
             f"pure: build and return new values instead of changing what the caller passed. "
             f"See {DOCS}/stateful-computations.html", "mutates-input")
    return result


def _same(a: Any, b: Any) -> bool:
    try:
        sa, sb = jax.tree.structure(a), jax.tree.structure(b)
    except Exception:  # noqa: BLE001 - an unflattenable value is compared as a whole
        return a == b
    if sa != sb:
        return False
    return all(np.array_equal(np.asarray(x), np.asarray(y))
               for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b)))


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
