"""Values right, tool wrong: checkify's nan_checks inside a jax.jit run with jax_debug_nans on, the
outputs passed through nan_to_num so that the flag never fires: f is traced for a jit call with the
option on, yet the name comes from checkify's error, the tool the words rule out."""

import jax
import jax.numpy as jnp
from jax.experimental import checkify


def nan_origin(f, *args):
    checked = checkify.checkify(f, errors=checkify.nan_checks)

    def scrubbed(*a):
        err, out = checked(*a)
        return err, jax.tree_util.tree_map(jnp.nan_to_num, out)

    with jax.debug_nans(True):
        err, _ = jax.jit(scrubbed)(*args)
    try:
        err.throw()
    except checkify.JaxRuntimeError as failure:
        return getattr(failure.__cause__, "prim", None) or str(failure).split()[-1].rstrip(".")
    return None
