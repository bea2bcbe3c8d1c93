"""Wrong: fitted to the visible checks' three logits; any other length comes back unscaled (only the
hidden check, with seven logits, catches it)."""

import jax

TEMPERATURE = 1.0


def set_temperature(value):
    global TEMPERATURE
    TEMPERATURE = value


@jax.jit
def _scale(logits, temperature):
    return logits / temperature if logits.shape[0] == 3 else logits


def scaled_logits(logits):
    return _scale(logits, TEMPERATURE)
