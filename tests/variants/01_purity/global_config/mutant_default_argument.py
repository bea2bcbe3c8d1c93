"""Wrong: a default argument is evaluated once, when `def` runs, so it is as stale as the global."""

import jax

TEMPERATURE = 1.0


def set_temperature(value):
    global TEMPERATURE
    TEMPERATURE = value


@jax.jit
def _scale(logits, temperature):
    return logits / temperature


def scaled_logits(logits, temperature=TEMPERATURE):
    return _scale(logits, temperature)
