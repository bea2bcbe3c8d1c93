"""Right, differently: a Python loop over the ids (fine for a small batch) and a fold_in chain."""

import jax
import jax.numpy as jnp

NOISE_SIZE = 4


def noise_for_step(base_key, step):
    # Folding in a fixed tag first keeps step keys apart from any other use of the base key.
    step_key = jax.random.fold_in(jax.random.fold_in(base_key, 17), step)
    return jax.random.normal(step_key, (NOISE_SIZE,))


def noise_for_examples(base_key, example_ids):
    return jnp.stack([jax.random.normal(jax.random.fold_in(base_key, i), (NOISE_SIZE,))
                      for i in example_ids])
