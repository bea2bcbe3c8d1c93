"""Pure functions: a jitted function reads its inputs, not globals.

`jax.jit` runs your Python function once with abstract *tracers* to record the
computation, compiles that record, and reuses the compiled program for every
later call with the same shapes and dtypes. A global read while tracing is
copied into the program as a constant: when the global changes later, the
cached program still uses the old value, silently.
Docs: https://docs.jax.dev/en/latest/stateful-computations.html
      https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions

Task (fix-it): a training script calls `set_temperature(t)` and then
`scaled_logits(logits)`, expecting `logits / t`. Only the first temperature
ever takes effect. Make every call use the current temperature, with the work
still compiled by jit once (not once per temperature). Keep both signatures.
"""

import jax
import jax.numpy as jnp

TEMPERATURE = 1.0


def set_temperature(value: float) -> None:
    global TEMPERATURE
    TEMPERATURE = value


@jax.jit
def scaled_logits(logits: jnp.ndarray) -> jnp.ndarray:
    return logits / TEMPERATURE
