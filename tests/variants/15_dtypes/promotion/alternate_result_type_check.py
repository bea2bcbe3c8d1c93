"""Right, unusually: jnp.asarray with dtype for both operands, then one fused expression."""

import jax.numpy as jnp


def blend(x, y, gain):
    dtype = jnp.result_type(x)
    return jnp.add(x, jnp.multiply(jnp.asarray(gain, dtype), jnp.asarray(y, dtype)))
