"""Wrong: bound in nondiff_argnums works for a Python float, but a traced bound (jit, vmap) is refused."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_vjp, nondiff_argnums=(1,))
def clip_gradient(x, bound):
    return x


def _fwd(x, bound):
    return x, None


def _bwd(bound, _, g):
    return (jnp.clip(g, -bound, bound),)


clip_gradient.defvjp(_fwd, _bwd)
