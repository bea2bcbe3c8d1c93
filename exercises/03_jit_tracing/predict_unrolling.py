"""Predict: what does tracing put in the program?

Tracing runs your Python once, with abstract values, and records only the
JAX operations it meets: the jaxpr. Python itself leaves no trace. A Python
`for` loop runs while tracing, so its body is recorded once per iteration: the
loop is unrolled. `lax.fori_loop` with Python bounds is recorded as one scan
whose body holds one copy of the step. A Python `if` on a Python value is
decided while tracing: only the branch taken is recorded. On a traced value
there is nothing to decide with, and jit raises a TracerBoolConversionError.
Docs: https://docs.jax.dev/en/latest/jit-compilation.html

Task (predict): without running anything, write down how many `mul`
equations `jax.make_jaxpr` shows for python_loop and for fori (loop bodies
included), which primitives jax.make_jaxpr(lambda x: branch(x, True))(1.0)
holds, and whether jax.jit(branch)(1.0, True) raises. The checks trace the
functions and, where you were wrong, show what JAX did and why.
The checks read each prediction as a literal from this file's text; they
never import or run it.
"""

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


# Your predictions: replace each ... with a literal (no tracing first!)
MULS_IN_PYTHON_LOOP = ...  # `mul` equations in jax.make_jaxpr(python_loop)(1.0): a Python int
MULS_IN_FORI = ...  # `mul` equations in jax.make_jaxpr(fori)(1.0), loop body included: a Python int
# a set of the primitives' names as the jaxpr prints them ("exp", not "jnp.exp"), e.g. {"exp"}:
BRANCH_PRIMITIVES = ...  # the primitives in jax.make_jaxpr(lambda x: branch(x, True))(1.0)
JIT_BRANCH_RAISES = ...  # does jax.jit(branch)(1.0, True) raise? True or False
