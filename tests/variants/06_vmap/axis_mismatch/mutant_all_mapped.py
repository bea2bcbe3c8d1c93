"""Wrong: the default in_axes=0 maps b too, adding the scalar b[i] to example i."""

import jax


def add_three(a, b, c):
    return a + b + c


add_batched = jax.vmap(add_three, in_axes=(0, 0, 1))
