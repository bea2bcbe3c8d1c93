"""Values right, idea skipped: called, a Python print around the jitted step shows the position;
traced (as a check reading its program traces it, or a bigger jitted function calls it), it shows a
program whose debugging print shows the position but which hands back x unchanged. A subject
rewritten to forge its traces would hand in such a program."""

import jax


@jax.jit
def _step(x, velocity):
    return x + 0.9 * velocity


@jax.jit
def _for_show(x, velocity):
    jax.debug.print("position: {}", x + 0.9 * velocity)
    return x


def damped_step(x, velocity):
    if isinstance(x, jax.core.Tracer):
        return _for_show(x, velocity)
    new_x = _step(x, velocity)
    print("position:", new_x)
    return new_x
