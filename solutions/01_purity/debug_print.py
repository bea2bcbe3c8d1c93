"""Reference solution for purity-3: print from inside the compiled program."""

import jax


@jax.jit
def damped_step(x, velocity):
    new_x = x + 0.9 * velocity
    jax.debug.print("position: {}", new_x)
    return new_x
