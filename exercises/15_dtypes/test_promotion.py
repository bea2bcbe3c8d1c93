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


def _blended(x, y, gain):
    return np.asarray(x, np.float32) + np.float32(gain) * np.asarray(y, np.float32)


def _name(dtype):
    return jnp.dtype(dtype).name


def _all_eqns(jaxpr):
    for eqn in jaxpr.eqns:
        yield eqn
        for sub in jax.extend.core.jaxprs_in_params(eqn.params):
            yield from _all_eqns(getattr(sub, "jaxpr", sub))


def _computes_in_another_type(dtype, x_dtype):
    """A step's result is arithmetic in a type other than x's: any number type (complex and integer
    included: a detour through complex64 or fixed-point integers is another type too), bools aside."""
    return jnp.dtype(dtype) != jnp.dtype(x_dtype) and jnp.issubdtype(dtype, jnp.number)


def _stays_in(exercise, x, y, gain):
    """Whether blend(x, y, gain) computes every step in x's dtype (its program, all levels)."""
    program = checks.program_of(lambda x, y: exercise.blend(x, y, gain), x, y, what="blend")
    return all(not _computes_in_another_type(var.aval.dtype, x.dtype)
               for eqn in _all_eqns(program.jaxpr.jaxpr) if eqn.primitive.name != "convert_element_type"
               for var in eqn.outvars)


def _cause(exercise, x, y, gain):
    """Which input brings the other dtype in: found by rerunning blend with y, or the gain, made harmless."""
    y_fixed = _stays_in(exercise, x, y.astype(x.dtype), gain)
    gain_fixed = _stays_in(exercise, x, y, float(gain))
    kind = f"a NumPy {np.asarray(gain).dtype.name} scalar" if isinstance(gain, np.generic) else "a Python scalar"
    if gain_fixed and not y_fixed:
        return (f"y is in x's dtype already or converted to it; the gain is not: it is {kind}, strongly "
                f"typed, so `gain * y` promotes. Give the gain x's dtype too (or make it a weak Python float).")
    if y_fixed and not gain_fixed:
        return (f"y, a {y.dtype.name} array, takes part before being converted to x's dtype: convert y first.")
    if not _stays_in(exercise, x, y.astype(x.dtype), float(gain)):
        return ("Even given y and the gain in x's dtype already, the program computes in another type: it "
                "names a dtype of its own where it should read x's.")
    return (f"Both y ({y.dtype.name}) and the gain ({kind}) bring another type in: convert both to x's dtype "
            f"before the arithmetic.")


def test_returns_x_dtype_with_the_right_values(exercise):
    inputs = [_inputs(x_dtype, y_dtype) for x_dtype, y_dtype, _ in CASES]
    # One jitted program for every case: the gains are closed over, so each keeps its own
    # kind (a Python scalar weak, a NumPy scalar strong), exactly as in an eager call.
    gains = [gain for _, _, gain in CASES]
    outs = jax.jit(lambda pairs: [exercise.blend(x, y, g) for (x, y), g in zip(pairs, gains)])(inputs)
    for (x_dtype, y_dtype, gain), (x, y), out in zip(CASES, inputs, outs):
        what = f"blend(x: {_name(x_dtype)}, y: {_name(y_dtype)}, gain={type(gain).__name__}({gain}))"
        if getattr(out, "dtype", None) != jnp.dtype(x_dtype):
            promoted = out.dtype == jnp.result_type(x, y, gain)
            hint = (_cause(exercise, x, y, gain) if promoted else
                    "The result takes x's own dtype, whatever x is: read it from x rather than naming one.")
            checks.assert_shape_dtype(out, (6,), x_dtype, what=what, hint=hint)
        checks.assert_shape_dtype(out, (6,), x_dtype, what=what)
        want = _blended(x, y, gain)
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
                if not _computes_in_another_type(dtype, x_dtype):
                    continue
                checks.fail(f"{what}: its program computes `{eqn.primitive.name}` in {dtype.name}, not in "
                            f"x's {_name(x_dtype)}. {_cause(exercise, x, y, gain)} A cast of the result would "
                            f"still leave the work in the other type. {DOCS}", "precision")
        checks.assert_computes(program, _blended(x, y, gain), what=what, rtol=2e-2, atol=2e-2)
