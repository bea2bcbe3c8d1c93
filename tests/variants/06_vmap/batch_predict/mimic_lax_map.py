"""Values right, tool wrong: lax.map applies predict_single one example at a time in a loop, instead of
vmap vectorizing it over the batch."""

import jax
import jax.numpy as jnp
from jax import lax


def predict_single(w, b, x):
    return jax.nn.sigmoid(jnp.dot(w, x) + b)


def predict_batch(w, b, xs):
    return lax.map(lambda x: predict_single(w, b, x), xs)
