"""Checks for static-4 (hashable_static)."""

import re

import jax.numpy as jnp
import numpy as np

from grader import checks

X = np.array([0.5, -1.0, 2.0, 3.0], dtype=np.float32)
COEFFS = [2.0, -1.0, 0.5]


def _call(exercise, x, coeffs):
    """polynomial(x, coeffs), with an unhashable static argument explained rather than thrown."""
    try:
        return exercise.polynomial(x, coeffs)
    except ValueError as error:
        if "Non-hashable static arguments" not in str(error):
            raise
        found = re.search(r"<class '([\w.]+)'>", str(error))
        kind = "an array" if found and found.group(1).endswith(("ArrayImpl", "ndarray")) else \
            f"a {found.group(1)}" if found else "something unhashable"
        checks.fail(f"polynomial(x, {coeffs}) fails: jit was handed {kind} as a static argument, and "
                    f"static arguments must be hashable (jit looks each one up in its cache of compiled "
                    f"programs before the function body runs, so converting inside the jitted function "
                    f"comes too late). Either the coefficients reach jit in a form that hashes by value, "
                    f"or they are not static at all. See {checks.DOCS}/_autosummary/jax.jit.html",
                    "static-argument")


def test_evaluates_polynomial_from_a_list(exercise):
    x = jnp.asarray(X)
    # Equal lengths with other values too: a static argument that hashes and compares by less than
    # its values would hand them the program compiled for the first.
    for coeffs in (COEFFS, [1.0, 0.0, -3.0, 4.0], [7.0], [-1.5, 3.0, 0.25], [1.0, 2.0, 3.0, -4.0], [-2.0]):
        checks.assert_close(_call(exercise, x, list(coeffs)), np.polyval(coeffs, X),
                            what=f"polynomial(x, {coeffs})", rtol=1e-5, atol=1e-5,
                            hint="jit hands a static argument the program compiled for an equal one: two "
                                 "coefficient lists may share a program only when every coefficient is "
                                 "equal, so their hash and equality must follow all the values.")


def test_is_compiled_with_jit(exercise):
    x = jnp.asarray(X)
    _call(exercise, x, list(COEFFS))
    checks.assert_jitted(lambda v: exercise.polynomial(v, list(COEFFS)), x,
                         what=f"polynomial(x, {COEFFS})", entirely=True, expected=np.polyval(COEFFS, X),
                         rtol=1e-5, atol=1e-5)


def test_equal_coefficients_reuse_the_program(exercise):
    x = jnp.asarray(X)
    with checks.count_compiles() as first:
        _call(exercise, x, list(COEFFS))  # the first call compiles
    with checks.count_compiles() as log:
        for _ in range(3):
            _call(exercise, x, list(COEFFS))  # a new list object, equal contents
    checks.assert_compiles(
        log, what="polynomial()", calls="3 more calls with equal coefficients in new lists",
        expected=0, warm_up=first,
        why="jit finds a static argument's program by hash and equality, so an object that "
            "hashes by identity (a custom class without __eq__/__hash__, id(), a fresh wrapper) "
            "misses the cache on every call. Equal coefficients must give an equal, equally hashed "
            "static argument, or be passed as traced data instead of static")
