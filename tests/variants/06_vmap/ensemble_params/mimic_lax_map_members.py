"""Values right, tool wrong: lax.map runs layer member by member in a loop instead of one vmap."""

import jax.numpy as jnp
from jax import lax


def layer(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


def ensemble_outputs(params, x):
    return lax.map(lambda w: layer({"w": w, "b": params["b"]}, x), params["w"])
