"""Right, unusually: the jitted helper takes the temperature as a keyword-only float32 array (keywords are traced too)."""

import jax
import jax.numpy as jnp

TEMPERATURE = 1.0


def set_temperature(value):
    global TEMPERATURE
    TEMPERATURE = value


@jax.jit
def _scale(logits, *, temperature):
    return logits / temperature


def scaled_logits(logits):
    return _scale(logits, temperature=jnp.asarray(TEMPERATURE, jnp.float32))
