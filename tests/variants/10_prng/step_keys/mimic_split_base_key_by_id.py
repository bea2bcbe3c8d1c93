"""Values right, key use wrong: indexes split(base_key, 1000) by id: each id keeps its row, but every
call splits (spends) the base key again, which the caller passes in again and again."""

import jax

NOISE_SIZE = 4


def noise_for_step(base_key, step):
    return jax.random.normal(jax.random.fold_in(base_key, step), (NOISE_SIZE,))


def noise_for_examples(base_key, example_ids):
    keys = jax.random.split(base_key, 1000)[example_ids]
    return jax.vmap(lambda k: jax.random.normal(k, (NOISE_SIZE,)))(keys)
