"""Right values and layout, but filter_batch is not the jitted function the task names: the
convolution runs op by op (a derived mutant, drop-jit, that passed every check once)."""

from jax import lax


def filter_batch(x, k):
    return lax.conv_general_dilated(x, k, window_strides=(1,), padding="VALID")
