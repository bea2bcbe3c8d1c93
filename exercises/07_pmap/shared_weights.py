"""pmap in_axes: broadcast what every device shares.

Like vmap, pmap takes `in_axes`: `None` hands the same whole value to every
device instead of splitting it. Without it, shared weights have to be
stacked into one copy per device first (`jnp.stack([w] * n)`,
`jnp.tile`, `jnp.broadcast_to`), which builds and splits an n-times-larger
array on every call. (shard_map says the same with `in_specs=P()`: the
argument is replicated on every device, not split.)
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.pmap.html

Task (fill-in): write `convolve_shared(xs, w)` for xs of shape (devices,
length), devices being `jax.device_count()`, and ONE filter w of shape
(taps,): device i computes `convolve(xs[i], w)`, and the result stays spread
over the devices. Pass w to `jax.pmap` unmapped (to `jax.shard_map`:
replicated); never build a (devices, taps) stack of copies. Repeated calls
reuse one compiled program. Keep both signatures.
"""

import jax
import jax.numpy as jnp


def convolve(x: jnp.ndarray, w: jnp.ndarray) -> jnp.ndarray:
    return jnp.convolve(x, w, mode="valid")


def convolve_shared(xs: jnp.ndarray, w: jnp.ndarray) -> jnp.ndarray:
    raise NotImplementedError("TODO: jax.pmap convolve with in_axes=(0, None)")
