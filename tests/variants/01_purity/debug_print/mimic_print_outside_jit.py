"""Values right, idea skipped: prints from a Python wrapper around the jitted step, outside the program (inside another jit it would print a tracer)."""

import jax


@jax.jit
def _step(x, velocity):
    return x + 0.9 * velocity


def damped_step(x, velocity):
    new_x = _step(x, velocity)
    print("position:", new_x)
    return new_x
