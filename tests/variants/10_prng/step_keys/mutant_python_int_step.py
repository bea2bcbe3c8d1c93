"""Wrong: int(step) needs a concrete value, so it fails once the step is traced under jit."""

import jax

NOISE_SIZE = 4


def noise_for_step(base_key, step):
    return jax.random.normal(jax.random.fold_in(base_key, int(step)), (NOISE_SIZE,))


def noise_for_examples(base_key, example_ids):
    return jax.vmap(lambda i: jax.random.normal(jax.random.fold_in(base_key, i), (NOISE_SIZE,)))(example_ids)
