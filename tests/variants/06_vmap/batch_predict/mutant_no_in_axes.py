"""Wrong: no in_axes, so vmap maps w and the scalar b along axis 0 too."""

import jax
import jax.numpy as jnp


def predict_single(w: jnp.ndarray, b: jnp.ndarray, x: jnp.ndarray) -> jnp.ndarray:
    return jax.nn.sigmoid(jnp.dot(w, x) + b)


def predict_batch(w: jnp.ndarray, b: jnp.ndarray, xs: jnp.ndarray) -> jnp.ndarray:
    return jax.vmap(predict_single)(w, b, xs)
