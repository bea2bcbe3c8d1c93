"""vmap: write the model for one example, let JAX batch it.

`jax.vmap(f)` turns a function written for one example into one that takes
a batch: it traces `f` once and rewrites every operation to carry an extra
batch axis. Unlike a Python loop over the examples, the traced program does
not grow with the batch size, and the work runs as one vectorized program.
`in_axes` says which arguments carry the batch: `None` means "shared by all
examples, do not map".
Docs: https://docs.jax.dev/en/latest/automatic-vectorization.html

Task (fill-in): `predict_single(w, b, x)` gives one example's probability
under logistic regression (`w` of shape (d,), `b` a scalar, `x` of shape (d,)).
Write `predict_batch(w, b, xs)` for `xs` of shape (batch, d), returning shape
(batch,), by mapping `predict_single` over the examples with `jax.vmap`
(no Python loop). Keep both signatures.
"""

import jax
import jax.numpy as jnp


def predict_single(w: jnp.ndarray, b: jnp.ndarray, x: jnp.ndarray) -> jnp.ndarray:
    return jax.nn.sigmoid(jnp.dot(w, x) + b)


def predict_batch(w: jnp.ndarray, b: jnp.ndarray, xs: jnp.ndarray) -> jnp.ndarray:
    raise NotImplementedError("TODO: map predict_single over the rows of xs with jax.vmap (w and b are shared)")
