"""Checks for dtype-3 (accumulate_f32)."""

import re

import jax
import jax.extend
import jax.numpy as jnp
import numpy as np

from grader import checks

DOCS = f"See {checks.DOCS}/_autosummary/jax.lax.dot_general.html"
RNG = np.random.default_rng(3)


def _bf16(*shape):
    """Random bfloat16 data, and the same values exactly in float64 for the reference."""
    values = jnp.asarray(RNG.normal(size=shape).astype(np.float32), jnp.bfloat16)
    return values, np.asarray(values, np.float64)


def _all_eqns(jaxpr):
    for eqn in jaxpr.eqns:
        yield eqn
        for sub in jax.extend.core.jaxprs_in_params(eqn.params):
            yield from _all_eqns(getattr(sub, "jaxpr", sub))


def _check_values(got, want, what):
    checks.assert_shape_dtype(got, want.shape, np.float32, what=what,
                              hint="The result is float32: ask the matmul itself for a float32 result.")
    checks.assert_close(got, want, rtol=1e-4, atol=1e-4, what=what,
                        hint="Exact bfloat16 products summed in float32 match the reference to float32 "
                             "precision; a result rounded to bfloat16 (then widened) is off in the third "
                             "digit.")


def _check_program(fn, args, expected, what):
    program = checks.program_of(fn, *args, what=what)
    checks.assert_computes(program, expected, what=what, rtol=1e-4, atol=1e-4)
    dots = [e for e in _all_eqns(program.jaxpr.jaxpr) if e.primitive.name == "dot_general"]
    if not dots:
        checks.fail(f"{what} has no dot_general in its program: the products and sums should be one "
                    f"matmul (jnp.matmul, jnp.dot, jnp.einsum or lax.dot_general), not elementwise "
                    f"multiplies and reductions. {DOCS}", "wrong-tool")
    if not program.applies_to_inputs({"dot_general"}, inputs=(0, 1)):
        checks.fail(f"{what}: no dot_general in its program takes both inputs whole, as they came in (moved "
                    f"or transposed at most): the matmul does only part of the work, and the rest of the "
                    f"products and sums run elsewhere (elementwise on converted operands, say). All of it "
                    f"is one matmul of the bfloat16 operands. {DOCS}", "wrong-tool")
    for eqn in dots:
        ins = [v.aval.dtype.name for v in eqn.invars]
        out = eqn.outvars[0].aval.dtype.name
        if ins != ["bfloat16", "bfloat16"]:
            checks.fail(f"{what}: its dot_general multiplies {' x '.join(ins)} operands. The operands were "
                        f"converted to a wider type before the matmul: twice the bytes to move and "
                        f"multiply, and no bfloat16 matrix units. Keep them bfloat16 and ask for a float32 "
                        f"result instead. {DOCS}", "precision")
        if out != "float32":
            checks.fail(f"{what}: its dot_general accumulates into {out} (preferred_element_type="
                        f"{eqn.params.get('preferred_element_type')}): each sum is rounded to {out} "
                        f"before anything can widen it. {DOCS}", "precision")
    # Nor beside the matmul: an input converted as it came in, its wider copy on the outputs' path,
    # multiplies elementwise where the words ask for the bfloat16 operands of one matmul.
    for k, name in enumerate(("first", "second")):
        if program.applies_to_inputs({"convert_element_type"}, inputs=(k,)):
            checks.fail(f"{what}: its {name} bfloat16 input is converted to a wider type, and the result "
                        f"follows that copy: part of the products and sums run on widened operands, beside "
                        f"the matmul (twice the bytes to move and multiply). Keep the operands bfloat16 and "
                        f"let one matmul ask for a float32 result. {DOCS}", "precision")
    # The HLO of that same program, lowered here.
    text = jax.jit(jax.extend.core.jaxpr_as_fun(program.jaxpr)).lower(*program.inputs).as_text()
    lines = [line for line in text.splitlines() if "stablehlo.dot_general" in line]
    for line in lines:
        types = re.findall(r"tensor<[^>]*x(\w+)>", line.split(":")[-1])
        if types and (types[-1] != "f32" or any(t != "bf16" for t in types[:-1])):
            checks.fail(f"{what}: the lowered HLO's dot_general reads {line.split(':')[-1].strip()}; "
                        f"expected bf16 operands and an f32 result. {DOCS}", "precision")
    if not lines:
        checks.fail(f"{what}: the lowered HLO has no dot_general. {DOCS}", "wrong-tool")
    # Called on arrays, it runs what its trace shows: no cast of the operands op by op beside it.
    checks.assert_called_as_traced(fn, *args, what=what, program=program, nothing_else=True)


def test_project_accumulates_in_float32(exercise):
    x, x64 = _bf16(8, 64)
    w, w64 = _bf16(64, 5)
    _check_values(exercise.project(x, w), x64 @ w64, "project(x, w) with bfloat16 x (8, 64), w (64, 5)")


def test_scores_accumulates_in_float32(exercise):
    q, q64 = _bf16(2, 3, 64)
    k, k64 = _bf16(2, 4, 64)
    _check_values(exercise.scores(q, k), np.einsum("bsd,btd->bst", q64, k64),
                  "scores(q, k) with bfloat16 q (2, 3, 64), k (2, 4, 64)")


def test_programs_keep_bfloat16_operands_and_a_float32_accumulator(exercise):
    x, x64 = _bf16(8, 64)
    w, w64 = _bf16(64, 5)
    q, q64 = _bf16(2, 3, 64)
    k, k64 = _bf16(2, 4, 64)
    _check_program(exercise.project, (x, w), x64 @ w64, "project")
    _check_program(exercise.scores, (q, k), np.einsum("bsd,btd->bst", q64, k64), "scores")
