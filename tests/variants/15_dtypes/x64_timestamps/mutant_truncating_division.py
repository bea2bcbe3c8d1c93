"""Wrong: lax.div truncates toward zero, which is the floor only for timestamps after 1970 (only the hidden check has earlier ones)."""

import jax
import jax.numpy as jnp
from jax import lax


def to_milliseconds(ns):
    with jax.enable_x64(True):
        return lax.div(jnp.asarray(ns, dtype=jnp.int64), jnp.int64(1_000_000))
