"""Values right, tool wrong: a vmap over member numbers, each picking its w out of the stack by index;
in_axes maps no parameter at all, where the task asks that it map w."""

import jax
import jax.numpy as jnp


def layer(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


def ensemble_outputs(params, x):
    w = jnp.asarray(params["w"])
    return jax.vmap(lambda i: layer({"w": w[i], "b": params["b"]}, x))(jnp.arange(w.shape[0]))
