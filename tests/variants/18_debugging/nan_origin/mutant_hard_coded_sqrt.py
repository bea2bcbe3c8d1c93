"""Wrong: answers "sqrt" whenever the output holds a NaN, whatever made it."""

import jax
import jax.numpy as jnp


def nan_origin(f, *args):
    with jax.debug_nans(True):
        try:
            out = jax.jit(f)(*args)
        except FloatingPointError:
            return "sqrt"
    return "sqrt" if bool(jnp.isnan(out).any()) else None
