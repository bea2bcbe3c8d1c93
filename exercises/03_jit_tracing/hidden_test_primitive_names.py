"""Hidden checks for jit-3 (primitive_names): other functions, other argument shapes."""

import jax.numpy as jnp
import numpy as np

from grader import checks

X = np.linspace(0.5, 2.0, 6, dtype=np.float32).reshape(2, 3)
M = np.arange(12, dtype=np.float32).reshape(3, 4)


def _sin_times_x_three_times(x):
    for _ in range(3):  # a Python loop is unrolled by the trace
        x = jnp.sin(x) * x
    return x


def test_names_of_unseen_functions(exercise):
    cases = [
        (lambda x: jnp.log(x * x + 1.0), (X,), ["mul", "add", "log"], "log(x * x + 1)"),
        (_sin_times_x_three_times, (X,), ["sin", "mul"] * 3, "x = sin(x) * x, three times"),
        (lambda x, m: jnp.exp(x @ m) - 1.0, (X, M), ["dot_general", "exp", "sub"], "exp(x @ m) - 1"),
        (lambda a, b, c: jnp.maximum(a, b) / c, (X, X, X), ["max", "div"], "maximum(a, b) / c"),
    ]
    for f, args, expected, what in cases:
        got = exercise.primitive_names(f, *args)
        if not isinstance(got, (list, tuple)) or list(got) != expected:
            checks.fail(f"primitive_names({what}) returned {got!r}; expected {expected!r}. The names "
                        f"must come from tracing whatever f it is given, one per equation, in program "
                        f"order. See {checks.DOCS}/jaxpr.html", "wrong-values")
