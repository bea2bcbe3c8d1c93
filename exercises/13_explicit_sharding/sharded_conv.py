"""Data-parallel convolution: the batch stays split, each device filters its own.

A convolution treats every example of a batch on its own, so a batch split
over a mesh axis needs no communication at all. Under jit, with the batch
typed `float32[16@data,2,12]` and the kernel replicated, the batch
dimension's split flows through `lax.conv_general_dilated` into its result
(`float32[16@data,3,9]`) and XLA runs one convolution per device on that
device's examples. Gathering the batch first ("a convolution needs all the
data") copies every example to every device and convolves the whole batch
once per device. By default lax.conv_general_dilated(x, k, window_strides,
padding) reads x as (batch, in_channels, width) and k as (out_channels,
in_channels, taps), and computes a cross-correlation (k is not flipped).
Docs: https://docs.jax.dev/en/latest/notebooks/convolutions.html

Task (fill-in): `filter_batch(x, k)` (jitted) returns the stride-1, 'VALID'
lax.conv_general_dilated of the batch `x` (split by examples over mesh axis
"data") with the replicated kernel `k`, split over the devices like `x`.
Keep the signature.
"""

import jax
from jax import lax


def filter_batch(x: jax.Array, k: jax.Array) -> jax.Array:
    raise NotImplementedError("TODO: jit a lax.conv_general_dilated of x with k; keep the batch split")
