"""Values and gradients right via x + stop_gradient(round(x) - x), but no custom derivative rule."""

import jax
import jax.numpy as jnp


def quantize(x):
    return x + jax.lax.stop_gradient(jnp.round(x) - x)
