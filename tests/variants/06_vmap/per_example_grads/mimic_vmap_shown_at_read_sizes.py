"""Tool wrong: lax.map computes the gradients one example after another, except at the batch sizes a
check reads the program at (2 and 9 examples), where it shows jax.vmap(jax.grad(loss)) whose
numbers are wrong (the labels negated). A subject rewritten to forge its traces would hand in such
a program: the values come from the loop, the program read is not the one that computes them."""

import jax
import jax.numpy as jnp
from jax import lax


def loss(params, x, y):
    return (jnp.dot(params["w"], x) + params["b"] - y) ** 2


def per_example_grads(params, xs, ys):
    if xs.shape[0] in (2, 9):
        return jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(params, xs, -ys)
    return lax.map(lambda xy: jax.grad(loss)(params, *xy), (xs, ys))
