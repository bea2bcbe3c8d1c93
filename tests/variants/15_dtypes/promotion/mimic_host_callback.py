"""Wrong: right dtype and values, but the arithmetic runs in float32 NumPy on the host through jax.pure_callback."""

import jax
import numpy as np


def blend(x, y, gain):
    def on_host(x, y):
        return (np.asarray(x, np.float32) + np.float32(gain) * np.asarray(y, np.float32)).astype(x.dtype)

    return jax.pure_callback(on_host, jax.ShapeDtypeStruct(x.shape, x.dtype), x, y)
