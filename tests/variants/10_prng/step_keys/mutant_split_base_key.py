"""Wrong: split(base_key, 1000)[step] works under jit, but spends the base key on every call."""

import jax

NOISE_SIZE = 4


def noise_for_step(base_key, step):
    return jax.random.normal(jax.random.split(base_key, 1000)[step], (NOISE_SIZE,))


def noise_for_examples(base_key, example_ids):
    return jax.vmap(lambda i: jax.random.normal(jax.random.fold_in(base_key, i), (NOISE_SIZE,)))(example_ids)
