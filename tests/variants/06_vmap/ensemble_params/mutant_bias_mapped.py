"""Wrong: in_axes=(0, None) maps every leaf of params, so member i adds the scalar b[i]."""

import jax
import jax.numpy as jnp


def layer(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


def ensemble_outputs(params, x):
    return jax.vmap(layer, in_axes=(0, None))(params, x)
