"""Wrong: multiplies by a float32 mask, which promotes a bfloat16 or float16 x to float32."""

import jax
import jax.numpy as jnp


def dropout(key, x, keep):
    mask = jax.random.bernoulli(key, keep, x.shape).astype(jnp.float32)
    return x * mask / keep
