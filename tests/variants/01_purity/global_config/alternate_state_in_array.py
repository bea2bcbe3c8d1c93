"""Right, unusually: keep the temperature as data and hand the jitted function its reciprocal."""

import jax
import jax.numpy as jnp

_state = {"inverse_temperature": jnp.float32(1.0)}


def set_temperature(value):
    _state["inverse_temperature"] = jnp.float32(1.0 / value)


@jax.jit
def _multiply(logits, inverse_temperature):
    return logits * inverse_temperature


def scaled_logits(logits):
    return _multiply(logits, _state["inverse_temperature"])
