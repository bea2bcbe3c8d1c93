"""Checks for vmap-8 (predict_batched_program): traced here, on this file's own copy of the program."""

import jax
import jax.numpy as jnp
from jax import lax

from grader import checks

DOCS = f"See {checks.DOCS}/automatic-vectorization.html"

RUNS = []  # one entry per run of step's Python body


def step(x, w):
    RUNS.append(1)
    return lax.cond(x.sum() > 0, lambda v: jnp.sin(v @ w), lambda v: jnp.cos(v @ w), x)


def step_shared(x, w, use_sine):
    return lax.cond(use_sine, lambda v: jnp.sin(v @ w), lambda v: jnp.cos(v @ w), x)


xs = jax.ShapeDtypeStruct((100, 3), jnp.float32)  # 100 examples (shapes only: tracing computes nothing)
w = jax.ShapeDtypeStruct((3, 4), jnp.float32)
use_sine = jax.ShapeDtypeStruct((), jnp.bool_)

PER_EXAMPLE = lambda: jax.make_jaxpr(jax.vmap(step, in_axes=(0, None)))(xs, w)
SHARED = lambda: jax.make_jaxpr(jax.vmap(step_shared, in_axes=(0, None, None)))(xs, w, use_sine)


def _chooser_in(jaxpr):
    """The top-level primitive that picks between the branches' results."""
    top = [eqn.primitive.name for eqn in jaxpr.jaxpr.eqns]
    return "cond" if "cond" in top else "select_n" if "select_n" in top else "neither"


def test_vmap_traces_once(predictions):
    with checks.judging(predictions) as judge:
        guess = judge.guess("PYTHON_RUNS", what="how many times step's body runs under vmap")
        before = len(RUNS)
        PER_EXAMPLE()
        judge.compare(guess, len(RUNS) - before, name="PYTHON_RUNS", form=checks.forms.COUNT,
                      what="the runs of step's Python body while the vmapped step over 100 examples is traced",
                      why=f"vmap does not loop: it traces the function once, with abstract values that carry the "
                          f"batch axis, and rewrites each operation into its batched form. {DOCS}")


def test_what_chooses_the_branch(predictions):
    with checks.judging(predictions) as judge:
        guesses = {name: judge.guess(name, what="the primitive that picks sine or cosine")
                   for name in ("CHOOSER_PER_EXAMPLE", "CHOOSER_SHARED")}
        for name, make, program, why in [
            ("CHOOSER_PER_EXAMPLE", PER_EXAMPLE, "PER_EXAMPLE", "The predicate x.sum() > 0 differs per example, "
             "so no one branch fits the batch: vmap computes both branches for every example (its program holds "
             "{}) and picks each example's result with select_n."),
            ("CHOOSER_SHARED", SHARED, "SHARED", "use_sine is not mapped (in_axes None): one predicate for the "
             "whole batch, so the cond stays, and the batch runs one of its two branches."),
        ]:
            jaxpr = make()
            computed = sorted({p for p in checks.Program(jaxpr).primitives() if p in ("sin", "cos")})
            judge.compare(guesses[name], _chooser_in(jaxpr), name=name, form=checks.forms.PRIMITIVE,
                          what=f"the primitive that picks sine or cosine in {program}()'s program",
                          why=f"{why.format(' and '.join(computed))} {DOCS}")
