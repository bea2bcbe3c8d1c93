"""Tool wrong: lax.map applies predict_single one example at a time, except at the batch sizes a
check reads the program at (2 and 9 examples), where it shows a jax.vmap of predict_single whose
numbers are wrong (the bias negated). A subject rewritten to forge its traces would hand in such a
program: the values come from the loop, the program read is not the one that computes them."""

import jax
import jax.numpy as jnp
from jax import lax


def predict_single(w, b, x):
    return jax.nn.sigmoid(jnp.dot(w, x) + b)


def predict_batch(w, b, xs):
    if xs.shape[0] in (2, 9):
        return jax.vmap(predict_single, in_axes=(None, None, 0))(w, -b, xs)
    return lax.map(lambda x: predict_single(w, b, x), xs)
