"""Values right, tool wrong: layer is called once on the whole stack of weights (matmul happens to
broadcast over the leading member axis); nothing maps it with jax.vmap, and a one-model layer that
does not happen to broadcast would break."""

import jax.numpy as jnp


def layer(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


def ensemble_outputs(params, x):
    return layer(params, x)
