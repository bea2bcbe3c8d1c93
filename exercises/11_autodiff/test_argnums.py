"""Checks for grad-2 (argnums)."""

import jax.numpy as jnp

from grader import checks

POINTS = [(3.0, 5.0), (-1.5, 2.0), (0.0, -4.0)]


def test_partial_with_respect_to_x(exercise):
    for x, y in POINTS:
        checks.assert_close(exercise.dg_dx(x, y), 2 * x, what=f"dg_dx({x}, {y})",
                            hint="∂(x² + y)/∂x = 2x: jax.grad(g) differentiates the first argument.")


def test_partial_with_respect_to_y(exercise):
    for x, y in POINTS:
        checks.assert_close(exercise.dg_dy(x, y), 1.0, what=f"dg_dy({x}, {y})",
                            hint="∂(x² + y)/∂y = 1. jax.grad(g) alone differentiates with respect to x "
                                 "(argument 0); pass argnums=1 for y.")


def test_both_partials_at_once(exercise):
    for x, y in POINTS:
        out = exercise.dg_both(x, y)
        if not (isinstance(out, tuple) and len(out) == 2):
            checks.fail(f"dg_both({x}, {y}) returned {out!r}; expected a tuple (∂g/∂x, ∂g/∂y). "
                        f"jax.grad(g, argnums=(0, 1)) returns one gradient per listed argument.")
        checks.assert_close(out, (jnp.float32(2 * x), jnp.float32(1.0)), what=f"dg_both({x}, {y})",
                            hint="The tuple follows argnums' order: (∂g/∂x, ∂g/∂y).")
