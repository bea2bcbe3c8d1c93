"""Wrong: one split key per batch position, so an example's noise changes when the batch is shuffled."""

import jax

NOISE_SIZE = 4


def noise_for_step(base_key, step):
    return jax.random.normal(jax.random.fold_in(base_key, step), (NOISE_SIZE,))


def noise_for_examples(base_key, example_ids):
    keys = jax.random.split(jax.random.fold_in(base_key, 999), example_ids.shape[0])
    return jax.vmap(lambda k: jax.random.normal(k, (NOISE_SIZE,)))(keys)
