"""Right, unusually: works on the base key's raw (legacy uint32) data; fold_in and normal accept raw
keys and give the same streams, and the typed base key is never consumed."""

import jax

NOISE_SIZE = 4


def noise_for_step(base_key, step):
    raw = jax.random.key_data(base_key)
    return jax.random.normal(jax.random.fold_in(raw, step), (NOISE_SIZE,))


def noise_for_examples(base_key, example_ids):
    return jax.vmap(lambda i: noise_for_step(base_key, i))(example_ids)
