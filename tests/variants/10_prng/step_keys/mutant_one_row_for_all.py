"""Wrong: one draw broadcast to every example: shuffling changes nothing, but all rows are equal."""

import jax
import jax.numpy as jnp

NOISE_SIZE = 4


def noise_for_step(base_key, step):
    return jax.random.normal(jax.random.fold_in(base_key, step), (NOISE_SIZE,))


def noise_for_examples(base_key, example_ids):
    row = jax.random.normal(jax.random.fold_in(base_key, 0), (NOISE_SIZE,))
    return jnp.broadcast_to(row, (example_ids.shape[0], NOISE_SIZE))
