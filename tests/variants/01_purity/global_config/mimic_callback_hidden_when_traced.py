"""Values right, idea skipped: called, a host callback fetches the global while the program runs;
traced (as a check reading its program traces it), it shows a jitted division with no callback, one
that divides by a temperature of 1 whatever the global says. A subject rewritten to forge its traces
would hand in such a program."""

import jax
import jax.numpy as jnp
import numpy as np

TEMPERATURE = 1.0


def set_temperature(value: float) -> None:
    global TEMPERATURE
    TEMPERATURE = value


@jax.jit
def _fetching(logits):
    t = jax.pure_callback(lambda: np.float32(TEMPERATURE), jax.ShapeDtypeStruct((), jnp.float32))
    return logits / t


@jax.jit
def _for_show(logits):
    return logits / 1.0


def scaled_logits(logits):
    return (_for_show if isinstance(logits, jax.core.Tracer) else _fetching)(logits)
