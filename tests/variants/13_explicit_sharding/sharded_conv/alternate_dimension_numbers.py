"""Right, unusually: spells out dimension_numbers and zero padding, in a jitted helper the function calls."""

import jax
from jax import lax


def filter_batch(x, k):
    return _conv(x, k)


@jax.jit
def _conv(x, k):
    return lax.conv_general_dilated(x, k, window_strides=(1,), padding=[(0, 0)],
                                    dimension_numbers=("NCH", "OIH", "NCH"))
