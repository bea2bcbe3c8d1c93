"""Values right, tracing wrong: a Python `if` picks the stable branch, which works on one concrete
number but not on the traced values of jit and vmap."""

import jax.numpy as jnp


def softplus(x):
    if x > 0:
        return x + jnp.log1p(jnp.exp(-x))
    return jnp.log1p(jnp.exp(x))
