"""Values right, idea skipped: a static temperature gives fresh values by compiling a new program for every value."""

from functools import partial

import jax

TEMPERATURE = 1.0


def set_temperature(value):
    global TEMPERATURE
    TEMPERATURE = value


@partial(jax.jit, static_argnums=1)
def _scale(logits, temperature):
    return logits / temperature


def scaled_logits(logits):
    return _scale(logits, TEMPERATURE)
