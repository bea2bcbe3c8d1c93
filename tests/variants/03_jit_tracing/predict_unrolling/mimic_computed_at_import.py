"""Computed, not predicted: a function run at import traces the program and sets the predictions with
`global`."""

import jax
import jax.numpy as jnp

MULS_IN_PYTHON_LOOP = ...
MULS_IN_FORI = 1
BRANCH_PRIMITIVES = {"sin"}
JIT_BRANCH_RAISES = True


def _count():
    global MULS_IN_PYTHON_LOOP

    def python_loop(x):
        for _ in range(3):
            x = x * 2.0
        return x
    MULS_IN_PYTHON_LOOP = [e.primitive.name for e in jax.make_jaxpr(python_loop)(1.0).eqns].count("mul")


_count()
