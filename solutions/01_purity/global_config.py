"""Reference solution for purity-1: read the global outside jit, pass it in."""

import jax
import jax.numpy as jnp

TEMPERATURE = 1.0


def set_temperature(value: float) -> None:
    global TEMPERATURE
    TEMPERATURE = value


@jax.jit
def _scale(logits: jnp.ndarray, temperature: jnp.ndarray) -> jnp.ndarray:
    return logits / temperature


def scaled_logits(logits: jnp.ndarray) -> jnp.ndarray:
    # The global is read on every call, outside the trace, and passed in as a
    # traced argument: a new value is new data, not a new program.
    return _scale(logits, TEMPERATURE)
