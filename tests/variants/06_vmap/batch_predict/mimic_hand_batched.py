"""Values right, tool wrong: the batched model written again by hand (xs @ w), so predict_single is
never mapped with jax.vmap and a change to it would not reach the batch."""

import jax
import jax.numpy as jnp


def predict_single(w, b, x):
    return jax.nn.sigmoid(jnp.dot(w, x) + b)


def predict_batch(w, b, xs):
    return jax.nn.sigmoid(xs @ w + b)
