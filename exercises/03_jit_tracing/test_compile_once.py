"""Checks for jit-1 (compile_once)."""

import jax.numpy as jnp
import numpy as np

from grader import checks

EPS = 1e-6


def _expected(x):
    return x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + EPS)


def _rows(seed, shape):
    return np.random.default_rng(seed).normal(size=shape).astype(np.float32)


def test_normalizes_each_row(exercise):
    for shape in [(3, 8), (5,), (2, 3, 4)]:
        x = _rows(0, shape)
        checks.assert_close(exercise.rms_norm(jnp.asarray(x)), _expected(x), rtol=1e-5, atol=1e-5,
                            what=f"rms_norm(x of shape {shape})",
                            hint="Reduce over the last axis only (axis=-1, keepdims=True).")
    # Rows of small magnitude, where EPS is as big as the mean square: a formula that differs from
    # the stated one only there (EPS outside the square root, or left out) shows up here.
    small = _rows(1, (4, 8)) * np.array([[1e-3], [3e-4], [1.0], [0.0]], np.float32)
    checks.assert_close(exercise.rms_norm(jnp.asarray(small)), _expected(small), rtol=1e-4, atol=1e-5,
                        what="rms_norm(x with rows of magnitude 1e-3, 3e-4, 1 and 0)",
                        hint="EPS is added to the mean of the squares, inside the square root: "
                             "x / sqrt(mean(x**2) + EPS). It matters for rows whose mean square is "
                             "near EPS, and keeps a row of zeros finite.")


def test_is_compiled(exercise):
    x = jnp.asarray(_rows(1, (3, 8)))
    # The whole normalisation is in the program: not partly op by op around a smaller jitted piece,
    # not done by NumPy on the host, and the program read computes it.
    checks.assert_jitted(exercise.rms_norm, x, what="rms_norm", entirely=True, expected=_expected(np.asarray(x)),
                         atol=1e-5)


def test_compiles_once_per_shape(exercise):
    same = [jnp.asarray(_rows(seed, (3, 8))) for seed in range(5)]
    other = jnp.asarray(_rows(9, (5, 8)))
    with checks.count_compiles() as first:
        outs = [exercise.rms_norm(x) for x in same]
    checks.assert_compiles(
        first, what="rms_norm()", calls="5 calls with the same shape (3, 8)", expected=1,
        why="jit should trace and compile on the first call and reuse that program for the "
            "other four. jit's cache belongs to the function object it wraps: a jax.jit(...) "
            "created inside rms_norm is a new function, with an empty cache, on every call, so "
            "the jitted function must be created once")
    with checks.count_compiles() as new_shape:
        exercise.rms_norm(other)
    checks.assert_compiles(
        new_shape, what="rms_norm()", calls="a call with a new shape (5, 8)", expected=1,
        why="a new input shape is a new cache key: jit traces and compiles once more")
    with checks.count_compiles() as back:
        exercise.rms_norm(same[0])
    checks.assert_compiles(
        back, what="rms_norm()", calls="a call with the first shape (3, 8) again", expected=0, warm_up=first,
        why="the program for shape (3, 8) is still cached and should be reused")
    checks.assert_one_program(
        exercise.rms_norm, [(x,) for x in same[:3]], what="rms_norm", calls_text="3 inputs of shape (3, 8)",
        expected=[_expected(np.asarray(x)) for x in same[:3]], atol=1e-5)
    for x, out in zip(same, outs):
        checks.assert_close(out, _expected(np.asarray(x)), rtol=1e-5, atol=1e-5, what="rms_norm(x)")
