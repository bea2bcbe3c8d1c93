"""Checks for jit-3 (primitive_names)."""

import jax.numpy as jnp
import numpy as np

from grader import checks

X = np.linspace(-1.0, 1.0, 4, dtype=np.float32)
M = np.arange(12, dtype=np.float32).reshape(4, 3)


def _check(exercise, f, args, expected, what):
    got = exercise.primitive_names(f, *args)
    if not isinstance(got, (list, tuple)) or list(got) != expected:
        listed = [type(g).__name__ if not isinstance(g, str) else g for g in got] \
            if isinstance(got, (list, tuple)) else got
        checks.fail(f"primitive_names({what}) returned {listed!r}; expected {expected!r}. Trace with "
                    f"jax.make_jaxpr(f)(*args) (f itself, not a jax.jit of it) and take "
                    f"eqn.primitive.name for each eqn in .eqns, in order, duplicates kept. "
                    f"See {checks.DOCS}/jaxpr.html")


def test_names_in_program_order(exercise):
    _check(exercise, lambda x: jnp.sin(x) * 2.0, (X,), ["sin", "mul"], "sin(x) * 2")
    _check(exercise, lambda x, y: jnp.exp(x) - y, (X, X), ["exp", "sub"], "exp(x) - y")
    _check(exercise, lambda x, m: jnp.tanh(x @ m), (X, M), ["dot_general", "tanh"], "tanh(x @ m)")


def test_repeated_primitives_listed_each_time(exercise):
    _check(exercise, lambda x: jnp.cos(jnp.cos(x)), (X,), ["cos", "cos"], "cos(cos(x))")
    _check(exercise, lambda x, y: (x * y) * (x - y) * y, (X, X), ["mul", "sub", "mul", "mul"],
           "(x * y) * (x - y) * y")
