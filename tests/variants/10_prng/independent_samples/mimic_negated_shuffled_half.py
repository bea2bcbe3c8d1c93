"""Values look right, independence wrong: draws half the samples, then fills the other half with
those samples negated and shuffled by a random permutation (which draws values of its own, so the
count of values drawn is right). Every sample is distinct and the mean is 0, yet half are copies."""

import jax
import jax.numpy as jnp


def n_samples(key, n):
    draw_key, order_key = jax.random.split(key)
    half = jax.random.normal(draw_key, ((n + 1) // 2,))
    return jnp.concatenate([half, -jax.random.permutation(order_key, half)])[:n]
