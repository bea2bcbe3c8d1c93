"""Wrong: the double-where trick does the work; a custom_jvp identity wrapped around its result is only a decoy rule."""

import jax
import jax.numpy as jnp


@jax.custom_jvp
def _identity(y):
    return y


_identity.defjvp(lambda primals, tangents: (primals[0], tangents[0]))


def norm(x):
    squared = jnp.sum(x * x)
    safe = jnp.where(squared > 0, squared, 1.0)
    return _identity(jnp.where(squared > 0, jnp.sqrt(safe), 0.0))
