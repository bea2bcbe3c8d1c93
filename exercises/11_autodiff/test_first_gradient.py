"""Checks for grad-1 (first_gradient)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks


def test_derivative_at_three_is_fifteen(exercise):
    checks.assert_close(exercise.df(3.0), 15.0, what="df(3.0)",
                        hint="d/dx (2x² + 3x + 3) = 4x + 3. jax.grad(f) is the derivative as a "
                             "function: df calls it at x.")


def test_derivative_everywhere(exercise):
    xs = jnp.array([-2.0, -0.75, 0.0, 1.5, 10.0])
    got = jax.vmap(exercise.df)(xs)
    checks.assert_close(got, 4 * np.asarray(xs) + 3, what="jax.vmap(df)(xs)",
                        hint="df must be the derivative 4x + 3 at every x, and stay a JAX function "
                             "(no Python floats or NumPy inside) so vmap and jit can transform it.")


def test_derivative_under_jit(exercise):
    checks.assert_close(jax.jit(exercise.df)(jnp.float32(-1.0)), -1.0, what="jax.jit(df)(-1.0)",
                        hint="jax.grad composes with jit: df should be traceable.")


def test_value_and_gradient_together(exercise):
    out = exercise.f_and_df(3.0)
    if not (isinstance(out, tuple) and len(out) == 2):
        checks.fail(f"f_and_df(3.0) returned {out!r}; expected a pair (value, gradient), which "
                    f"jax.value_and_grad gives in one pass.", "wrong-shape")
    checks.assert_close(out, (30.0, 15.0), what="f_and_df(3.0)",
                        hint="The pair is (f(x), f'(x)) in that order: jax.value_and_grad returns "
                             "the value first.")
    checks.assert_close(exercise.f_and_df(-1.0), (2.0, -1.0), what="f_and_df(-1.0)")


def test_differentiates_f_itself(exercise):
    # Another f in f's place: an answer that differentiates f with JAX follows it; a derivative
    # worked out by hand (4x + 3) does not. Values first (Python floats), then the swap with
    # float32 scalars, which no earlier trace has seen.
    checks.assert_close(exercise.f_and_df(2.0), (17.0, 11.0), what="f_and_df(2.0)",
                        hint="The pair is (f(x), f'(x)), the value first.")
    checks.assert_close(exercise.df(2.0), 11.0, what="df(2.0)")

    def another(x):
        return x * jnp.sin(x)

    x = np.float32(0.7)
    want_value, want_slope = x * np.sin(x), np.sin(x) + x * np.cos(x)
    with checks.swap_function(exercise, "f", another):  # traced and on arrays: it follows both
        slopes = checks.both_ways(exercise.df, jnp.float32(x))
        pairs = checks.both_ways(exercise.f_and_df, jnp.float32(x))
    hint = "Differentiate f with JAX (jax.grad, jax.value_and_grad), not a derivative written by hand."
    for name in ("df", "f_and_df"):
        checks.assert_real_valued(checks.program_of(getattr(exercise, name), jnp.float32(x), what=name),
                                  what=f"{name}(x)", why=hint)
    for how in slopes:
        slope, pair = slopes[how], pairs[how]
        checks.assert_follows(slope, want_slope, what=f"df(x) {how}", swapped="f", rtol=1e-6, atol=1e-7,
                              hint=hint)
        checks.assert_follows(tuple(pair) if isinstance(pair, (tuple, list)) else pair, (want_value, want_slope),
                              what=f"f_and_df(x) {how}", swapped="f", rtol=1e-6, atol=1e-7, hint=hint,
                              shape_hint="f_and_df returns the pair (f(x), f'(x)).")
    # An f whose derivative JAX takes from a rule it was given (jax.custom_jvp, as for jax.nn.relu):
    # x * round(x), round's slope set to 1. JAX's autodiff follows the rule; a derivative taken any
    # other way (by hand, by finite differences, by reading f's equations) sees round's 0.
    # float16, a type no earlier call used, so no program traced before this swap is reused.
    x = np.float16(1.25)
    with checks.swap_function(exercise, "f", lambda v: v * checks.straight_through_round(v)):
        slopes = checks.both_ways(exercise.df, jnp.float16(x))
    for how, slope in slopes.items():
        checks.assert_follows(slope, np.float16(1.0) + x, what=f"df(x) {how}", swapped="f", rtol=1e-3, atol=1e-3,
                              hint="f here is x * r(x), r a round whose derivative JAX was told is 1 "
                                   "(jax.custom_jvp): jax.grad follows the rules JAX knows for f's operations, "
                                   "custom ones included, where a derivative taken another way sees round's 0.")
