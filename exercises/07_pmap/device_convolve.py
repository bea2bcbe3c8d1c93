"""pmap: one copy of the function per device.

`jax.pmap(f)` splits its arguments' leading axis across devices: with D
devices the leading axis must have length D, device i runs `f` on slice i,
and the result keeps a leading axis of length D whose row i stays on device
i. (In JAX 0.10 pmap is built on `jax.shard_map`: the result is a jax.Array
sharded over a one-axis device mesh.) `vmap` gives the same numbers but
computes everything on one device.
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.pmap.html

Task (fill-in): `convolve(x, w)` filters one signal. Write
`convolve_per_device(xs, ws)` for xs of shape (devices, length) and ws of
shape (devices, taps), where devices is `jax.device_count()`: device i must
compute `convolve(xs[i], ws[i])`, and the (devices, length - taps + 1)
result stays spread over the devices. Use `jax.pmap`. Keep both signatures.
"""

import jax
import jax.numpy as jnp


def convolve(x: jnp.ndarray, w: jnp.ndarray) -> jnp.ndarray:
    return jnp.convolve(x, w, mode="valid")


def convolve_per_device(xs: jnp.ndarray, ws: jnp.ndarray) -> jnp.ndarray:
    raise NotImplementedError("TODO: run convolve on every device with jax.pmap")
