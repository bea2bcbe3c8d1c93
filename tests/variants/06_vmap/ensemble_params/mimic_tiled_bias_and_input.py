"""Values right, idea skipped: tiles the tied bias and the input to one copy per member and maps all of
it with in_axes=0, building E copies of what in_axes=None would hand every member as it is."""

import jax
import jax.numpy as jnp


def layer(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


def ensemble_outputs(params, x):
    members = params["w"].shape[0]
    stacked = {"w": params["w"], "b": jnp.tile(params["b"], (members, 1))}
    return jax.vmap(layer)(stacked, jnp.broadcast_to(x, (members,) + x.shape))
