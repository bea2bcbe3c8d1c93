"""Right, unusually: jax.debug_nans(True) used as a decorator, which sets the option for each call of the helper only."""

import jax


@jax.debug_nans(True)
def _run_checked(f, args):
    return jax.block_until_ready(jax.jit(f)(*args))


def nan_origin(f, *args):
    try:
        _run_checked(f, args)
    except FloatingPointError as error:
        return str(error).rsplit(" ", 1)[-1]
    return None
