"""pmap: one copy of the function per device (a legacy API).

`jax.pmap(f)` splits its arguments' leading axis across devices: with D
devices the leading axis must have length D, device i runs `f` on slice i,
and row i of the result stays on device i. `vmap` gives the same numbers
but computes everything on one device.
pmap is legacy: its docstring now reads "Old way of doing parallel map. Use
jax.shard_map instead", and since JAX 0.8 it is built on `jax.jit` +
`jax.shard_map` over a one-axis mesh. It maps one leading axis only (more
axes of devices need nested pmaps) and makes the caller reshape data to
(devices, ...). shard_map writes the same per-device code over a mesh of any
shape and composes with jit and sharded arrays. pmap fills existing code
and its ideas carry over: this topic uses it; topic 08 teaches shard_map.
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.pmap.html

Task (fill-in): `convolve(x, w)` filters one signal. Write
`convolve_per_device(xs, ws)` for xs of shape (devices, length) and ws of
shape (devices, taps), where devices is `jax.device_count()`: device i must
compute `convolve(xs[i], ws[i])`, and the (devices, length - taps + 1)
result stays spread over the devices. Use `jax.pmap` (or `jax.shard_map`,
which it is built on); repeated calls reuse one compiled program. Keep both
signatures.
"""

import jax
import jax.numpy as jnp


def convolve(x: jnp.ndarray, w: jnp.ndarray) -> jnp.ndarray:
    return jnp.convolve(x, w, mode="valid")


def convolve_per_device(xs: jnp.ndarray, ws: jnp.ndarray) -> jnp.ndarray:
    raise NotImplementedError("TODO: run convolve on every device with jax.pmap")
