"""Wrong: right numbers, but a Python loop over members unrolls one layer per member."""

import jax.numpy as jnp


def layer(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


def ensemble_outputs(params, x):
    return jnp.stack([layer({"w": w, "b": params["b"]}, x) for w in params["w"]])
