"""Values right, tool wrong: predict_single is called once on the whole batch (xs transposed, so
jnp.dot happens to broadcast over the examples); nothing maps it with jax.vmap, and a one-example
function that does not happen to broadcast would break."""

import jax
import jax.numpy as jnp


def predict_single(w, b, x):
    return jax.nn.sigmoid(jnp.dot(w, x) + b)


def predict_batch(w, b, xs):
    return predict_single(w, b, xs.T)
