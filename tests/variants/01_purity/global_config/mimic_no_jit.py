"""Wrong: dropping jit avoids the stale constant but gives up compilation altogether."""

TEMPERATURE = 1.0


def set_temperature(value):
    global TEMPERATURE
    TEMPERATURE = value


def scaled_logits(logits):
    return logits / TEMPERATURE
