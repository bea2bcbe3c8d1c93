"""Values right, setting wrong: switches NaN checking on and, in a finally, back to off, error or not; a
caller who had it on (set with jax.config.update) finds it off afterwards."""

import jax


def nan_origin(f, *args):
    jax.config.update("jax_debug_nans", True)
    try:
        jax.block_until_ready(jax.jit(f)(*args))
    except FloatingPointError as error:
        return str(error).split()[-1]
    finally:
        jax.config.update("jax_debug_nans", False)
    return None
