"""Wrong: floor(x + 0.5) rounds halves up (0.5 -> 1, 2.5 -> 3), not to even as jnp.round does."""

import jax
import jax.numpy as jnp


@jax.custom_jvp
def quantize(x):
    return jnp.floor(x + 0.5)


@quantize.defjvp
def _quantize_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return quantize(x), t
