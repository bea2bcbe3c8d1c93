"""Checks for jit-3 (primitive_names)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

X = np.linspace(-1.0, 1.0, 4, dtype=np.float32)
M = np.arange(12, dtype=np.float32).reshape(4, 3)


def _what_went_wrong(got, expected):
    if not isinstance(got, (list, tuple)):
        return f"Return a list of names (strings), not a {type(got).__name__}."
    if any(not isinstance(g, str) for g in got):
        kinds = sorted({type(g).__name__ for g in got if not isinstance(g, str)})
        return (f"The entries are {', '.join(kinds)} objects, not names: each primitive carries its name "
                f"as a string.")
    if list(got) in (["pjit"], ["jit"]):
        return ("The list holds a single jit equation: what was traced is a jax.jit of f, which the "
                "trace records as one call with f's equations nested inside it. Trace f itself.")
    if sorted(set(got)) == sorted(set(expected)):
        return ("The right primitives, in another order or number: list one name per equation, in "
                "program order, a primitive used twice listed twice.")
    return "List one name per equation of the traced program of f(*args), in program order."


def _check(exercise, f, args, expected, what):
    got = exercise.primitive_names(f, *args)
    if not isinstance(got, (list, tuple)) or list(got) != expected:
        listed = [type(g).__name__ if not isinstance(g, str) else g for g in got] \
            if isinstance(got, (list, tuple)) else got
        checks.fail(f"primitive_names({what}) returned {listed!r}; expected {expected!r}. "
                    f"{_what_went_wrong(got, expected)} See {checks.DOCS}/jaxpr.html", "wrong-values")


def test_names_in_program_order(exercise):
    calls = []

    def sin_times_two(x):
        calls.append("tracer" if isinstance(x, jax.core.Tracer) else type(x).__name__)
        return jnp.sin(x) * 2.0

    with checks.count_compiles() as log:
        _check(exercise, sin_times_two, (X,), ["sin", "mul"], "sin(x) * 2")
    compiled = log.names + log.eager
    if compiled:
        checks.fail(f"primitive_names compiled {len(compiled)} program(s) ({', '.join(sorted(set(compiled)))}) "
                    f"to list f's primitives: f was compiled (and likely run) on the real arrays, while a "
                    f"trace alone (jax.make_jaxpr) records the program without compiling or running "
                    f"anything. See {checks.DOCS}/jaxpr.html", "not-traced")
    concrete = sorted({kind for kind in calls if kind != "tracer"})
    if concrete:
        checks.fail(f"primitive_names ran f on the real arrays ({', '.join(concrete)}), not only on "
                    f"tracers: listing a program's primitives needs just a trace, in which f receives "
                    f"abstract values and nothing is computed. Running f as well executes every "
                    f"operation for nothing. See {checks.DOCS}/jaxpr.html", "not-traced")
    _check(exercise, lambda x, y: jnp.exp(x) - y, (X, X), ["exp", "sub"], "exp(x) - y")
    _check(exercise, lambda x, m: jnp.tanh(x @ m), (X, M), ["dot_general", "tanh"], "tanh(x @ m)")


def test_repeated_primitives_listed_each_time(exercise):
    _check(exercise, lambda x: jnp.cos(jnp.cos(x)), (X,), ["cos", "cos"], "cos(cos(x))")
    _check(exercise, lambda x, y: (x * y) * (x - y) * y, (X, X), ["mul", "sub", "mul", "mul"],
           "(x * y) * (x - y) * y")
