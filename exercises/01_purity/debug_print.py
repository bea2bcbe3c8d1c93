"""Side effects under jit: `print` runs while tracing, `jax.debug.print` runs every call.

jit runs your Python code once, with tracers, to record the computation;
later calls with the same shapes replay the compiled program and never touch
the Python body again. So a plain `print` inside a jitted function shows a
Tracer (no value), and only on the first call. `jax.debug.print` is recorded
into the program itself: it prints the real value on every call.
Docs: https://docs.jax.dev/en/latest/debugging.html

Task (fix-it): `damped_step(x, velocity)` should print the new position, with
its actual value, from inside its compiled program, every time it is called,
and stay compiled once.
"""

import jax


@jax.jit
def damped_step(x, velocity):
    new_x = x + 0.9 * velocity
    print("position:", new_x)
    return new_x
