"""Right, differently: jnp.rint for the value and defjvps for an identity tangent."""

import jax
import jax.numpy as jnp

quantize = jax.custom_jvp(jnp.rint)
quantize.defjvps(lambda t, ans, x: t)
