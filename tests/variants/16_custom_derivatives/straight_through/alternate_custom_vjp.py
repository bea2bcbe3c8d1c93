"""Right, differently: custom_vjp whose bwd hands the cotangent back unchanged, with no residuals."""

import jax
import jax.numpy as jnp


@jax.custom_vjp
def quantize(x):
    return jnp.round(x)


def _fwd(x):
    return jnp.round(x), None


def _bwd(_, g):
    return (g,)


quantize.defvjp(_fwd, _bwd)
