"""Values right, setting leaked: restores with jax.config.update the value it read, which inside a caller's `with jax.debug_nans(True)` turns the global option on for good."""

import jax


def nan_origin(f, *args):
    before = jax.config.jax_debug_nans
    jax.config.update("jax_debug_nans", True)
    try:
        jax.block_until_ready(jax.jit(f)(*args))
    except FloatingPointError as error:
        return str(error).split()[-1]
    finally:
        jax.config.update("jax_debug_nans", before)
    return None
