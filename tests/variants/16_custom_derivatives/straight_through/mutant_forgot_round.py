"""Wrong: the custom rule is right but the forward pass lost the rounding: quantize is the identity."""

import jax


@jax.custom_jvp
def quantize(x):
    return x


@quantize.defjvp
def _quantize_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return quantize(x), t
