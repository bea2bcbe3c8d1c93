"""Wrong: clearing JAX's caches on every change gives fresh values by recompiling each time."""

import jax

TEMPERATURE = 1.0


def set_temperature(value):
    global TEMPERATURE
    TEMPERATURE = value
    jax.clear_caches()


@jax.jit
def scaled_logits(logits):
    return logits / TEMPERATURE
