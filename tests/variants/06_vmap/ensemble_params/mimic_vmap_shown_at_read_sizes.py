"""Tool wrong: lax.map runs the members one after another, except at the ensemble sizes a check
reads the program at: with 4 members the right jax.vmap, with 9 a jax.vmap of the same size whose
numbers are wrong (the bias negated). A subject rewritten to forge its traces would hand in such a
program: the values come from the loop, the program read is not the one that computes them."""

import jax
import jax.numpy as jnp
from jax import lax


def layer(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


_mapped = jax.vmap(layer, in_axes=({"w": 0, "b": None}, None))


def ensemble_outputs(params, x):
    members = params["w"].shape[0]
    if members in (4, 9):  # the same program at both sizes: the bias scaled by 1, or negated
        sign = 1.0 if members == 4 else -1.0
        return _mapped({"w": params["w"], "b": sign * params["b"]}, x)
    return lax.map(lambda w: layer({"w": w, "b": params["b"]}, x), params["w"])
