"""Committed arrays: data stays on the device you put it on.

`jax.device_put(x, device)` copies `x` to that device and *commits* it there.
A computation runs where its committed inputs live, and its result stays
there. JAX never moves committed data on its own: adding an array committed
to device 2 to one committed to device 5 is an error, not a silent copy. You
decide where the work happens by moving one input explicitly.
Docs: https://docs.jax.dev/en/latest/sharded-computation.html

Task (fill-in): `put_on(x, index)` returns `x` committed to `jax.devices()[index]`.
`add_on_first(a, b)` returns `a + b` computed on `a`'s device, whatever device
`b` is committed to. Keep both signatures.
"""

import jax
import numpy as np


def put_on(x: np.ndarray, index: int) -> jax.Array:
    raise NotImplementedError("TODO: place x on jax.devices()[index]")


def add_on_first(a: jax.Array, b: jax.Array) -> jax.Array:
    raise NotImplementedError("TODO: move b to a's device, then add")
