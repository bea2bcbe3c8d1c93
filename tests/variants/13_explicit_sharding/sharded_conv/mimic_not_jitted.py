"""Values and layout right, jit skipped: the convolution runs eagerly, op by op, on the split batch; the
task's filter_batch is jitted."""

from jax import lax


def filter_batch(x, k):
    return lax.conv_general_dilated(x, k, window_strides=(1,), padding="VALID")
