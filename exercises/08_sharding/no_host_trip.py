"""Keep the data on the devices: no round trip through the host.

`np.asarray(x)`, `float(x)` and `.item()` copy device data to the host; a
NumPy or Python value mixed back into jnp code is copied to the devices
again. On accelerators every such trip stalls the program (and a sharded
array is gathered whole onto one host first). `jax.transfer_guard("disallow")`
turns implicit transfers into errors so you can find them; under `jax.jit`
a host round trip cannot even be traced. Inside jit, constants are part of
the compiled program and statistics stay sharded on the devices.
Docs: https://docs.jax.dev/en/latest/transfer_guard.html

Task (fix-it): `standardize(x)` (each column to mean 0, std 1; `x` split by
rows over devices) computes its statistics with NumPy on the host. Make it
one jitted program with no host round trip, returning a result sharded like
`x`. Keep the signature.
"""

import jax
import jax.numpy as jnp
import numpy as np


def standardize(x: jax.Array) -> jax.Array:
    host = np.asarray(x)  # copies every shard to the host
    mean = host.mean(axis=0)
    std = host.std(axis=0)
    return (x - mean) / std  # mean and std go back to the devices
