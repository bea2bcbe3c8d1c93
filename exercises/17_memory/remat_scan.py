"""Rematerialisation: recompute in the backward pass instead of storing.

To differentiate, the forward pass keeps residuals: intermediate values the
backward pass will read. In a scan over layers they are stacked, one per layer,
and all stay alive until the backward pass gets back to that layer: memory grows
with depth × batch × width. jax.checkpoint(f) (alias jax.remat) keeps only f's
inputs; the backward pass runs f's forward again for the rest: less memory, more
compute. Checkpoint the scan's step (one layer) and each layer keeps only its
input. Checkpointing the whole loss instead only moves the problem: the
backward pass re-runs the scan, which then stacks every layer's values again.
jax.ad_checkpoint.print_saved_residuals(loss, ws, x) lists what is kept, and
jax.jit(f).lower(*args).compile().memory_analysis() reports the bytes.
Docs: https://docs.jax.dev/en/latest/gradient-checkpointing.html

Task (fix-it): `loss(ws, x)` runs x through len(ws) tanh layers with lax.scan.
Its gradient keeps three (batch, width) arrays per layer. Make the backward pass
recompute each layer so that only each layer's input is kept, with the same
loss and gradients: jax.checkpoint on the scan's step does the recomputing (not
a hand-written backward pass). Keep the signatures.
"""

# Diagram: remat
#   kept per layer for the backward pass (x: the layer's input; tanh, sub: values computed from it)
#
#   lax.scan(layer, x, ws)                                    lax.scan(jax.checkpoint(layer), x, ws)
#   layer 1 |  x   | tanh | sub  |                            layer 1 | x |
#   layer 2 |  x   | tanh | sub  |  --checkpoint the step-->  layer 2 | x |
#   layer 3 |  x   | tanh | sub  |                            layer 3 | x |
#   layer 4 |  x   | tanh | sub  |                            layer 4 | x |

import jax
import jax.numpy as jnp
from jax import lax


def layer(x, w):
    return jnp.tanh(x @ w), None


def loss(ws, x):
    y, _ = lax.scan(layer, x, ws)
    return jnp.mean(y ** 2)
