"""Checks for jit-12 (predict_unrolling): traced here, on this file's own copy of the program."""

from collections import Counter

import jax
import jax.numpy as jnp
from jax import lax

from grader import checks

DOCS = f"See {checks.DOCS}/jit-compilation.html"


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


def _primitives(fn):
    """How often each primitive appears in fn's jaxpr at 1.0, loop and branch bodies included."""
    return Counter(checks.program_of(fn, 1.0, what=getattr(fn, "__name__", "the function")).primitives())


def test_loops_in_the_program(predictions):
    with checks.judging(predictions) as judge:
        guesses = {name: judge.guess(name, what=f"the mul equations of {fn}")
                   for name, fn in (("MULS_IN_PYTHON_LOOP", "python_loop"), ("MULS_IN_FORI", "fori"))}
        for name, fn, why in [
            ("MULS_IN_PYTHON_LOOP", python_loop,
             "The Python `for` runs while tracing, and each run of its body records one `mul`: the loop is "
             "unrolled into the program, one copy per iteration."),
            ("MULS_IN_FORI", fori,
             "lax.fori_loop records a loop primitive whose body holds one copy of the step, whatever the trip "
             "count."),
        ]:
            guess = guesses[name]
            counted = _primitives(fn)
            loops = ", ".join(sorted(p for p in counted if p in ("scan", "while"))) or "no loop primitive"
            judge.compare(guess, counted["mul"], name=name, form=checks.forms.COUNT,
                          what=f"the `mul` equations in jax.make_jaxpr({fn.__name__})(1.0)",
                          why=f"{why} (The jaxpr holds {loops}.) {DOCS}")


def test_branches_in_the_program(predictions):
    with checks.judging(predictions) as judge:
        guess = judge.guess("BRANCH_PRIMITIVES", what="the primitives of branch(x, True)")
        raises = judge.guess("JIT_BRANCH_RAISES", what="whether jax.jit(branch)(1.0, True) raises")
        recorded = set(_primitives(lambda x: branch(x, True)))
        judge.compare(guess, recorded, name="BRANCH_PRIMITIVES", form=checks.forms.PRIMITIVES,
                      what="the primitives in jax.make_jaxpr(lambda x: branch(x, True))(1.0)",
                      why=f"use_sine is a Python True here, not traced: the `if` is decided while tracing and only "
                          f"the branch taken is recorded; the other is never seen. {DOCS}")
        try:
            jax.jit(branch)(1.0, True)
            error = None
        except jax.errors.TracerBoolConversionError as caught:
            error = caught
        judge.compare(raises, error is not None, name="JIT_BRANCH_RAISES", form=checks.forms.FLAG,
                      what="whether jax.jit(branch)(1.0, True) raises",
                      why=f"Under jax.jit every argument is traced, the flag too (it raised "
                          f"{type(error).__name__}): a Python `if` on a traced value has nothing to decide with. A "
                          f"flag that picks the program belongs in static_argnames. {DOCS}"
                      if error is not None else f"It ran. {DOCS}")
