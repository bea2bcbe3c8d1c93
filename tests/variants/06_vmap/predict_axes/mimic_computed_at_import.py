"""Computed, not predicted: jax.eval_shape at import."""

import jax
import jax.numpy as jnp


def score(x, w):
    return jnp.tanh(x @ w)


_x = jax.ShapeDtypeStruct((5, 3), jnp.float32)
_w = jax.ShapeDtypeStruct((3, 4), jnp.float32)
SHAPE_A = tuple(jax.eval_shape(jax.vmap(score, in_axes=(0, None)), _x, _w).shape)
SHAPE_B = (4, 5)
SHAPE_C = (2, 4)
SHAPE_D = (2, 5, 4)
SHAPE_E = (5, 2, 4)
