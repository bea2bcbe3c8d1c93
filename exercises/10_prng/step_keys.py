"""fold_in: a key for step t, or for example i, without spending the base key.

`jax.random.fold_in(key, data)` mixes an integer into a key and returns a new
key. It is pure and does not consume `key`: one base key can serve a whole run,
and the key for step 1234 can be rebuilt at any time (after a restart, out of
order) from the base key and the number. It also works on traced integers,
inside jit and vmap. Splitting, by contrast, spends the key it splits.
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.random.fold_in.html

Task (fill-in): write
- `noise_for_step(base_key, step)`: NOISE_SIZE standard normals for training
  step `step`, any int32 (and it may be traced: the training step is jitted).
- `noise_for_examples(base_key, example_ids)`: one row of NOISE_SIZE standard
  normals per id in the int32 array `example_ids` (any int32 ids), the same
  row for an id wherever it sits in the batch.
Different steps, and different ids, get different noise.
The same base key is passed in again and again: do not consume it.
"""

import jax
import jax.numpy as jnp

NOISE_SIZE = 4


def noise_for_step(base_key: jax.Array, step) -> jnp.ndarray:
    raise NotImplementedError("TODO: fold the step into the base key, then draw from the new key")


def noise_for_examples(base_key: jax.Array, example_ids: jnp.ndarray) -> jnp.ndarray:
    raise NotImplementedError("TODO: one folded-in key per example id (jax.vmap over the ids)")
