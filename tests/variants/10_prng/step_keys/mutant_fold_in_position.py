"""Wrong: folds the batch position (0, 1, 2, ...) into the base key instead of the example id, so an
example's noise changes when the batch is shuffled."""

import jax
import jax.numpy as jnp

NOISE_SIZE = 4


def noise_for_step(base_key, step):
    return jax.random.normal(jax.random.fold_in(base_key, step), (NOISE_SIZE,))


def noise_for_examples(base_key, example_ids):
    positions = jnp.arange(example_ids.shape[0])
    return jax.vmap(lambda i: noise_for_step(base_key, i))(positions)
