"""Wrong: a custom_jvp identity takes x, but the rounding and its straight-through gradient come from the stop_gradient trick around it."""

import jax
import jax.numpy as jnp


@jax.custom_jvp
def _identity(x):
    return x


_identity.defjvp(lambda primals, tangents: (primals[0], tangents[0]))


def quantize(x):
    y = _identity(x)
    return y + jax.lax.stop_gradient(jnp.round(y) - y)
