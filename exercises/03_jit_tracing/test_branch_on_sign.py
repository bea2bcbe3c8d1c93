"""Checks for jit-5 (branch_on_sign)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

TAU = 0.9
RESIDUALS = [2.0, -2.0, 0.5, -0.25, 0.0, 3.0, -1.5]
BRANCH_IN_PROGRAM = ("The choice must be made inside the program, each time it runs: a select that "
                     "computes both sides and keeps one, or a conditional whose predicate is traced.")


def _expected(r):
    return TAU * r if r > 0 else (TAU - 1) * r


def _loss(exercise, value, what):
    try:
        return exercise.pinball_loss(value)
    except (jax.errors.TracerBoolConversionError, jax.errors.ConcretizationTypeError) as error:
        checks.fail(f"{what} cannot be traced ({type(error).__name__}): Python's `if` asks the traced "
                    f"residual for True or False, but while jit traces it has no value, only a shape and "
                    f"a dtype. {BRANCH_IN_PROGRAM} (Marking the residual static would make the `if` "
                    f"legal and compile a new program for every residual.) "
                    f"See {checks.DOCS}/control-flow.html", "traced-value")


def test_loss_on_both_signs(exercise):
    for r in RESIDUALS:
        checks.assert_close(_loss(exercise, jnp.float32(r), f"pinball_loss({r})"), np.float32(_expected(r)),
                            what=f"pinball_loss({r})",
                            hint="Positive residuals are weighted by TAU, the rest by TAU - 1.")


def test_compiles_once_across_signs(exercise):
    values = [jnp.float32(r) for r in RESIDUALS]
    with checks.count_compiles() as log:
        outs = [_loss(exercise, v, "pinball_loss") for v in values]
    if log.count == 0:
        checks.fail(f"pinball_loss compiled nothing for {len(values)} calls: it runs op by op, eagerly, "
                    f"where a Python `if` works only because every residual is a concrete value. It must "
                    f"stay one jitted program. {BRANCH_IN_PROGRAM} See {checks.DOCS}/control-flow.html",
                    "not-jitted")
    programs = sorted(set(log.names))
    if len(programs) > 1:
        why = (f"pinball_loss runs {len(programs)} different programs ({', '.join(programs)}): the sign is "
               f"tested in Python, outside the compiled code, which pulls every residual back to the "
               f"host and keeps one program per branch. {BRANCH_IN_PROGRAM}")
    else:
        why = ("the sign is data: one program should handle both branches. A static residual (or a "
               "Python float handed to a static jit) compiles a program per value. " + BRANCH_IN_PROGRAM)
    checks.assert_compiles(log, what="pinball_loss()", calls=f"{len(values)} float32 scalars of both signs",
                           expected=1, why=why)
    for r, out in zip(RESIDUALS, outs):
        checks.assert_close(out, np.float32(_expected(r)), what=f"pinball_loss({r})")
    both_signs = [2.0, -2.0, 0.0]
    checks.assert_one_program(
        exercise.pinball_loss, [(jnp.float32(r),) for r in both_signs], what="pinball_loss",
        calls_text=f"residuals {both_signs}", expected=[np.float32(_expected(r)) for r in both_signs],
        why="the residual reaches the program as a compile-time constant (static, or a Python float "
            "handed to a static jit). " + BRANCH_IN_PROGRAM)
    # One program for both signs is not enough if the sign is still tested in Python, on the
    # concrete residual, before the program runs: the branch itself must be inside it.
    try:
        jax.make_jaxpr(exercise.pinball_loss)(values[0])
    except (jax.errors.TracerBoolConversionError, jax.errors.ConcretizationTypeError):
        checks.fail(f"pinball_loss tests the sign in Python, around its compiled program: that works "
                    f"only while the residual is a concrete value. Called from another jitted function "
                    f"(a training step, a vmap over residuals) the residual is a tracer and the Python "
                    f"test fails. {BRANCH_IN_PROGRAM} See {checks.DOCS}/control-flow.html", "traced-value")
    checks.assert_jitted(exercise.pinball_loss, values[1], what="pinball_loss", entirely=True,
                         expected=np.float32(_expected(RESIDUALS[1])))
