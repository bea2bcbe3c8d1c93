"""Values right, setting not restored: switches jax_debug_nans off afterwards, even for a caller who had it on (and leaves it on when f raises)."""

import jax


def nan_origin(f, *args):
    jax.config.update("jax_debug_nans", True)
    try:
        jax.block_until_ready(jax.jit(f)(*args))
    except FloatingPointError as error:
        jax.config.update("jax_debug_nans", False)
        return str(error).split()[-1]
    jax.config.update("jax_debug_nans", False)
    return None
