"""Wrong: each device's share is convolved by NumPy in a host callback; a lax.conv_general_dilated
whose result is thrown away stands beside it as a decoy."""

import jax
import numpy as np
from jax import lax
from jax.sharding import PartitionSpec as P


def _numpy_conv(x, k):
    taps = k.shape[-1]
    width = x.shape[-1] - taps + 1
    windows = np.stack([x[:, :, t:t + width] for t in range(taps)], axis=-1)
    return np.einsum("bcwt,oct->bow", windows, k).astype(np.float32)


@jax.jit
def filter_batch(x, k):
    mesh = jax.typeof(x).sharding.mesh
    lax.conv_general_dilated(x, k, (1,), "VALID")

    def per_device(xb, kb):
        shape = (xb.shape[0], kb.shape[0], xb.shape[-1] - kb.shape[-1] + 1)
        return jax.pure_callback(_numpy_conv, jax.ShapeDtypeStruct(shape, xb.dtype), xb, kb)

    return jax.shard_map(per_device, mesh=mesh, in_specs=(P("data"), P()), out_specs=P("data"))(x, k)
