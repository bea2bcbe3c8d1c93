"""Values right for small numbers, key use wrong: a table split(clone(base_key), 1000) indexed by the
step or the id. JAX takes the clone for a fresh key, but it is the base key, which the split spends; and a
step or id past the table is clipped to its last row, so step 5000 repeats step 999's noise: the key is not
rebuilt from (base key, number)."""

import jax

NOISE_SIZE = 4
TABLE = 1000


def _table(base_key):
    return jax.random.split(jax.random.clone(base_key), TABLE)


def noise_for_step(base_key, step):
    return jax.random.normal(_table(base_key)[step], (NOISE_SIZE,))


def noise_for_examples(base_key, example_ids):
    keys = _table(base_key)[example_ids]
    return jax.vmap(lambda k: jax.random.normal(k, (NOISE_SIZE,)))(keys)
