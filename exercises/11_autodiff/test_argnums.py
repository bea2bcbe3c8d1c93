"""Checks for grad-2 (argnums)."""

import jax.numpy as jnp
import numpy as np

from grader import checks

POINTS = [(3.0, 5.0), (-1.5, 2.0), (0.0, -4.0)]


def test_partial_with_respect_to_x(exercise):
    for x, y in POINTS:
        checks.assert_close(exercise.dg_dx(x, y), 2 * x, what=f"dg_dx({x}, {y})",
                            hint="∂(x² + y)/∂x = 2x: jax.grad(g) differentiates the first argument.")


def test_partial_with_respect_to_y(exercise):
    for x, y in POINTS:
        checks.assert_close(exercise.dg_dy(x, y), 1.0, what=f"dg_dy({x}, {y})",
                            hint="∂(x² + y)/∂y = 1. jax.grad(g) on its own differentiates with "
                                 "respect to x (argument 0); argnums says which argument you mean, "
                                 "counting from 0.")


def test_both_partials_at_once(exercise):
    for x, y in POINTS:
        out = exercise.dg_both(x, y)
        if not (isinstance(out, tuple) and len(out) == 2):
            checks.fail(f"dg_both({x}, {y}) returned {out!r}; expected a tuple (∂g/∂x, ∂g/∂y). "
                        f"With a tuple of argnums, jax.grad returns one gradient per listed argument.",
                        "wrong-shape")
        checks.assert_close(out, (jnp.float32(2 * x), jnp.float32(1.0)), what=f"dg_both({x}, {y})",
                            hint="The tuple follows argnums' order: (∂g/∂x, ∂g/∂y).")


def test_differentiates_g_itself(exercise):
    # Another g in g's place: partials taken by jax.grad follow it; 2x and 1 written by hand do
    # not. Values first (Python floats), then the swap with float32 scalars, which no earlier
    # call has traced with.
    checks.assert_close((exercise.dg_dx(1.5, -2.0), exercise.dg_dy(1.5, -2.0)), (3.0, 1.0),
                        what="(dg_dx(1.5, -2.0), dg_dy(1.5, -2.0))",
                        hint="∂g/∂x = 2x and ∂g/∂y = 1: argnums counts the arguments from 0.")
    checks.assert_close(exercise.dg_both(1.5, -2.0), (jnp.float32(3.0), jnp.float32(1.0)),
                        what="dg_both(1.5, -2.0)", hint="The tuple follows argnums' order: (∂g/∂x, ∂g/∂y).")

    def another(x, y):
        return x * y**3

    x, y = np.float32(1.5), np.float32(-2.0)
    with checks.swap_function(exercise, "g", another):  # traced and on arrays: it follows both
        outs = checks.both_ways(lambda u, v: (exercise.dg_dx(u, v), exercise.dg_dy(u, v), exercise.dg_both(u, v)),
                                jnp.float32(x), jnp.float32(y))
    for name in ("dg_dx", "dg_dy", "dg_both"):
        checks.assert_real_valued(checks.program_of(getattr(exercise, name), jnp.float32(x), jnp.float32(y), what=name),
                                  what=f"{name}(x, y)", why="Each partial must be a derivative JAX takes of g (jax.grad).")
    want = (y**3, 3 * x * y**2, (y**3, 3 * x * y**2))
    for how, got in outs.items():
        checks.assert_follows(tuple(got[:2]) + (tuple(got[2]) if isinstance(got[2], (tuple, list)) else got[2],),
                              want, what=f"(dg_dx, dg_dy, dg_both)(x, y) {how}", swapped="g", rtol=1e-6,
                              atol=1e-6, hint="Each partial must be a derivative JAX takes of g (jax.grad "
                                              "with argnums), not one worked out by hand.",
                              shape_hint="dg_both returns the tuple (∂g/∂x, ∂g/∂y).")
    # A g whose partials JAX takes from a rule it was given (jax.custom_jvp): round's slope set to 1.
    # jax.grad follows it; partials taken any other way see round's 0. float16: no earlier call's type.
    x, y = np.float16(1.25), np.float16(-2.5)
    with checks.swap_function(exercise, "g", lambda u, v: u * checks.straight_through_round(v)
                              + v * checks.straight_through_round(u)):
        outs = checks.both_ways(lambda u, v: (exercise.dg_dx(u, v), exercise.dg_dy(u, v), exercise.dg_both(u, v)),
                                jnp.float16(x), jnp.float16(y))
    want = (np.round(y) + y, x + np.round(x))
    for how, got in outs.items():
        checks.assert_follows(tuple(got[:2]) + (tuple(got[2]) if isinstance(got[2], (tuple, list)) else got[2],),
                              (*want, want), what=f"(dg_dx, dg_dy, dg_both)(x, y) {how}", swapped="g", rtol=1e-3,
                              atol=1e-3, hint="g here is x * r(y) + y * r(x), r a round whose derivative JAX was told "
                                              "is 1 (jax.custom_jvp): jax.grad follows the rules JAX knows for g's "
                                              "operations, custom ones included, where partials taken another way "
                                              "see round's 0.",
                              shape_hint="dg_both returns the tuple (∂g/∂x, ∂g/∂y).")
