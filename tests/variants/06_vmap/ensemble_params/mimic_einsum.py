"""Values right, tool wrong: the whole ensemble as one hand-written einsum; layer is never mapped
with jax.vmap (a change to layer would never reach the ensemble)."""

import jax.numpy as jnp


def layer(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


def ensemble_outputs(params, x):
    return jnp.tanh(jnp.einsum("d,edk->ek", x, params["w"]) + params["b"])
