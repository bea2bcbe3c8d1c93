"""Reference solution for vmap-6: vmap(grad(loss)) with the parameters unmapped."""

import jax
import jax.numpy as jnp


def loss(params: dict, x: jnp.ndarray, y: jnp.ndarray) -> jnp.ndarray:
    return (jnp.dot(params["w"], x) + params["b"] - y) ** 2


def per_example_grads(params: dict, xs: jnp.ndarray, ys: jnp.ndarray) -> dict:
    return jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(params, xs, ys)
