"""Checks for dtype-1 (promotion)."""

import jax
import jax.extend
import jax.numpy as jnp
import numpy as np

from grader import checks

DOCS = f"See {checks.DOCS}/type_promotion.html"
RNG = np.random.default_rng(15)
# (x dtype, y dtype, gain): each mixes dtypes differently.
CASES = [
    (jnp.bfloat16, jnp.float16, 0.5),
    (jnp.float16, jnp.bfloat16, np.float32(0.25)),
    (jnp.bfloat16, jnp.int32, np.float32(1.5)),
    (jnp.float16, jnp.float32, 2),
    (jnp.float32, jnp.bfloat16, np.float64(0.75)),
]


def _inputs(x_dtype, y_dtype):
    x = RNG.uniform(-2, 2, size=6).astype(np.float32)
    y = RNG.integers(-5, 5, size=6) if jnp.issubdtype(y_dtype, jnp.integer) else RNG.uniform(-2, 2, size=6)
    return jnp.asarray(x, x_dtype), jnp.asarray(y, y_dtype)


def _name(dtype):
    return jnp.dtype(dtype).name


def _all_eqns(jaxpr):
    for eqn in jaxpr.eqns:
        yield eqn
        for sub in jax.extend.core.jaxprs_in_params(eqn.params):
            yield from _all_eqns(getattr(sub, "jaxpr", sub))


def test_returns_x_dtype_with_the_right_values(exercise):
    inputs = [_inputs(x_dtype, y_dtype) for x_dtype, y_dtype, _ in CASES]
    # One jitted program for every case: the gains are closed over, so each keeps its own
    # kind (a Python scalar weak, a NumPy scalar strong), exactly as in an eager call.
    gains = [gain for _, _, gain in CASES]
    outs = jax.jit(lambda pairs: [exercise.blend(x, y, g) for (x, y), g in zip(pairs, gains)])(inputs)
    for (x_dtype, y_dtype, gain), (x, y), out in zip(CASES, inputs, outs):
        what = f"blend(x: {_name(x_dtype)}, y: {_name(y_dtype)}, gain={type(gain).__name__}({gain}))"
        promoted = jnp.result_type(x, y, gain)
        hint = (f"{_name(x_dtype)} mixed with {_name(y_dtype)} and a {type(gain).__name__} scalar promotes "
                f"to {_name(promoted)}. Convert y and gain to x's dtype before the arithmetic; a cast at the "
                f"end would still compute in the wider type."
                if getattr(out, "dtype", None) == promoted else
                "The result takes x's own dtype, whatever x is: read it from x rather than naming one.")
        checks.assert_shape_dtype(out, (6,), x_dtype, what=what, hint=hint)
        want = np.asarray(x, np.float32) + np.float32(gain) * np.asarray(y, np.float32)
        checks.assert_close(np.asarray(out, np.float32), want, rtol=2e-2, atol=2e-2, what=what)


def test_every_step_runs_in_x_dtype(exercise):
    for x_dtype, y_dtype, gain in CASES:
        x, y = _inputs(x_dtype, y_dtype)
        what = f"blend(x: {_name(x_dtype)}, y: {_name(y_dtype)}, gain={type(gain).__name__}({gain}))"
        program = checks.program_of(lambda x, y: exercise.blend(x, y, gain), x, y, what="blend")
        checks.assert_no_callbacks(program, what=what)
        for eqn in _all_eqns(program.jaxpr.jaxpr):
            if eqn.primitive.name == "convert_element_type":
                continue
            for var in eqn.outvars:
                dtype = var.aval.dtype
                if not jnp.issubdtype(dtype, jnp.floating) or dtype == jnp.dtype(x_dtype):
                    continue
                why = ("that is y's own dtype: y took part before being converted to x's dtype"
                       if dtype == jnp.dtype(y_dtype) else
                       f"its operands were promoted to {dtype.name} first (the jaxpr widens them with "
                       f"convert_element_type)")
                checks.fail(f"{what}: its program computes `{eqn.primitive.name}` in {dtype.name}, not in "
                            f"x's {_name(x_dtype)}; {why}. A cast of the result would still leave the work "
                            f"in the other type: convert the inputs. {DOCS}", "precision")
