"""Values look right, independence wrong: view_b's noise is view_a's noise negated and shuffled by a
random permutation (which draws values of its own, so the count of values drawn is right). The two
noises are uncorrelated, yet one is a copy of the other."""

import jax


def two_views(key, x, sigma=0.1):
    noise_key, order_key = jax.random.split(key)
    noise = sigma * jax.random.normal(noise_key, x.shape)
    shuffled = jax.random.permutation(order_key, noise.ravel()).reshape(x.shape)
    return x + noise, x - shuffled
