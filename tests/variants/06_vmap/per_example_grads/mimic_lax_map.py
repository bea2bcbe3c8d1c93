"""Values right, tool wrong: lax.map takes the gradient one example at a time in a loop instead of
vmap computing them all in one vectorized program."""

import jax
import jax.numpy as jnp
from jax import lax


def loss(params, x, y):
    return (jnp.dot(params["w"], x) + params["b"] - y) ** 2


def per_example_grads(params, xs, ys):
    return lax.map(lambda xy: jax.grad(loss)(params, *xy), (xs, ys))
