"""Reference solution for jit-12: a Python loop is unrolled, fori_loop is not; a Python if records one branch, and fails on a traced flag."""

import jax
import jax.numpy as jnp
from jax import lax


def python_loop(x):
    for _ in range(3):
        x = x * 2.0
    return x


def fori(x):
    return lax.fori_loop(0, 3, lambda i, v: v * 2.0, x)


def branch(x, use_sine):
    if use_sine:
        return jnp.sin(x)
    return jnp.cos(x)


# Your predictions, worked out:
# The Python loop runs three times while tracing: three muls. fori_loop records one scan with one step in its
# body. The Python `if` on a Python True records only the sine. Under jit, use_sine is traced: `if` raises.
MULS_IN_PYTHON_LOOP = 3
MULS_IN_FORI = 1
BRANCH_PRIMITIVES = {"sin"}
JIT_BRANCH_RAISES = True
