"""Values right, work wrong: the rounding itself is done on the host, by NumPy, through
jax.pure_callback (np.round also rounds halves to even); the rule is right, but the forward value is
not jnp.round's, and every call leaves the device for the host and back."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.custom_jvp
def quantize(x):
    return jax.pure_callback(lambda v: np.round(np.asarray(v)), jax.ShapeDtypeStruct(x.shape, x.dtype), x,
                             vmap_method="expand_dims")


@quantize.defjvp
def _quantize_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return quantize(x), t
