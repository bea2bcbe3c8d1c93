"""Checks for static-4 (hashable_static)."""

import jax.numpy as jnp
import numpy as np

from grader import checks

X = np.array([0.5, -1.0, 2.0, 3.0], dtype=np.float32)
COEFFS = [2.0, -1.0, 0.5]


def test_evaluates_polynomial_from_a_list(exercise):
    x = jnp.asarray(X)
    for coeffs in (COEFFS, [1.0, 0.0, -3.0, 4.0], [7.0]):
        checks.assert_close(exercise.polynomial(x, list(coeffs)), np.polyval(coeffs, X),
                            what=f"polynomial(x, {coeffs})", rtol=1e-5, atol=1e-5)


def test_is_compiled_with_jit(exercise):
    x = jnp.asarray(X)
    checks.assert_jitted(lambda v: exercise.polynomial(v, list(COEFFS)), x,
                         what=f"polynomial(x, {COEFFS})")


def test_equal_coefficients_reuse_the_program(exercise):
    x = jnp.asarray(X)
    exercise.polynomial(x, list(COEFFS))  # the first call may compile
    with checks.count_compiles() as log:
        for _ in range(3):
            exercise.polynomial(x, list(COEFFS))  # a new list object, equal contents
    checks.assert_compiles(
        log, what="polynomial()", calls="3 more calls with equal coefficients in new lists",
        expected=0,
        why="jit finds a static argument's program by hash and equality, so an object that "
            "hashes by identity (a custom class without __eq__/__hash__, id(), a fresh wrapper) "
            "misses the cache on every call. Convert the list to a tuple, which compares by "
            "value, or pass the coefficients as traced data instead of static")
