"""Values right, tool wrong: two jax.vmaps of layer, one per half of the members, joined after: in_axes
maps only w in each, but the task asks for one vmap over the ensemble."""

import jax
import jax.numpy as jnp


def layer(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


def ensemble_outputs(params, x):
    w, b = params["w"], params["b"]
    h = w.shape[0] // 2
    f = jax.vmap(layer, in_axes=({"w": 0, "b": None}, None))
    return jnp.concatenate([f({"w": w[:h], "b": b}, x), f({"w": w[h:], "b": b}, x)])
