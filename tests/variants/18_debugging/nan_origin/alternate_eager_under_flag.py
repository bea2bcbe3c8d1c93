"""Right, unusually: runs f op by op (no jit) under the flag; each operation is checked as it runs, so the first NaN still stops it."""

import jax


def nan_origin(f, *args):
    with jax.debug_nans(True):
        try:
            f(*args)
        except FloatingPointError as error:
            message = str(error)
            return message[message.rindex(" ") + 1:]
    return None
