"""Wrong: the step never reaches the key, so every step gets the same noise."""

import jax

NOISE_SIZE = 4


def noise_for_step(base_key, step):
    return jax.random.normal(jax.random.fold_in(base_key, 0), (NOISE_SIZE,))


def noise_for_examples(base_key, example_ids):
    return jax.vmap(lambda i: jax.random.normal(jax.random.fold_in(base_key, i), (NOISE_SIZE,)))(example_ids)
